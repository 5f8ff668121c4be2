// Package i18n holds the messages of the tables, the replay viewer and the
// statistics pages in every language they speak, and picks the language.
//
// # The model
//
// Each language is one catalogue, catalog/CODE.json (an object from
// message key to message), embedded in the binary: adding a language
// (Chinese, Korean, …) is adding a file, no code. English, catalog/en.json,
// is the reference: every other catalogue should have all its keys; a
// key a catalogue lacks falls back to the English message (Lang.T), and
// the package's tests fail on it (Missing). Messages are fmt formats whose
// verbs may name their argument (%[2]d), so that a language puts the
// arguments in its own order: "%[1]s %[2]d" is "East 1", "%[1]s%[2]d局"
// "東1局".
//
// Mahjong terms are those Japanese players read on Tenhou (立直, ツモ,
// ロン, ポン, チー, カン, 流局, 聴牌, 東1局, 本場, ドラ), the yaku names as
// Tenhou writes them (the comments of riichi/yakuname.go list them by
// Tenhou's yaku id), and points as 30符4飜7700点.
//
// The language is the one the player asked for (--lang), else the
// system's (Detect: LC_ALL, LC_MESSAGES, LANG) for the terminal, and the
// browser's for a page (Script hands the page every catalogue and the
// language asked for, if any; the page picks from navigator.languages).
package i18n
