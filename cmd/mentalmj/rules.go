package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/riichi/rules"
)

func rulesCommand() *cobra.Command {
	var sw listFlag
	cmd := leaf(rulesUsage, "list the house-rule presets and switches, or show one rule set", func(cmd *cobra.Command, args []string) int {
		return runRules(cmd, args, sw)
	})
	cmd.Flags().Var(&sw, "rule", "a switch NAME=VALUE on top of the preset, repeatable")
	choices(cmd, "rule", "switch", "switches", rules.Names()...)
	cmd.ValidArgs = rules.PresetNames()
	return cmd
}

const rulesUsage = `rules [PRESET] [--rule NAME=VALUE ...]

With no argument, lists the presets (tenhou is the default) and every
switch with the values it takes. With a preset, and any --rule switches on
top of it, prints that rule set's one-line summary and the value of every
switch, marking with * those that differ from the tenhou preset.`

func runRules(cmd *cobra.Command, args []string, sw listFlag) int {
	stdout := cmd.OutOrStdout()
	if len(args) > 1 {
		return usageError(cmd, "one preset at most")
	}
	preset := ""
	if len(args) == 1 {
		preset = args[0]
		if err := checkChoice(preset, "preset", "presets", rules.PresetNames()); err != nil {
			return usageError(cmd, "%v", err)
		}
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
		return fail(cmd, 2, "%v", err)
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
