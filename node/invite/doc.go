// Package invite gathers the four players of a table from one short
// string, so that nobody has to exchange peer addresses by hand.
//
// # The model
//
// One player, the host, opens a meeting: its node admits any peer, but
// only to the meeting protocol ProtocolID (/mentalmj/invite/1), never to
// the game's streams. It prints an invite, a string such as
// "mmj1…" (Invite, Parse) carrying the table's name, the host's peer ID
// and its dialable addresses, relayed ones included. Each of the three
// other players, a guest, dials the host with it (Join), says hello (its
// table, nickname and dialable addresses; its peer ID is the one the
// connection's security handshake authenticated) and is shown who has
// arrived. When three guests are there the host fixes the seating list
// (Seating): the four peers with their addresses, bound to the table's
// name and signed with the host's Ed25519 key (SignSeating). Each guest
// checks the signature against the invite's host, the table, and that it
// is itself on the list (VerifySeating), and the game then starts as with
// four --peer addresses. A guest that leaves before the list is fixed is
// dropped from it; a fourth guest is refused.
//
// A three-player (sanma) table works the same way with two guests: the
// host sets the count (Meeting.SetPlayers), the invite carries it
// (Invite.Players; absent for four, so four-player invites are unchanged),
// the list has three seats, and each guest checks that it has as many
// seats as its invite says.
//
// The host gains no other power: the list's order is only the order of
// arrival; seats and dice still come from the game's joint commit–reveal
// (package protocol), and every message of the game is checked as usual.
// What the host could do is seat the wrong people; every guest sees the
// list before playing, and the game's Hello checks that the four agree on
// the table.
//
// # The invite string
//
// "mmj" then the version digit "1", then the unpadded lowercase base32
// (RFC 4648, section 6) of body ‖ checksum, where body is the protobuf
// Invite (pb/invite.proto) and checksum the first 4 bytes of
// SHA-256("mmj1" ‖ body). Base32's alphabet has no "1", "0", "8" or "9",
// case does not matter, and a typo or a cut-off string fails the checksum
// (or base32) with a clear error. An invite is at most MaxInviteLen
// characters.
//
// # The meeting protocol
//
// On one stream per guest, each message is a varint length then a
// protobuf message (go-msgio's varint framing), at most MaxMessageSize
// bytes. The guest sends one Hello within HelloTimeout; the host answers
// with Arrivals whenever the arrivals change, then the SignedSeating, or
// a refusal (wrong table, table full, bad hello), and closes the stream.
// Everything received is validated: sizes, peer IDs, multiaddrs, table
// names and nicknames. A guest whose stream breaks before the seating
// arrives (a relay restarting, a dropped connection) dials again and says
// Hello on a new stream, within DialWindow; until the table is full the
// host gives it back its place, under the nickname it first gave; once
// the table is full, a seated guest that comes back gets the signed
// seating list (Announce waits RejoinWindow for it).
//
// # A stale invite
//
// An invite's addresses go stale when its host restarts on another port
// or reserves on other relays; its peer ID does not. A guest on the
// public network (its DHT is up) whose dials of the invite's addresses
// fail looks the host's peer ID up on the DHT (peer routing, a Finder:
// after the first failed dial, then after every fourth, each look-up
// bounded by FindWait) and dials what it finds along with the invite's.
// The handshake authenticates the host at any address, and the guest's
// gater still admits only the host (and, on the public network, the
// peers it dials itself) to the meeting: nothing found this way reaches
// the game protocol. A guest that never reaches the host is told what to
// do: ask for the host's new invite, and, off the public network, that
// nobody could look the host up.
package invite
