// Package viewer is the replay viewer of `mentalmj view FILE`: it reads a
// finished game's record into the sequence of table states a player saw,
// and serves them to the browser as the live table draws them.
//
// The model: a record of any supported format (Detect names it from its
// first bytes) is read into one Tenhou mjlog game (record/mjlog) — a
// mentalmj transcript through its offline audit
// (protocol.AuditTranscript, each hand's mjlog round), tenhou.net/6 JSON
// and mjai logs by their readers (record/tenhou6.Read, record/mjai.Read)
// — and the game is replayed through the rules engine
// (riichi/replay.Walk), which keeps the kyoku after the deal and after
// every event: a Record. A Frame is one of
// those moments from one seat's point of view (or with every hand open),
// drawn by the live table's own model (ui/screen): the kyoku's events up
// to that moment are fed to a fresh screen.Model, the end of the kyoku
// as its end-of-hand screen, the end of the game as its standings. So
// the page shows exactly what a player at the table would have seen.
//
// Verification travels with each kyoku: for a transcript, the audit's
// verdict on the hand (as the live table shows it); for a Tenhou log with
// a SHUFFLE seed, the wall regenerated from Tenhou's seed and compared
// with the log (wall/tenhou.Verify): "wall verified from Tenhou's seed"
// or the mismatch.
//
// Privacy: a record that is one player's view (a private-hands game) has
// its unseen tiles hidden, and they stay hidden: the engine carries them
// as game.Unknown and the page draws their backs. A seat's view sends the
// page only that seat's concealed tiles.
//
// The page (assets, embedded) loads the live table's drawing code from
// ui/web and is served on 127.0.0.1 behind the table's token, Host and
// Origin guard (web.ListenPage). It works offline.
package viewer
