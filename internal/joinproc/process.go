package joinproc

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
)

// Process is a started join process of a player.
type Process struct {
	cmd *exec.Cmd
	// Stdout is its standard output: the progress stream (join
	// --progress json), one JSON object a line.
	Stdout io.Reader
	// Stderr is its standard error when Start was given no writer for
	// it; nil otherwise.
	Stderr io.Reader
}

// Start starts bin with args as player p's process: ctx kills it, stdin
// (nil: the null device) is its input, stderr its standard error (nil:
// a pipe, Process.Stderr). Read Stdout (and Stderr) to their end before
// Wait. It returns the error of a pipe, or of starting, as "starting
// NAME: …".
func (p *Player) Start(ctx context.Context, bin string, args []string, stdin io.Reader, stderr io.Writer) (*Process, error) {
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Stdin, cmd.Stderr = stdin, stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	pr := &Process{cmd: cmd, Stdout: out}
	if stderr == nil {
		if pr.Stderr, err = cmd.StderrPipe(); err != nil {
			return nil, err
		}
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", p.Name, err)
	}
	return pr, nil
}

// OS is the operating system's process, for signals.
func (pr *Process) OS() *os.Process { return pr.cmd.Process }

// Wait waits for the process to exit and returns its exit status: join's
// exit code, -1 when a signal killed it, and 1 when it exited 0 but its
// output could not be copied.
func (pr *Process) Wait() int {
	err := pr.cmd.Wait()
	code := pr.cmd.ProcessState.ExitCode()
	if err != nil && code == 0 {
		code = 1
	}
	return code
}
