// Package gossipscore holds the gossipsub peer-score parameters of
// mentalmj's topics: the lobby's (node/lobby) and each table's spectator
// topic (node/spectate). Both topics accept only what their validators
// accept, so the score is built to punish rejected messages hard and to
// reward little else: a peer that floods a topic with what no honest node
// publishes is graylisted within a few messages, and everything it sends
// is then dropped (go-libp2p-pubsub's peer scoring, the gossipsub v1.1
// specification, "Peer Scoring").
package gossipscore

import (
	"time"

	pubsub "github.com/libp2p/go-libp2p-pubsub"
	"github.com/libp2p/go-libp2p/core/peer"
)

// Params returns the peer-score parameters and thresholds for the one
// topic named topic: invalid (rejected) messages weigh −100 each, squared
// (P4), decaying by a tenth a second; time in the mesh and first
// deliveries earn a little (P1, P2); a peer whose gossip is broken
// (behaviour penalty, P7) loses. A peer below −80 is graylisted: all it
// sends is dropped. IP colocation is not scored (players share home and
// relay addresses). Scores decay every second and are kept 10 minutes
// after a peer leaves.
func Params(topic string) (*pubsub.PeerScoreParams, *pubsub.PeerScoreThresholds) {
	params := &pubsub.PeerScoreParams{
		SkipAtomicValidation: true,
		Topics: map[string]*pubsub.TopicScoreParams{
			topic: {
				SkipAtomicValidation:           true,
				TopicWeight:                    1,
				TimeInMeshWeight:               0.01,
				TimeInMeshQuantum:              time.Second,
				TimeInMeshCap:                  100,
				FirstMessageDeliveriesWeight:   0.5,
				FirstMessageDeliveriesDecay:    0.9,
				FirstMessageDeliveriesCap:      20,
				InvalidMessageDeliveriesWeight: -100,
				InvalidMessageDeliveriesDecay:  0.9,
			},
		},
		AppSpecificScore:          func(peer.ID) float64 { return 0 },
		BehaviourPenaltyWeight:    -10,
		BehaviourPenaltyThreshold: 6,
		BehaviourPenaltyDecay:     0.9,
		DecayInterval:             time.Second,
		DecayToZero:               0.01,
		RetainScore:               10 * time.Minute,
	}
	thresholds := &pubsub.PeerScoreThresholds{
		GossipThreshold:             -10,
		PublishThreshold:            -50,
		GraylistThreshold:           -80,
		AcceptPXThreshold:           10,
		OpportunisticGraftThreshold: 1,
	}
	return params, thresholds
}
