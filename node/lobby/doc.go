// Package lobby is the public network's lobby: hosts with free seats
// announce their tables on a gossipsub topic (go-libp2p-pubsub), and
// anyone subscribed lists them and joins one with its invite.
//
// # The model
//
// The topic is Topic ("/mentalmj/lobby/1"; the version is in the name,
// so a new format is a new topic). An announcement (pb.Announcement) is
// small (at most MaxAnnouncementSize bytes) and signed by gossipsub
// (StrictSign: the message's author and signature, checked before
// anything else); its host field must be its author. A host publishes
// it when the table opens, again after Options.MinInterval and then
// every Options.Refresh while seats are free, and a withdrawn one once
// the table is full or closed. A listener forgets a table not refreshed
// within Options.Expiry.
//
// # Abuse
//
// Every node validates every announcement before it is delivered or
// forwarded (validate.go): an oversized, malformed, or foreign-authored
// one is rejected; so is one that comes sooner than MinInterval after the
// author's last, when the author sent it itself (a relaying peer's copy
// is only ignored: it may be honest and late). Rejections count against
// the peer that delivered them in gossipsub's peer score (gossipscore.Params):
// a peer that floods is soon below the graylist threshold, and every
// node drops all it sends. An unsigned message never reaches the
// validator: gossipsub drops it.
package lobby
