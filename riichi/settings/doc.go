// Package settings is the game a table plays: everything its players must
// agree on before the first hand, in one value with one wire form.
//
// # The model
//
// A table's Settings are its player count (4, or 3 for sanma), the match
// length (a hanchan, a tonpuu, or the first N hands of either), the house
// rules (a preset and the switches set on top of it, package riichi/rules), the
// time control of a human seat (package riichi/timecontrol), and whether the
// table plays with the zero-knowledge proofs and in private-hands mode.
//
// The host chooses them (mentalmj host). They travel in one protobuf
// message, pb.Settings (pb/settings.proto), in three places: the invite
// string, so a guest sees the game before it dials; the seating list the
// host signs, so the game the guest confirms is the host's; and every
// player's Hello (protocol), so that a node whose settings differ is a
// configuration fault naming it before the first hand. Decode (FromProto)
// refuses what it cannot honour — a field, a rule switch or a preset this
// build does not know — with ErrUnknown, never by guessing: the caller
// makes that a configuration fault naming the sender, never a blame.
//
// Summary writes the settings as a guest reads them before it confirms:
// "4 players, hanchan, Tenhou rules (red fives, open tanyao), 5+10 s per
// decision, private hands".
package settings
