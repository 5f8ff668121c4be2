// Package terminal is the table for people without a browser: it draws
// the screen.Model (ui/screen) as text — seats with nickname, seat wind, dealer mark,
// score and riichi stick, rivers with tsumogiri, riichi and called tiles
// marked, melds, the player's numbered hand — prints the feed of events
// between decisions and an end-of-hand summary, and reads the player's
// actions as stable numbers (Keys: a tile keeps its number while it is
// held, the drawn tile takes the number the last discard freed, and 0 is
// always the drawn tile) or words
// (pass, chi, pon, kan, ron, tsumo, riichi 5m, help).
//
// One goroutine reads the input for the whole game (Lines), so a
// decision that times out loses no line and a later decision reads the
// next one whole; control characters (a NUL from a terminal, say) are
// dropped from each line, and lines typed before a prompt was shown are
// reported and ignored rather than taken as an answer to a question the
// player had not seen.
//
// The table speaks the language SetLang gives it (package i18n: --lang,
// else the system's LANG/LC_ALL/LC_MESSAGES): the help, the options, the
// prompts, the refusals, the feed and the summaries; the commands typed
// stay the same words (pon, pass, riichi 5m) in every language.
package terminal
