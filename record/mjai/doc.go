// Package mjai is the mjai protocol of riichi mahjong bots (gimite's mjai,
// Mortal's libriichi, akochan, mjai-manue): its events as JSON Lines, its
// tile notation, Tenhou mjlog games as mjai event streams (FromMjlog,
// WriteMjlog), per-seat views of those streams (View), and mjai logs read
// back into mjlog games (Read: each tile given an unused Tenhou id of its
// kind by record/internal/builder).
//
// # Events
//
// One JSON object per line, "type" first:
//
//	start_game  {names, id}            id: the seat the reader plays (seat views)
//	start_kyoku {bakaze, dora_marker, kyoku 1–4, honba, kyotaku, oya, scores, tehais}
//	tsumo       {actor, pai}           pai "?" when the reader may not see it
//	dahai       {actor, pai, tsumogiri}
//	chi, pon, daiminkan {actor, target, pai, consumed}
//	kakan       {actor, pai, consumed} pai the added tile, consumed the pon
//	ankan       {actor, consumed}
//	nukidora    {actor, pai}           three-player kita: pai "N" (see Three players)
//	dora        {dora_marker}
//	reach, reach_accepted {actor}
//	hora        {actor, target, deltas, ura_markers}
//	ryukyoku    {deltas}
//	end_kyoku, end_game, none
//
// Seats (actor, target, oya, id) are absolute 0..3, seat 0 the first East;
// scores and deltas are points. A bot's reply is one of dahai, reach, hora,
// chi, pon, daiminkan, kakan, ankan, ryukyoku (kyuushu kyuuhai) or none.
// Mortal also reads "can_act": false on an event as "only update your
// state" (libriichi's EventWithCanAct); Event.CanAct writes it.
//
// # Order
//
// Events follow mjai's order, which is also the order of Tenhou's mjlog
// tags: reach → dahai → reach_accepted (before a call on that dahai);
// ankan → dora → rinshan tsumo; daiminkan or kakan → rinshan tsumo → dora
// just before that player's next dahai (or next kan); one hora per winner
// of a double ron; end_kyoku after every kyoku and end_game last.
//
// # Three players
//
// Plain mjai has no three-player game; its three-player extension is the
// one of Mortal's libriichi forks for sanma (libriichi3p, and
// hidacow/mjai-reviewer3p's convlog, whose Event has Nukidora {actor, pai}
// and keeps [_; 4] arrays), which tools converting Mahjong Soul games
// (MahjongCopilot's BaBei) also write. This package follows it:
//
//   - four seats stay: start_game names 4 (the fourth ""), start_kyoku
//     scores 4 (the fourth 0) and tehais 4, the fourth 13 "?" tiles;
//     hora and ryukyoku deltas 4 (the fourth 0); seats 0..2 play;
//   - kita is {"type":"nukidora","actor":A,"pai":"N"}, followed by A's
//     replacement tsumo (Tenhou's kita draw), with no dora event; a bot
//     answers nukidora on its turn to declare kita;
//   - call targets are absolute seats 0..2; there is no chi.
//
// Some newer forks read the number of players from the length of scores
// (three entries); this package writes the four-entry form above.
//
// # Tiles
//
// "1m"…"9m", "1p"…"9p", "1s"…"9s", "E" "S" "W" "N" (winds), "P" "F" "C"
// (haku, hatsu, chun), "5mr" "5pr" "5sr" for red fives, "?" for a tile the
// reader may not see. Which ids are red is the table's (Tile takes a
// wall.Reds): none without red fives, so id 52 is then "5p"; with four
// red fives ids 52 and 53 are both "5pr"; a Tenhou log's are its GO aka
// bit's (mjlog.GoRule.Reds: 16, 52, 88 or none).
//
// Reference: Mortal's libriichi/src/mjai/event.rs and gimite's mjai
// protocol description.
package mjai
