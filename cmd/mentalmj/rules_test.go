package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestRulesCommand(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		args        []string
		code        int
		out, errOut string
	}{
		{[]string{"rules"}, 0, "mleague  M-League rules (red fives, open tanyao)", ""},
		{[]string{"rules"}, 0, "west-target", ""},
		{[]string{"rules", "wrc", "--rule", "aka=3"}, 0, "WRC rules (red fives, open tanyao)\n", ""},
		{[]string{"rules", "--rule", "tobi=off"}, 0, "* tobi=off", ""},
		{[]string{"rules", "wrc", "--rule", "aka=5"}, 2, "", "want 0, 1, 2, 3 or 4 red fives"},
		{[]string{"rules", "nosuch"}, 2, "", "presets: tenhou, majsoul, mleague, wrc, ema"},
		{[]string{"rules", "--rule", "nosuch=1"}, 2, "", "switches: agari-yame, aka,"},
		{[]string{"rules", "wrc", "ema"}, 2, "", "one preset at most"},
	} {
		var out, errOut bytes.Buffer
		code := run(context.Background(), c.args, &out, &errOut)
		if code != c.code || !strings.Contains(out.String(), c.out) || !strings.Contains(errOut.String(), c.errOut) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d with %q / %q", c.args, code, out.String(), errOut.String(), c.code, c.out, c.errOut)
		}
	}
}
