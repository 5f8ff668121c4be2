package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/mentalmj/mentalmj/riichi/rules"
)

var rulesCommand = command{
	name:    "rules",
	summary: "list the house-rule presets and switches, or show one rule set",
	run:     runRules,
}

const rulesUsage = `rules [PRESET] [--rule NAME=VALUE ...]

With no argument, lists the presets (tenhou is the default) and every
switch with the values it takes. With a preset, and any --rule switches on
top of it, prints that rule set's one-line summary and the value of every
switch, marking with * those that differ from the tenhou preset.`

func runRules(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("rules", rulesUsage, stderr)
	var sw listFlag
	fs.Var(&sw, "rule", "a switch NAME=VALUE on top of the preset, repeatable")
	// The preset may come before or after the flags.
	preset := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		preset, args = args[0], args[1:]
	}
	if code, ok := parseFlags(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 || fs.NArg() == 1 && preset != "" {
		return usageError(fs, stderr, "one preset at most")
	}
	if fs.NArg() == 1 {
		preset = fs.Arg(0)
	}
	if preset == "" && len(sw) == 0 {
		fmt.Fprintf(stdout, "Presets (--rules NAME):\n")
		for _, name := range rules.PresetNames() {
			s, _ := rules.Preset(name)
			fmt.Fprintf(stdout, "  %-8s %s\n", name, s.Summary())
		}
		fmt.Fprintf(stdout, "\nSwitches (--rule NAME=VALUE):\n")
		for _, d := range rules.List() {
			fmt.Fprintf(stdout, "  %-16s %-26s %s\n", d.Name, d.Values, d.Help)
		}
		return 0
	}
	s, err := rules.Parse(preset, sw)
	if err != nil {
		fmt.Fprintf(stderr, "mentalmj rules: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "%s\n\n", s.Summary())
	base := rules.Default().Switches()
	for i, a := range s.Switches() {
		mark := " "
		if a != base[i] {
			mark = "*"
		}
		fmt.Fprintf(stdout, "%s %s\n", mark, a)
	}
	return 0
}
