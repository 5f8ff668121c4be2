//go:build unix

package lab

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// watch copies the victim's log to w and signals proc once a line holds
// v.after (after v.delay); a stopped process is continued after v.resume.
func watch(r io.Reader, w io.Writer, proc *os.Process, v *victim) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fmt.Fprintln(w, sc.Text())
		if v.fired || !strings.Contains(sc.Text(), v.after) {
			continue
		}
		v.fired = true
		time.Sleep(v.delay)
		proc.Signal(v.sig)
		if v.sig == syscall.SIGSTOP {
			go func() {
				time.Sleep(v.resume)
				proc.Signal(syscall.SIGCONT)
			}()
		}
	}
	io.Copy(w, r)
}
