// Package tenhou6 writes Tenhou mjlog games (record/mjlog) as tenhou.net/6
// JSON, the format the tenhou.net/6 viewer, NAGA and mjai-reviewer (Mortal)
// read, exactly as Tenhou serves it for the same game (Convert), and reads
// that JSON back into an mjlog game (Read).
//
// Reading: the JSON lists each seat's takes and discards apart, and names
// tiles by kind only; Read rebuilds the order of play the way Tenhou's
// viewer does and gives each tile an unused Tenhou id of its kind
// (record/internal/builder), so the game replays through the rules engine
// (riichi/replay) as the record's play goes.
//
// # The format
//
// One JSON object whose keys come in Tenhou's order:
//
//	ver         2.3
//	ref         the log id ("2019021004gm-00a9-0000-e2f6516d"), "" if unknown
//	log         one array per kyoku, see below
//	connection  [{what, log, who, step}], only when the mjlog has <BYE> or a
//	            reconnection: what 0 disconnect, 1 reconnect; log the kyoku
//	            index (-1 before the first); step the number of draws,
//	            discards and calls of that kyoku before it
//	ratingc     "PF4", or "PF3" for three players
//	rule        {disp: "般南喰赤" (三 first for three players; 般上特鳳 the
//	            lobby level, 東 or 南, 喰 open tanyao, 赤 red fives, 速 fast),
//	            aka53, aka52, aka51: 1 with red fives, else 0}
//	lobby       the lobby number
//	dan         four rank names ("新人", "９級"…"１級", "初段"…"十段", "天鳳")
//	rate        four ratings, sx four of "M", "F", "C"
//	sc          final score (points) and uma-adjusted result per seat,
//	            interleaved: [score0, result0, score1, result1, …]
//	name        four names ("" for the empty seat of a three-player game)
//
// A kyoku is a 17-element array: [kyoku (E1 = 0, S1 = 4), honba, riichi
// sticks], the four start scores in points, the dora indicators (the first
// and every <DORA>), the ura-dora indicators (those of a riichi winner, else
// empty), then per seat 0..3 its haipai (sorted, a red five after the plain
// five), its takes and its discards, and last the result. Three-player
// games keep four seats: the fourth has 0 points and empty arrays.
//
// Tiles are numbers: 11–19 man, 21–29 pin, 31–39 sou, 41–47 E S W N haku
// hatsu chun, 51–53 the red fives (only in games with red fives). A
// discard is the tile, 60 for the tile just drawn (tsumogiri), "r" before
// it (a string) for the riichi declaration discard. Calls are strings of
// the meld's tile codes in the order shown on the table, with a letter just
// before the tile taken from another seat: its position gives the seat it
// came from (first: kamicha, second: toimen, last: shimocha). "c" chi and
// "p" pon are takes; "m" daiminkan is a take and is followed by a 0 in the
// discards; "k" kakan (the added tile right after the letter, in place of
// the pon's letter) and "a" ankan (three plain tiles, "a", then the fourth,
// the red five when there is one) are discards, as is the three-player
// nukidora "f44".
//
// The result is ["和了", deltas, [who, from, pao, "30符4飜3900点",
// "立直(1飜)", …], …] with one deltas/detail pair per winner (pao = who when
// nobody is liable); the score string is "{fu}符{han}飜" or the limit name
// (満貫 跳満 倍満 三倍満 役満) followed by the ron value "{n}点", the
// non-dealer tsumo "{non-dealer}-{dealer}点" or the dealer tsumo "{n}点∀";
// yaku are "{name}({han}飜)" or "{name}(役満)", ura dora at 0 han left out.
// A draw is ["流局", deltas], ["全員聴牌"], ["全員不聴"], ["流し満貫",
// deltas] or an abortive draw: ["九種九牌"], ["四家立直"], ["三家和了"],
// ["四槓散了"], ["四風連打"]; deltas are left out when all are zero. Deltas
// are points and include honba and the riichi sticks won.
//
// Sources: the JSON Tenhou serves (tenhou.net/5/mjlog2json.cgi), as
// documented by tsubakisakura/mjlog2json (exporter and converter) and
// read by Equim-chan/mjai-reviewer's convlog; the three-player form as in
// the tenhou.net/6 logs hidacow/mjai-reviewer3p reads. The package was
// checked against six games of real Tenhou JSON, and its tests compare
// every four-player log of the repository's Tenhou corpus with
// @kobalab/tenhou-log's independent reading of the mjlog (TestTenhouReference).
package tenhou6
