// Package web is the browser table: the player's own node serves a
// mahjong table page on 127.0.0.1 and the player plays through it.
//
// The model: a screen.Model (ui/screen), fed by the game (protocol.Observer, OnHand,
// and this package's Player), is pushed to the page as a JSON Snapshot
// over a WebSocket (github.com/coder/websocket) after every change; the
// page only draws it. A click sends back the number of an option of the
// current decision; Player checks that the decision is still open and the
// option one of its legal actions before it returns the action to the
// protocol, which checks it again. A forged or stale click gets a notice
// on the page and changes nothing. Before the game, Server.Confirm asks
// a guest to play the host's game with Accept and Decline; the answer
// comes over the same WebSocket, and one sent when nothing is asked is
// dropped with a notice. Each opponent's name plate carries a line
// saying how the node reaches that player (screen.Link: direct, relayed
// and why, not connected, paused with the reconnect grace left); a
// replay (package ui/viewer), which draws with the same script, has none.
//
// Everything the page needs — HTML, CSS, JavaScript and the tile faces,
// drawn as SVG by the page's own script — is embedded in the binary
// (go:embed). The server listens on 127.0.0.1 only, on a free port, and
// answers only requests that carry the random access token of its URL
// (403 otherwise) and whose Host and Origin name that address.
package web
