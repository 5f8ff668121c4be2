package main

import (
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/ui/i18n"
)

// addLang registers --lang on cmd: the language of the table, the viewer
// or the page (package i18n); "" takes the browser's language for a page
// and the system's (LC_ALL, LC_MESSAGES, LANG) for the terminal.
func addLang(cmd *cobra.Command, lang *string) {
	cmd.Flags().StringVar(lang, "lang", "", "language of the table and pages: ja or en (default: the browser's language for a page, the system's for the terminal)")
}

// checkLang checks --lang: an unknown language is a usage error naming
// the languages there are.
func checkLang(cmd *cobra.Command, lang string) (code int, ok bool) {
	if lang == "" {
		return 0, true
	}
	if _, err := i18n.Load(lang); err != nil {
		return usageError(cmd, "--lang: %v", err), false
	}
	return 0, true
}
