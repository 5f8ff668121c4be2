package progress

import (
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// This file declares one type per event of the JSON progress stream, each
// with its "event" name (Name) and its keys (the json tags): writers pass
// them to Reporter.Event, readers get them back from Decode.
// docs/progress.md lists the same keys, and progress's tests check that
// every event written has exactly the keys listed there. Times are in ms,
// tiles are Tenhou ids 0..135, seats 0..3 (0..2 in sanma), peers libp2p
// peer IDs as text.

// Address is one address a node listens on: "relay address" (relay, no
// Relayed) or "peer address" (host, join; Relayed set when it goes
// through a relay's /p2p-circuit).
type Address struct {
	Addr    string `json:"addr"`
	Relayed *bool  `json:"relayed,omitempty"`
}

// Name is "address".
func (Address) Name() string { return "address" }

// Invite is the host's invite code for the table, to hand to the guests.
type Invite struct {
	Invite string `json:"invite"`
	Table  string `json:"table"`
}

// Name is "invite".
func (Invite) Name() string { return "invite" }

// WatchLink is the host's watch link for a table that admits spectators
// (host --spectators N; package node/spectate): "mentalmj watch LINK".
type WatchLink struct {
	Link       string `json:"link"`
	Spectators int    `json:"spectators"`
}

// Name is "watch_link".
func (WatchLink) Name() string { return "watch_link" }

// Game is the game a table plays, in words (settings.Settings.Summary):
// the host's own, or the one a guest is asked to play, with the host's
// nickname (HostNick set, possibly "").
type Game struct {
	Table    string  `json:"table"`
	Settings string  `json:"settings"`
	HostNick *string `json:"host_nick,omitempty"`
}

// Name is "game".
func (Game) Name() string { return "game" }

// Waiting is how many players are at the host's table: 1, the host,
// before any guest came.
type Waiting struct {
	Count int `json:"count"`
}

// Name is "waiting".
func (Waiting) Name() string { return "waiting" }

// Arrival is a guest who came to the host's table (or Left, or came only
// to say it Declined the game); Count is how many are at the table now.
type Arrival struct {
	Peer     string `json:"peer"`
	Nick     string `json:"nick"`
	Left     bool   `json:"left"`
	Declined bool   `json:"declined"`
	Count    int    `json:"count"`
}

// Name is "arrival".
func (Arrival) Name() string { return "arrival" }

// Joining is a guest on its way to the host of an invite.
type Joining struct {
	Table string `json:"table"`
	Host  string `json:"host"`
}

// Name is "joining".
func (Joining) Name() string { return "joining" }

// Lookup is a guest looking the host up on the public DHT, for up to
// TimeoutMs, when the invite's addresses did not answer.
type Lookup struct {
	Peer      string `json:"peer"`
	TimeoutMs int64  `json:"timeout_ms"`
}

// Name is "lookup".
func (Lookup) Name() string { return "lookup" }

// LookupFailed is a DHT lookup of the host that found nothing.
type LookupFailed struct {
	Peer string `json:"peer"`
	Err  string `json:"err"`
}

// Name is "lookup-failed".
func (LookupFailed) Name() string { return "lookup-failed" }

// LookupFound is a DHT lookup that found Addrs addresses of the host.
type LookupFound struct {
	Peer  string `json:"peer"`
	Addrs int    `json:"addrs"`
}

// Name is "lookup-found".
func (LookupFound) Name() string { return "lookup-found" }

// Arrivals is who is at the table a guest joins, each time it changes.
type Arrivals struct {
	Players []Player `json:"players"`
	Count   int      `json:"count"`
}

// Name is "arrivals".
func (Arrivals) Name() string { return "arrivals" }

// Player is one player at a table: its peer ID and nickname. Its keys are
// in sorted order, as the stream's objects have them (Reporter.Event).
type Player struct {
	Nick string `json:"nick"`
	Peer string `json:"peer"`
}

// Seated is the signed list of a complete table: its players' peer IDs.
type Seated struct {
	Table string   `json:"table"`
	Peers []string `json:"peers"`
}

// Name is "seated".
func (Seated) Name() string { return "seated" }

// Declined is this guest's decline of the host's game.
type Declined struct{}

// Name is "declined".
func (Declined) Name() string { return "declined" }

// Public is a step of joining the public libp2p network: "bootstrap",
// "bootstrapped" (with how many bootstrap peers Reached), "pool" (looking
// up the community relay pool for up to TimeoutMs), "pool-found" (Reached
// is how many pool relays passed the check), "relay" (looking for a public
// relay for up to TimeoutMs).
type Public struct {
	Step      string `json:"step"`
	Reached   *int   `json:"reached,omitempty"`
	TimeoutMs *int64 `json:"timeout_ms,omitempty"`
}

// Name is "public".
func (Public) Name() string { return "public" }

// PublicOffline is a node that could not join the public libp2p network.
type PublicOffline struct {
	Err string `json:"err"`
}

// Name is "public-offline".
func (PublicOffline) Name() string { return "public-offline" }

// PublicNoRelay is a node that found no public relay in time.
type PublicNoRelay struct {
	Err string `json:"err"`
}

// Name is "public-norelay".
func (PublicNoRelay) Name() string { return "public-norelay" }

// Reserving is a node reserving slots on Relays relays (FromInvite: the
// host's, given in the invite).
type Reserving struct {
	Relays     int  `json:"relays"`
	FromInvite bool `json:"from_invite,omitempty"`
}

// Name is "reserving".
func (Reserving) Name() string { return "reserving" }

// Relaying is "mentalmj relay" serving until interrupted.
type Relaying struct{}

// Name is "relaying".
func (Relaying) Name() string { return "relaying" }

// RelayStats is what a relay carried (node.RelayStats; bytes, counts);
// Final marks the one at exit. Streams are the bytes of its streams by
// protocol ID.
type RelayStats struct {
	Final            bool                   `json:"final"`
	Reservations     int64                  `json:"reservations"`
	ReservationsMade int64                  `json:"reservations_made"`
	CircuitsOpen     int64                  `json:"circuits_open"`
	Circuits         int64                  `json:"circuits"`
	CircuitBytes     int64                  `json:"circuit_bytes"`
	ControlBytes     int64                  `json:"control_bytes"`
	Streams          map[string]StreamBytes `json:"streams"`
}

// Name is "stats".
func (RelayStats) Name() string { return "stats" }

// StreamBytes is the bytes read (In) and written (Out) on streams.
type StreamBytes struct {
	In  int64 `json:"in"`
	Out int64 `json:"out"`
}

// MjaiBot is the external mjai bot that plays the seat, and the file its
// stderr goes to.
type MjaiBot struct {
	Command string `json:"command"`
	Stderr  string `json:"stderr"`
}

// Name is "mjai_bot".
func (MjaiBot) Name() string { return "mjai_bot" }

// Resuming is a node resuming its game from Records records of the
// transcript at Path.
type Resuming struct {
	Records int    `json:"records"`
	Path    string `json:"path"`
}

// Name is "resuming".
func (Resuming) Name() string { return "resuming" }

// ResumeSettings are the settings a resumed game took from its own first
// Hello, as flags ("--name \"bob\"", …).
type ResumeSettings struct {
	Settings []string `json:"settings"`
}

// Name is "resume-settings".
func (ResumeSettings) Name() string { return "resume-settings" }

// Transcript is the path of the game's transcript.
type Transcript struct {
	Path string `json:"path"`
}

// Name is "transcript".
func (Transcript) Name() string { return "transcript" }

// Connecting is a node waiting for the other players.
type Connecting struct{}

// Name is "connecting".
func (Connecting) Name() string { return "connecting" }

// Connected is a node connected to every other player.
type Connected struct{}

// Name is "connected".
func (Connected) Name() string { return "connected" }

// DirectWait is a node waiting up to TimeoutMs for Relayed relayed pairs
// to become direct (hole punching) before the first hand.
type DirectWait struct {
	Relayed   int   `json:"relayed"`
	TimeoutMs int64 `json:"timeout_ms"`
}

// Name is "direct-wait".
func (DirectWait) Name() string { return "direct-wait" }

// StaysRelayed is a pair that stays relayed after the wait: the peer, the
// relay, why, what the NATs do (node.NAT), and whether the relay limits
// its circuits.
type StaysRelayed struct {
	Peer    string `json:"peer"`
	Relay   string `json:"relay"`
	Why     string `json:"why"`
	NATPeer string `json:"nat_peer"`
	NATSelf string `json:"nat_self"`
	Limited bool   `json:"limited"`
}

// Name is "stays-relayed".
func (StaysRelayed) Name() string { return "stays-relayed" }

// Path is how the node reaches a table peer now (node.Path: Family is
// "IPv4" or "IPv6" for a direct connection; RelayPlayer is set when Relay
// is a player of the table relaying the pair); Text is the progress line's
// own words for it ("relayed via carol (a player)").
type Path struct {
	Peer        string `json:"peer"`
	Direct      bool   `json:"direct"`
	Transport   string `json:"transport"`
	Family      string `json:"family"`
	How         string `json:"how"`
	Relay       string `json:"relay"`
	RelayPlayer bool   `json:"relay_player,omitempty"`
	Why         string `json:"why"`
	NATPeer     string `json:"nat_peer"`
	NATSelf     string `json:"nat_self"`
	Text        string `json:"text"`
}

// Name is "path".
func (Path) Name() string { return "path" }

// Relay is the node's slot on a relay, lost (Held false, with Err) or
// reserved again.
type Relay struct {
	Relay string `json:"relay"`
	Held  bool   `json:"held"`
	Err   string `json:"err,omitempty"`
}

// Name is "relay".
func (Relay) Name() string { return "relay" }

// RelayFault is what a relay did wrong (node.RelayFault, or Kind "pool":
// a pool relay skipped by node.FindPoolRelays, Text saying why): never a
// player's fault (PlayerFault is always false).
type RelayFault struct {
	Kind        string `json:"kind"`
	Relay       string `json:"relay"`
	Peer        string `json:"peer"`
	Status      string `json:"status"`
	PlayerFault bool   `json:"player_fault"`
	Text        string `json:"text"`
	Addr        string `json:"addr,omitempty"`
	Actual      string `json:"actual,omitempty"`
}

// Name is "relay-fault".
func (RelayFault) Name() string { return "relay-fault" }

// Reachability is what AutoNAT v2 said about one of the node's public
// addresses: Reachable true, false, or nil (null) when unknown.
type Reachability struct {
	Addr      string `json:"addr"`
	Reachable *bool  `json:"reachable"`
	Server    string `json:"server"`
	Err       string `json:"err"`
	Text      string `json:"text"`
}

// Name is "reachability".
func (Reachability) Name() string { return "reachability" }

// NetCheck is the one-line network summary host and join print at their
// start (netcheck.Report, package node/netcheck): Summary the line after
// "network: ", NAT the NAT's verdict, Observers how many peers reported
// the node's address (at least 2 for a verdict), Reachability the AutoNAT
// v2 answers per address family and transport, IPv6 whether the node has
// a global IPv6 address, PortMapping the UPnP / NAT-PMP mappings, Relays
// the number of relays found.
type NetCheck struct {
	Summary      string     `json:"summary"`
	NAT          string     `json:"nat"`
	Observers    int        `json:"observers"`
	Reachability []NetProbe `json:"reachability"`
	IPv6         bool       `json:"ipv6"`
	PortMapping  []string   `json:"port_mapping"`
	Relays       int        `json:"relays"`
}

// Name is "netcheck".
func (NetCheck) Name() string { return "netcheck" }

// NetProbe is one AutoNAT v2 answer of a NetCheck (netcheck.Probe): the
// address the server dialled, its Family ("IPv4", "IPv6") and Transport
// ("TCP", "QUIC"), Reachable "yes", "no" or "unknown", and the node's
// sentence for it. Its keys are written in sorted order, as the stream's
// are.
type NetProbe struct {
	Addr      string `json:"addr"`
	Family    string `json:"family"`
	Reachable string `json:"reachable"`
	Text      string `json:"text"`
	Transport string `json:"transport"`
}

// Seats is the seating of the game's first hand: peer IDs and nicknames in
// seat order, and this node's seat.
type Seats struct {
	Seats []string `json:"seats"`
	Nicks []string `json:"nicks"`
	Self  int      `json:"self"`
}

// Name is "seats".
func (Seats) Name() string { return "seats" }

// Hand is one audited hand as a node saw it: its number, round (Tenhou's
// INIT seed field 1) and honba, the result in words, the scores by seat,
// the dealer's seat and peer ID, the dice (0-based), the nicknames in seat
// order, the dora indicator, the table's red fives, the audited yama (136
// tile ids, 108 in sanma; nil when not audited), the events played,
// whether the audit passed, and the times: setup, hand, pause before it
// and every draw's latency.
type Hand struct {
	Hand   int    `json:"hand"`
	Round  int    `json:"round"`
	Honba  int    `json:"honba"`
	Result string `json:"result"`
	// ResultMsg is Result as a message (package ui/i18n), for local to
	// say in the player's language; absent from older nodes.
	ResultMsg     *i18n.Msg   `json:"result_msg,omitempty"`
	Scores        [4]int      `json:"scores"`
	OyaSeat       int         `json:"oya_seat"`
	Oya           string      `json:"oya"`
	Dice          [2]int      `json:"dice"`
	Nicks         []string    `json:"nicks"`
	DoraIndicator int         `json:"dora_indicator"`
	Red           []wall.Tile `json:"red"`
	Yama          []int       `json:"yama"`
	Events        int         `json:"events"`
	AuditOK       bool        `json:"audit_ok"`
	SetupMs       float64     `json:"setup_ms"`
	DurationMs    float64     `json:"duration_ms"`
	PauseMs       float64     `json:"pause_ms"`
	DrawLatencyMs []float64   `json:"draw_latency_ms"`
}

// Name is "hand".
func (Hand) Name() string { return "hand" }

// Blame is a proven cheat: the peer and how the node names it, the hand,
// the reason, the evidence (entries, as text) and When it was caught ("at
// once" or "end of hand").
type Blame struct {
	Peer   string `json:"peer"`
	Player string `json:"player"`
	Hand   int    `json:"hand"`
	Reason string `json:"reason"`
	// Msg is the blame's kind and reason as a message (ui/screen's
	// BlameReasonMsg), for local to say in the player's language.
	Msg      *i18n.Msg `json:"msg,omitempty"`
	Evidence []string  `json:"evidence"`
	When     string    `json:"when"`
}

// Name is "blame".
func (Blame) Name() string { return "blame" }

// Fault is a fault (protocol.Fault: silence, a lost connection, …; never
// a proof of cheating): the peer and how the node names it, the hand, the
// kind, the reason and the players whose signed Aborts report it; with
// RelayNote when a relay may be the cause.
type Fault struct {
	Peer   string `json:"peer"`
	Player string `json:"player"`
	Hand   int    `json:"hand"`
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
	// Msg is the fault's kind and fields as a message (ui/screen's
	// FaultReasonMsg), for local to say in the player's language.
	Msg       *i18n.Msg `json:"msg,omitempty"`
	Reporters []string  `json:"reporters"`
	*RelayNote
}

// RelayNote is, next to a silence or a lost connection, the relay that
// may be its cause, and why.
type RelayNote struct {
	Relay string `json:"relay"`
	Note  string `json:"relay_note"`
}

// Name is "fault".
func (Fault) Name() string { return "fault" }

// Paused is the table paused for a peer to reconnect, LeftMs before the
// grace runs out.
type Paused struct {
	Peer   string `json:"peer"`
	Nick   string `json:"nick"`
	LeftMs int64  `json:"left_ms"`
}

// Name is "paused".
func (Paused) Name() string { return "paused" }

// Resumed is the table playing on after a pause.
type Resumed struct{}

// Name is "resumed".
func (Resumed) Name() string { return "resumed" }

// Mjlog is the path of the game record written as Tenhou mjlog XML.
type Mjlog struct {
	Path string `json:"path"`
}

// Name is "mjlog".
func (Mjlog) Name() string { return "mjlog" }

// JSONRecord is the game record as tenhou.net/6 JSON: its Path, the
// mjai-reviewer command (Review) and the tenhou.net/6 Viewer link; or,
// for a game with hidden tiles, why it was Skipped.
type JSONRecord struct {
	Path    string `json:"path,omitempty"`
	Review  string `json:"review,omitempty"`
	Viewer  string `json:"viewer,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// Name is "json".
func (JSONRecord) Name() string { return "json" }

// Certificate is the path of the game's result certificate, signed by
// every player (SPEC.md §23), or why the game has none (Skipped).
type Certificate struct {
	Path    string `json:"path,omitempty"`
	Skipped string `json:"skipped,omitempty"`
}

// Name is "certificate".
func (Certificate) Name() string { return "certificate" }

// View is the record to watch again with "mentalmj view".
type View struct {
	Path string `json:"path"`
}

// Name is "view".
func (View) Name() string { return "view" }

// Standings are the standings at the end of a game: of a finished match
// (MatchOver), or after a fixed number of hands (as if the match ended
// there); seats from first to last, scores and points (tenths, uma
// included) by seat.
type Standings struct {
	Order     [4]game.Seat `json:"order"`
	Scores    [4]int       `json:"scores"`
	Points    [4]int       `json:"points"`
	MatchOver bool         `json:"match_over"`
}

// Name is "standings".
func (Standings) Name() string { return "standings" }

// Done is the end of a game every hand of which was audited ok: the hands
// played, whether the match is over, the node's peak RSS (KiB; -1 where
// not measured) and CPU time.
type Done struct {
	Hands      int     `json:"hands"`
	MatchOver  bool    `json:"match_over"`
	PeakRSSKiB int64   `json:"peak_rss_kib"`
	CPUMs      float64 `json:"cpu_ms"`
}

// Name is "done".
func (Done) Name() string { return "done" }

// Lobby says the host announced its table in the lobby (host --open) on
// the gossipsub topic Topic.
type Lobby struct {
	Topic string `json:"topic"`
}

// Name is "lobby".
func (Lobby) Name() string { return "lobby" }
