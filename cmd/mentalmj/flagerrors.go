package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// flagError turns pflag's parse errors into one line that names the flag
// and says what it wants: `--hands: "two" is not a number`, or for a
// mistyped flag the flags it resembles.
func flagError(cmd *cobra.Command, err error) error {
	var (
		notExist *pflag.NotExistError
		invalid  *pflag.InvalidValueError
		required *pflag.ValueRequiredError
	)
	switch {
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if name == "" {
			return &usageErr{fmt.Sprintf("unknown flag -%s", notExist.GetSpecifiedShortnames())}
		}
		msg := fmt.Sprintf("unknown flag --%s", name)
		if s := similar(name, flagNames(cmd)); len(s) > 0 {
			msg += fmt.Sprintf("; did you mean %s?", orList(s, "--"))
		}
		return &usageErr{msg}
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return &usageErr{fmt.Sprintf("--%s: %s", f.Name, badValue(f, invalid.GetValue(), errors.Unwrap(invalid)))}
	case errors.As(err, &required):
		return &usageErr{fmt.Sprintf("--%s needs a value", required.GetFlag().Name)}
	}
	return &usageErr{err.Error()}
}

// badValue says why value is not one of flag f's: by its type for
// pflag's own types, else the error of the flag's Set.
func badValue(f *pflag.Flag, value string, err error) string {
	switch f.Value.Type() {
	case "int", "int64", "uint", "uint64":
		return fmt.Sprintf("%q is not a number", value)
	case "duration":
		return fmt.Sprintf("%q is not a duration like 30s, 5m or 1h30m", value)
	case "bool":
		return fmt.Sprintf("%q is not true or false", value)
	}
	if err == nil {
		return fmt.Sprintf("%q is not a valid value", value)
	}
	return err.Error()
}

// flagNames lists cmd's flags, hidden ones (old names) left out.
func flagNames(cmd *cobra.Command) []string {
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return names
}

// similar returns the names among candidates that name may be a typo of:
// at most two edits away (one for a name of up to four letters), or
// starting with it. The closest come first.
func similar(name string, candidates []string) []string {
	type scored struct {
		name string
		d    int
	}
	var found []scored
	limit := 2
	if len(name) <= 4 {
		limit = 1
	}
	lower := strings.ToLower(name)
	for _, c := range candidates {
		d := editDistance(lower, strings.ToLower(c))
		if d <= limit || len(name) >= 3 && strings.HasPrefix(strings.ToLower(c), lower) {
			found = append(found, scored{c, d})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int { return a.d - b.d })
	var out []string
	for _, f := range found {
		out = append(out, f.name)
	}
	return out
}

// editDistance is the Damerau–Levenshtein distance of a and b (optimal
// string alignment: insertions, deletions, substitutions and swaps of
// two neighbouring bytes each cost 1).
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// choicesKey is the annotation of a flag whose values come from a fixed
// list of names (see choices): the noun for one and for many, then the
// names.
const choicesKey = "mentalmj_choices"

// choices declares that flag name of cmd takes one of names, each a noun
// (a "preset", one of the "presets"; compared without case; for a
// NAME=VALUE flag, the NAME part): the shells complete them, and a value
// that is none of them is a usage error with the names it resembles.
func choices(cmd *cobra.Command, name, noun, nouns string, names ...string) {
	_ = cmd.Flags().SetAnnotation(name, choicesKey, append([]string{noun, nouns}, names...))
	_ = cmd.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
}

// checkChoices checks the values of the flags choices declared; it runs
// before every command.
func checkChoices(cmd *cobra.Command, _ []string) error {
	var err error
	cmd.Flags().Visit(func(f *pflag.Flag) {
		a, ok := f.Annotations[choicesKey]
		if !ok || err != nil {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(interface{ GetSlice() []string }); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			if e := checkChoice(v, a[0], a[1], a[2:]); e != nil {
				err = &usageErr{fmt.Sprintf("--%s: %v", f.Name, e)}
				return
			}
		}
	})
	return err
}

// checkChoice checks one value v against names, the noun's: the error
// says "no preset "tenhuo" (did you mean tenhou?); presets: tenhou, …".
func checkChoice(v, noun, nouns string, names []string) error {
	key, _, _ := strings.Cut(v, "=")
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return nil
		}
	}
	msg := fmt.Sprintf("no %s %q", noun, key)
	if s := similar(key, names); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", orList(s, ""))
	}
	return fmt.Errorf("%s; %s: %s", msg, nouns, strings.Join(names, ", "))
}

// longFlags rewrites the single-dash long flags the Go flag package
// accepted (-table x, -json), which pflag reads as shorthands, into
// --table x, so that command lines written for mentalmj's earlier parser
// keep working. It rewrites only names of flags of the command args
// runs, and leaves shorthands (-v, -h), flag values and everything after
// "--" alone.
func longFlags(root *cobra.Command, args []string) []string {
	cmd, _, err := root.Find(args)
	if err != nil {
		return args
	}
	fs := cmd.Flags()
	out := slices.Clone(args)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "-") || len(a) < 3 {
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		f := fs.Lookup(name)
		if name == "help" && f == nil {
			f = &pflag.Flag{Name: "help", Value: boolType{}}
		}
		if f == nil {
			continue
		}
		if a[1] != '-' {
			out[i] = "-" + a
		}
		if !hasValue && f.NoOptDefVal == "" && f.Value.Type() != "bool" {
			i++ // the next argument is this flag's value
		}
	}
	return out
}

// boolType stands for the help flag cobra adds while it runs.
type boolType struct{}

func (boolType) String() string   { return "false" }
func (boolType) Set(string) error { return nil }
func (boolType) Type() string     { return "bool" }
