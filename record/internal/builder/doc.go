// Package builder writes a Tenhou mjlog game (record/mjlog) from a record
// that names tiles by kind only, as record/tenhou6's and record/mjai's
// readers do.
//
// The model: an mjlog names every tile by its Tenhou id (0..135, four ids
// per kind, the red fives 16, 52 and 88), while tenhou.net/6 JSON and
// mjai name a kind ("5m", "5mr", 15, 51). A Builder deals the ids: each
// tile shown takes an id of its kind not yet used in the kyoku, each
// seat's concealed hand is kept as ids, so a discard or a call takes the
// very id the hand holds, and a hidden tile ("?" in one player's view)
// stays mjlog.Hidden until it is shown. The game it writes replays through
// the rules engine exactly as the record's play goes; only which copy of a
// kind carries which id is the Builder's choice.
package builder
