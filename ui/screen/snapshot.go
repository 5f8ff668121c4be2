package screen

import (
	"slices"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// Tiles are Tenhou tile ids (0..135: kind = id/4, ids 16, 52 and 88 the red
// fives), -1 for a hidden tile, in every field below.

// The states of a Snapshot.
const (
	// StateConnecting: before the seating is known.
	StateConnecting = "connecting"
	// StateDealing: the wall is being shuffled, rekeyed and dealt.
	StateDealing = "dealing"
	// StatePlaying: the kyoku is under way.
	StatePlaying = "playing"
	// StateHandOver: the kyoku ended; the audit runs or has run.
	StateHandOver = "hand over"
	// StatePaused: the table waits for a peer to reconnect. Reserved: no
	// node pauses yet; Model.Pause sets it.
	StatePaused = "paused"
	// StateFault: the game stopped on an error (a blame, a fault, an
	// abort); Status says which.
	StateFault = "fault"
	// StateOver: the game ended normally.
	StateOver = "over"
)

// Snapshot is everything a table view draws at one moment.
type Snapshot struct {
	// Seq increases with every change (1 for the first).
	Seq int `json:"seq"`
	// State is one of the State constants; Status a line saying what the
	// table waits for or what went wrong.
	State  string `json:"state"`
	Status string `json:"status"`
	// StatusMsg is Status as a message for the view's language
	// (i18n.Msg), when the model has one; nil leaves Status's words.
	StatusMsg *i18n.Msg `json:"statusMsg,omitempty"`
	// Game is the table's settings as a player reads them (players, match
	// length, rules, time control, proofs, private hands; see package
	// riichi/settings), "" until SetGameMsg.
	Game string `json:"game,omitempty"`
	// GameMsg is Game as a message (i18n.Msg; SetGameMsg), nil without.
	GameMsg *i18n.Msg `json:"gameMsg,omitempty"`
	// Confirm is, before the game, the game a guest is asked to play (its
	// invite's settings in words, invite.Invite.Describe) with Accept and
	// Decline on the page; "" when nothing is asked.
	Confirm string `json:"confirm,omitempty"`
	// ConfirmMsg is Confirm as a message (i18n.Msg), nil when nothing is
	// asked.
	ConfirmMsg *i18n.Msg `json:"confirmMsg,omitempty"`
	// Room is, before the game, the names of the players at the table so
	// far (this player's first) and RoomSeats the seats to fill: the
	// host's waiting room (Model.SetRoom); nil otherwise.
	Room      []string `json:"room,omitempty"`
	RoomSeats int      `json:"roomSeats,omitempty"`
	// Stage is the protocol step of the hand ("shuffle", "play", …).
	Stage string `json:"stage"`
	// Hand is the hand number; Round its name ("East 1"); Honba, Kyotaku
	// (riichi sticks on the table) and TilesLeft (live wall) as on a
	// Tenhou screen; Dora the dora indicators turned.
	Hand      int    `json:"hand"`
	Round     string `json:"round"`
	Honba     int    `json:"honba"`
	Kyotaku   int    `json:"kyotaku"`
	TilesLeft int    `json:"tilesLeft"`
	Dora      []int  `json:"dora"`
	// Red are the tile ids that are red fives under the table's rules
	// (riichi.Rules.IsRed: 16, 52, 88 on Tenhou; none without red fives;
	// 53 too with four); the page draws these red. Nil before a kyoku.
	Red []int `json:"red"`
	// Self is this player's seat (-1 before the seating); Turn the seat
	// to act or whose tile is on offer (-1 none).
	Self int `json:"self"`
	Turn int `json:"turn"`
	// Players is the number of seats in play: 3 (sanma; seat 3 stays
	// empty) or 4; 0 until the kyoku is known.
	Players int `json:"players"`
	// Spectator marks a spectator's table (NewSpectatorModel, `mentalmj
	// watch`): no seat is the viewer's, every seat's concealed hand is in
	// SeatView.Hand, and there is never a Decision.
	Spectator bool `json:"spectator,omitempty"`
	// Seats are the four seats in seat order.
	Seats [4]SeatView `json:"seats"`
	// MyHand is this player's concealed hand, sorted, without the drawn
	// tile; Drawn the tile just drawn (-1 none).
	MyHand []int `json:"myHand"`
	Drawn  int   `json:"drawn"`
	// Offer is the tile on offer (-1 none) and OfferFrom its seat.
	Offer     int `json:"offer"`
	OfferFrom int `json:"offerFrom"`
	// Waits are the tile kinds (0..33) this player's tenpai hand waits
	// on, Furiten true when one of them may not be ronned: in its own river,
	// passed since its last discard, or passed since its riichi.
	Waits   []int `json:"waits"`
	Furiten bool  `json:"furiten"`
	// Decision is the decision this player must take now, nil if none.
	Decision *Decision `json:"decision"`
	// Notice is a message for this player (an action refused, the node
	// acting after a timeout); "" if none.
	Notice string `json:"notice"`
	// NoticeMsg is Notice as a message (i18n.Msg), when the model has one.
	NoticeMsg *i18n.Msg `json:"noticeMsg,omitempty"`
	// Feed is the latest events, oldest first (at most FeedSize).
	Feed []Event `json:"feed"`
	// Hands are the end-of-hand summaries of the hands played, oldest
	// first; the page shows the last as the end-of-hand screen.
	Hands []HandSummary `json:"hands"`
	// ResultUntil is, while the node holds the next deal for the player
	// to read the last hand's result (Model.WaitResult), when it deals at
	// the latest (Unix ms); 0 otherwise. Dismissed is the number of the
	// last hand whose result the player dismissed (Model.Dismiss), 0 none.
	ResultUntil int64 `json:"resultUntil,omitempty"`
	// LastHand is true once the node knows the hand whose result is shown
	// is the game's last (Model.MarkLastHand): the standings follow, not
	// a next hand.
	LastHand  bool `json:"lastHand,omitempty"`
	Dismissed int  `json:"dismissed"`
	// Standings are the final standings, nil until the game is over.
	Standings []Standing `json:"standings"`
	// Links are the records the node serves: name → URL path.
	Links map[string]string `json:"links"`
}

// SeatView is one seat of the table.
type SeatView struct {
	// Name is the nickname (or short peer ID), Peer the full peer ID, Wind
	// the seat wind ("East" …).
	Name string `json:"name"`
	Peer string `json:"peer"`
	Wind string `json:"wind"`
	// Dealer, Riichi (stick on the table) and Self mark the seat.
	Dealer bool `json:"dealer"`
	Riichi bool `json:"riichi"`
	Self   bool `json:"self"`
	Score  int  `json:"score"`
	// Concealed is the number of concealed tiles (for a back-row view).
	Concealed int `json:"concealed"`
	// Hand is, on a spectator's table (Snapshot.Spectator), the seat's
	// concealed tiles: those known to everyone sorted, then -1 (a tile's
	// back) for each hidden one, Concealed in all; nil on a player's
	// table.
	Hand []int `json:"hand,omitempty"`
	// River and Melds in play order.
	River []RiverTile `json:"river"`
	Melds []Meld      `json:"melds"`
	// TimedOut is how many times the node acted for this player this hand.
	TimedOut int `json:"timedOut"`
	// Link is how this player's node reaches the seat's player (Model.SetLink,
	// Model.PauseFor); nil for its own seat, before the first path event,
	// and in a replay (package ui/viewer).
	Link *Link `json:"link,omitempty"`
}

// RiverTile is one discard.
type RiverTile struct {
	Tile      int  `json:"tile"`
	Tsumogiri bool `json:"tsumogiri"`
	Riichi    bool `json:"riichi"`
	Called    bool `json:"called"`
}

// Meld is a declared meld: Type is "chi", "pon", "daiminkan", "ankan" or
// "kakan"; Tiles all its tiles; Called the called tile (-1 ankan) and From
// where it came from relative to the owner (1 shimocha, 2 toimen, 3
// kamicha; 0 ankan).
type Meld struct {
	Type   string `json:"type"`
	Tiles  []int  `json:"tiles"`
	Called int    `json:"called"`
	From   int    `json:"from"`
}

func meldOf(m game.Meld, owner game.Seat) Meld {
	return Meld{Type: m.Type.String(), Tiles: ids(m.Tiles), Called: int(m.Called), From: owner.Relative(m.FromSeat)}
}

// redFives returns the ids of the red fives under r, never nil.
func redFives(r riichi.Rules) []int { return ids(r.Reds().Tiles()) }

// Reds returns the table's red fives (Red) as a wall.Reds, for naming
// tiles as the table plays them.
func (s Snapshot) Reds() wall.Reds {
	var r wall.Reds
	for _, t := range s.Red {
		r |= wall.RedsOf(wall.Tile(t))
	}
	return r
}

// TileName returns the name of tile id t at this table as TileWord gives
// it: "0p" for a red five of the table's rules (Red), "5p" for any other
// five, "West" for 3z, "?" for a hidden tile (an id outside 0..135).
func (s Snapshot) TileName(t int) string {
	if t < 0 || t >= wall.NumTiles {
		return "?"
	}
	return TileWord(wall.Tile(t), s.Reds())
}

func ids(ts []wall.Tile) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = int(t)
	}
	return out
}

func sortedIDs(ts []wall.Tile) []int {
	out := ids(ts)
	slices.Sort(out)
	return out
}

func containsUnknown(ts []wall.Tile) bool { return slices.Contains(ts, game.Unknown) }

// clone returns a copy of s whose slices the model never changes again.
func (s Snapshot) clone() Snapshot {
	s.Feed = slices.Clone(s.Feed)
	s.Hands = slices.Clone(s.Hands)
	return s
}
