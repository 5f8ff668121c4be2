// Package protocol is the Mental Mahjong protocol: four players (or three,
// for Tenhou's three-player rules) deal and play riichi mahjong with no
// dealer and no trusted party, and audit every hand at its end. It holds the wire messages (package pb), the per-hand
// state machine, the transcript, and the audit with blame. It never touches
// the network: it talks to a Transport, which the node package implements
// over libp2p and tests implement in memory (package memnet).
//
// # Messages
//
// Every message is an Entry signed with the sender's libp2p Ed25519 key
// (Seal, Open). It carries the game id, the hand number, the sender's
// sequence number and the hash of the sender's previous Entry, so each
// sender's messages form a hash chain: two signed entries with the same
// sequence number and different contents prove that a player told
// different peers different things. Every message a player sends or
// receives is appended to its Transcript as it happens.
//
// # The Hello and the game's settings
//
// A game opens with every player's Hello: the table, the protocol
// Version, the peers, a nonce, and the game's settings (package settings:
// players, match length and hands, the house rules of Config.Rules, the
// time control of Config.Time, proofs, private hands), the same message
// the host's invite carries. A Hello whose settings differ from the
// table's, or carry a preset, rule switch or field this build does not
// know, or that comes from another protocol version, is a FaultConfig
// naming its sender, never a blame; a malformed one (a nonce of the
// wrong size, a count that contradicts its peers) is blamed. Each
// player's own decisions may run on a clock (Config.Clock, package
// timecontrol) started when their inputs are at the node; when it runs
// out the node acts for the player and marks the entry timed_out.
//
// # A hand, in lockstep
//
// At every step each player knows which message it expects next from each
// peer; anything else is out of turn and blamed on its sender. With
// players seated P0..P3 and public tile points T_0..T_135
// (commcrypto.TileTable):
//
//  1. Seats and dice (seats.go): each player commits to a 32-byte nonce
//     and the match state it expects (dealer, round, honba, deposits,
//     scores), then all reveal; the joint seed fixes the seating (hand 1)
//     and the dice. No single player chooses them.
//  2. Shuffle passes (hand.go): in seat order, D ← π_j(k_j·D), published
//     with K_j = k_j·G and a shuffle argument (commcrypto/logshuffle, or
//     commcrypto/shuffleproof with Config.Proofs = "tw") that the deck is
//     a permutation of k_j times the deck received.
//  3. Rekey passes: in seat order, C_i ← (r_{j,i}·k_j⁻¹)·C_i with the
//     commitments R_{j,i} = r_{j,i}·G and a rekey argument
//     (commcrypto/logrekey, or the batched Chaum–Pedersen argument of
//     commcrypto/rekeyproof with "tw") that C'_i = s_i·C_i and
//     R_{j,i} = s_i·K_j. Afterwards C_i = (Π_j r_{j,i})·T_{yama[i]}.
//     Every player verifies each pass's proof as it arrives, before it
//     sends anything that depends on it (proofs.go; the player next in
//     turn verifies it while it makes and proves its own pass, which it
//     sends only once that proof verified); a pass whose proof fails is
//     blamed on its sender at once, before the deal.
//     Config.NoProofs plays without them.
//  4. Private decryption: for the haipai and every tsumo and rinshan draw,
//     the three other players send the drawer their keys for the position,
//     privately and in parallel; the drawer checks each key against its
//     commitment and decrypts.
//  5. Public decryption: the dora indicator, kan-dora and (for a riichi
//     winner, once the win is declared) ura-dora indicators: every player
//     publishes its key. A riichi alone never makes an ura-dora indicator
//     due: the legality of a win does not depend on ura dora, only its
//     value does, so it is checked before they are decrypted.
//  6. The kyoku (kyoku.go) under the rules engine riichi/game: turns
//     (dahai, riichi, kans, tsumo agari, kyuushu kyuuhai), answers to a tile
//     on offer (pass, chi, pon, daiminkan, ron) resolved by Tenhou's
//     priority, the winning calls, and tenpai declarations at an exhaustive
//     draw. Any message that shows tiles — a dahai, a call's tiles, a
//     winning or tenpai hand — publishes all four keys of their positions
//     (show.go), and every player checks them against the commitments.
//  7. Key reveal: every player publishes its global key and its 136
//     position keys, and the hand is audited (with private hands, only
//     the keys the rules need: see "Private hands").
//
// # Private hands
//
// Config.PrivateHands (join --private-hands, announced in
// Hello.settings.private_hands, which every player must match like no_proofs; it
// requires the proofs) closes the leak of step 7: the full key reveal
// shows every concealed hand and the unseen wall to everyone. Since every
// pass is proven on arrival, the wall C_i with the commitments R_{j,i} is
// known to be a permutation of the tile points, and the reveal can shrink
// to what the rules need:
//
//   - tiles already shown (dahai, calls, kita, dora, kan-dora and, for a
//     riichi winner, ura-dora indicators) and the hands the rules show (a
//     winner's, a tenpai declaration's, a kyuushu kyuuhai's) carry their
//     keys in their own messages, as always;
//   - the only other keys the rules need are those of a riichi player's
//     concealed tiles that no win or tenpai declaration showed — a riichi
//     player who lost, or any riichi player at an abortive draw: the
//     public engine deferred its riichi (and riichi-ankan) checks, and
//     game.Kyoku.RiichiCheckPositions lists exactly those hidden positions
//     once the kyoku is over. Every player computes the same list from the
//     public state, and its KeyReveal carries its keys for those positions
//     (KeyReveal.positions, ascending; often none) and no global key;
//   - a noten declaration of a hand without riichi is not checked: its
//     tiles stay private (declaring noten with a tenpai hand only gives
//     away the declarer's own tenpai payment or renchan).
//
// No other key is ever published, so the losers' concealed hands and the
// unseen wall stay private from the other players and from the offline
// audit. After an abort nothing is revealed either: the proofs already
// cleared every pass. The audit (runPrivate) verifies every proof (the
// live node did on arrival), checks every key of every message against
// its commitment, opens every shown tile on the proven wall (the tile
// point (Π_j r_{j,i})⁻¹·C_i must be the claimed tile), checks each key
// reveal holds exactly the positions above (anything else is blamed on
// its signer; a reveal that never comes is a fault: withheld reveal) and
// decides the riichi checks on them. It cannot check what stays hidden:
// the Tenhou wall model of the whole wall (the proofs stand in for it)
// and the noten claims above. HandAudit.PrivateHands and Shown say so;
// HandAudit.Yama holds -1 at every position not shown. The game record is
// each player's own view (mjlog.Hidden for tiles it never saw; the
// offline audit, which holds none of the transcript owner's own position
// keys, records only public tiles).
//
// # Reconnection and resume
//
// A pump goroutine per peer (reconnect.go) reads the Transport into a
// mailbox, so the lockstep driver never reads the network itself. When a
// Reconnecting transport reports a peer's connection lost, the pump waits
// for it to come back (WaitUp) and sends the peer a signed Sync: "send me
// again everything you addressed to me from seq N". Every envelope sent is
// kept per peer for that purpose, and after a loss new entries for the
// peer are held back until its Sync has been answered, so that each peer
// receives one sender's entries in seq order. The receiving side drops an
// entry whose seq it already holds with the same hash (a copy), and blames
// one with another hash as equivocation, with both entries as evidence.
// While any peer is down the table is paused: silence budgets stand still
// and a PauseObserver is told whom the table waits for; a peer not back
// within Config.ReconnectGrace is a FaultConnection naming it.
//
// A node that crashed resumes with Config.Resume (resume.go): its secrets
// come from Config.Rand, the ChaCha20 keystream of a seed it saved before
// its first message (SeedRand), so replaying its own transcript recomputes
// the same keys, permutations and nonces. The replay feeds the recorded
// received entries in place of the network, takes its recorded entries
// (and decisions) in place of new ones, checks that each record is met
// again in order (ErrResumeMismatch otherwise), and then plays on live
// after a Sync to every peer. SPEC.md §18 specifies both.
//
// # Pipelined setup
//
// By default (Hello.pipeline true; Config.NoPipeline and join
// --no-pipeline turn it off; SPEC.md §22) the shuffle and rekey passes of hand n+1 run while hand n is played
// (pipeline.go): nothing of a wall depends on how the hand before it ends,
// only the match state does, and the NonceCommit that carries it is sent
// after hand n. A peer's prepared pass is taken when the game reads that
// peer's mailbox, checked then and its proof verified in a goroutine;
// this player's own pass is made in a goroutine and sent only while the
// game waits for a message or its Player thinks, so play goes first. When
// hand n ends, hand n+1 needs two message times: the commitments, then
// the reveals, haipai keys and dora indicator together. No key of hand
// n+1 is sent before hand n has ended.
//
// # Three players (sanma)
//
// The player count is a property of the game: the number of peers in
// Config.Peers, 3 or 4, announced in every Hello (Hello.settings.players) and
// checked with the rest of the configuration (a node announcing another
// count is a FaultConfig naming it; a Hello whose count contradicts its
// own peer list is a malformed signed message, blamed). Three players play
// Tenhou's three-player rules (riichi/game.TenhouSanmaRules) on Tenhou's
// three-player wall (wall.ThreePlayer): the 108 tiles without 2m-8m,
// T_i for i in wall.ThreePlayer.Set() as the first deck, haipai from
// yama[107] down, the dora indicator yama[9] and the rinshan draws
// yama[1], yama[0], yama[3], …. Everything above runs with three seats:
// three shuffle and three rekey passes over 108 elements (the shuffle and
// rekey arguments take the deck length as given), two keys per private
// draw, three per public one and per shown tile, 108 position keys in the
// key reveal. Kita is a turn of its own (TURN_KITA) that shows the north
// set aside; its replacement draw is a private rinshan draw like a kan's.
// The audit takes the layout from the rules (AuditInput.Rules.Players).
//
// # The public engine
//
// Every player runs a tracker (tracker.go): a rules engine that sees
// exactly the tiles shown to everyone and applies every player's actions.
// It says what the kyoku waits for next and from whom, so all four players
// hold the same public state and reject the same illegal actions. The
// player's own decisions are made on a private copy with its own tiles
// revealed (Player, view). Rules that need hidden tiles — riichi on a
// tenpai hand, a riichi ankan that keeps the waits — are deferred by the
// engine and decided by the audit.
//
// # Audit
//
// AuditHand re-verifies a hand from its entries alone: the nonces, every
// revealed key against its commitment, the proof of every shuffle and
// rekey pass (the live audit skips them: they were verified on arrival)
// after which the wall is decrypted with the revealed position keys and
// no pass is replayed — or, for a hand played without proofs, a replay of
// each shuffle pass (a permutation of the previous deck under the
// revealed global key) and of each rekey pass — the decrypted wall (a
// permutation of the 136 tiles, or of the 108 in sanma),
// every key release against the layout, and a replay of the kyoku through
// the engine with the deferred checks decided on the whole wall. The live
// player runs it at the end of every hand; `mentalmj audit` runs
// AuditTranscript offline on a saved transcript. An audited hand is then
// replayed with the whole wall and recorded as a Tenhou mjlog round
// (Game.Record).
//
// When a hand stops early, every player says so in a signed Abort (naming
// the peer it holds responsible and what happened), and every player that
// has the whole rekeyed wall then reveals its keys anyway — the hand is
// void, so this leaks nothing about later hands — so that the audit can
// replay the passes and a bad shuffle or rekey pass is still blamed on
// the player who made it.
//
// # Verdicts: blame and fault
//
// A verdict is either a Blame or a Fault (verdict.go), and the two are
// never mixed.
//
// A Blame says that a named player cheated, and carries its proof: the
// entries it rests on (Evidence), every one signed by the blamed player.
// The checks that blame are:
//
//   - a signed entry fails a check against other signed entries of the
//     same player: a key against its commitment R = r·G (key releases,
//     shown tiles, the key reveal), a nonce against its commitment, a
//     shuffle pass against its global key (a permutation of k·D), a rekey
//     pass against its position keys, a private release of positions that
//     are not the recipient's;
//   - a signed entry fails a check of the rules or the protocol on the
//     public state every player holds: a dahai of a tile its keys do not
//     decrypt to, a call or a win the engine rejects, a riichi on a hand
//     the revealed wall shows was not tenpai, a message of a kind the
//     protocol does not allow at that point (out of turn), an element
//     that does not decode, a malformed field;
//   - two signed entries conflict: two different messages with one
//     sequence number, or an entry whose prev_hash is not the hash of the
//     sender's previous entry (equivocation; also found by
//     CompareTranscripts across players' transcripts).
//
// Why an honest player is never blamed: an honest node signs only entries
// that pass these checks — its keys match its own commitments, its passes
// are what the checks recompute, its actions are legal on the state it
// shares with everyone, and its chain never forks — and every blame check
// looks only at entries the blamed player signed (and at the public state
// those entries were sent in). No message from anyone else can make an
// honest player's signed entries fail.
//
// A Fault is everything else that stops or spoils a game, and it proves
// nothing about intent: silence past the timeout, a lost connection, a
// node that quits, bytes that carry no valid signature of the peer that
// delivered them (garbage, a forged or stripped signature, a message
// signed by someone else), an exact copy of an earlier entry (anyone
// holding it could replay it), an entry for another game or hand, a
// configuration mismatch (version, table, player count, peers, hands,
// match length, no_proofs, private_hands: named on every node as the
// node that differs), a tile that fails to decrypt with keys that all match
// (FaultBadWall: the key reveal then names the pass's maker), another
// player's Abort (its claim, with the peer it names), a
// transcript cut short or damaged (FaultIncomplete, FaultDamaged: these
// name no peer, and nothing after a damaged record is judged). A fault
// names the peer it concerns and, in an offline audit, the players whose
// signed Aborts reported it. A missing message is never a blame.
package protocol
