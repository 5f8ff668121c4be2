package tablerun

import (
	"context"
	"slices"
	"time"

	"github.com/mentalmj/mentalmj/node/spectate"
	"github.com/mentalmj/mentalmj/protocol"
)

// publishLinger bounds how long the end of a game waits for the last
// public entries to go out to the spectators.
const publishLinger = 3 * time.Second

// startPublisher joins the table's spectator topic (package
// node/spectate; SPEC.md §25) as its publisher when its settings admit
// spectators and this node is the topic's host (Table.SpectateHost, or
// the lowest of the players' peer IDs for a table without a host): the
// node admits that many spectator connections, and the game publishes
// every public entry it records there. The other players stay off the
// topic. A resumed host publishes its transcript's last two hands again
// (spectate.Publisher.Republish).
func (p *playing) startPublisher(ctx context.Context) error {
	if p.Play.Spectators <= 0 {
		return nil
	}
	players := append(p.Node.Peers(), p.Node.ID())
	host := p.SpectateHost
	if host == "" {
		host = slices.Min(players)
	}
	if host != p.Node.ID() {
		return nil
	}
	p.Node.AdmitSpectators(p.Play.Spectators)
	pub, err := spectate.NewPublisher(ctx, p.Node.Host(), p.Name, players, spectate.Options{Logger: p.Log})
	if err != nil {
		return err
	}
	if p.resumeFrom != nil {
		// What the crash kept from going out (SPEC.md §25).
		pub.Republish(p.resumeFrom.Records)
	}
	p.publisher = pub
	return nil
}

// publish is the game's Config.Publish.
func (p *playing) publish(e protocol.PublicEntry) {
	if p.publisher != nil {
		p.publisher.Publish(e)
	}
}

// stopPublisher sends what is left and leaves the topic.
func (p *playing) stopPublisher() {
	if p.publisher != nil {
		p.publisher.Close(publishLinger)
	}
}
