package main

import (
	"context"
	"io"

	"github.com/mentalmj/mentalmj/internal/tablerun"
)

// playTable plays the game of join's or host's flags f at ts's node with
// tablerun.Play and returns join's exit code.
func playTable(ctx context.Context, f *tableFlags, ts seat, stdout, stderr io.Writer) int {
	return tablerun.Play(ctx, f.tableRun(), tablerun.Seat{Key: ts.key, Node: ts.n, Log: ts.log, Out: ts.out}, stdout, stderr)
}

// tableRun is the tablerun.Table of the checked flags f.
func (f *tableFlags) tableRun() *tablerun.Table {
	return &tablerun.Table{
		Name: f.table, DataDir: f.dataDir, Nick: f.nick,
		Bot: f.useBot, MjaiBot: f.mjaiBot,
		Transcript: f.transcript, Mjlog: f.mjlog, JSON: f.json, Progress: f.progress,
		Timeout: f.timeout, TurnTimeout: f.turnTimeout, DecisionTimeout: f.decisionTimeout,
		ConnectTimeout: f.connectTimeout, ReconnectGrace: f.reconnectGrace,
		Misbehavior: f.misbehavior, UI: f.useUI, NoOpen: f.noOpen, Passive: f.passive, UILinger: f.uiLinger,
		ResumeState: f.resumeState, Play: f.play, NoPipeline: f.play.NoPipeline, Lang: f.lang,
		SpectateHost: f.spectateHost,
	}
}
