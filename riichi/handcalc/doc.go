// Package handcalc is the hand calculator behind "mentalmj score": it takes
// one win described the way a player writes it down (tiles in the usual
// notation, calls, the situation, dora indicators, seat and round wind,
// the rules) and returns what the hand is worth, or why it does not win.
//
// # Model
//
//   - A Request is the win in text form. Its JSON form (one object per
//     line, see ScoreLines) uses exactly the keys of the Request fields'
//     json tags; an unknown key is an error for that line.
//   - Tiles are written "123m456p789s1234z" (m characters, p circles,
//     s bamboo, z honours East South West North haku hatsu chun); "0m",
//     "0p", "0s" are the red fives. Hand holds the concealed tiles without
//     the winning tile (13 - 3 per meld); the winning tile may also be
//     included (14 - 3 per meld) as in Tenhou's <AGARI hai=>.
//   - Melds are "TYPE:TILES": chi, pon, daiminkan (or minkan), kakan (or
//     shouminkan), ankan; "kita" (or "kita:4z") is one north set aside in
//     three-player mahjong (nukidora).
//   - Every tile, the dora and ura dora indicators included, is a physical
//     tile of one set: five copies of a kind, more red fives of a suit than
//     the rules have (package riichi/rules, switch aka), or a tile three-player
//     mahjong does not use (2m..8m) is malformed. The tiles are then given
//     concrete Tenhou ids across the whole request, red fives the ids the
//     rules make red (riichi.Rules.IsRed).
//   - The rules are a preset of package riichi/rules (Request.Rules, default
//     "tenhou") with house-rule switches on top (Request.Switches, the
//     --rule flag), turned into riichi.Rules by rules.Set.Game.
//   - The request is turned into a riichi.WinContext and scored by
//     riichi.Score, which follows Tenhou (see the riichi package doc for
//     the conventions: yaku order, fu, limits, kazoe yakuman, payments).
//
// # Tests
//
// Every <AGARI> of the shared Tenhou logs is rebuilt from its attributes as
// a JSON request and run through ScoreLines; the results must equal what
// Tenhou recorded. Worked examples and malformed lines are test data
// (testdata/*.jsonl).
//
// # Errors
//
// Score returns errors wrapping ErrMalformed (the request is not a
// possible win: bad notation, tile counts, impossible melds or situations,
// unknown rules) or ErrNoWin (a possible hand that does not win: not
// complete, or no yaku). The command maps them to exit codes 2 and 1.
package handcalc
