package main

import (
	"github.com/libp2p/go-libp2p/core/peer"
	"github.com/spf13/cobra"

	"github.com/mentalmj/mentalmj/internal/resume"
)

// loadResume reads, for --resume, the game in progress at f.table from
// f.dataDir (resume.Open) into f.resumeState, and listens where the game
// listened unless --listen says otherwise. It returns the other players as
// the state names them. On failure it prints why and returns ok = false
// with exit code 2.
func (f *tableFlags) loadResume(cmd *cobra.Command) (peers []peer.AddrInfo, code int, ok bool) {
	st, peers, err := resume.Open(f.dataDir, f.table)
	if err == nil {
		err = st.CheckTranscript(f.transcript)
	}
	if err != nil {
		return nil, fail(cmd, 2, "--resume: %v", err), false
	}
	if len(f.listen) == 0 {
		f.listen = st.Listen
	}
	f.resumeState = &st
	return peers, 0, true
}
