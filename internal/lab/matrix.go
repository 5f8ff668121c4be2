package lab

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mentalmj/mentalmj/internal/latency"
	"github.com/mentalmj/mentalmj/player/cheat"
	"github.com/mentalmj/mentalmj/protocol"
	"github.com/mentalmj/mentalmj/protocol/verdict"
)

// Config is what Run needs.
type Config struct {
	// Binary is the mentalmj executable the tables run.
	Binary string
	// Dir is an existing directory for the tables' identities,
	// transcripts and logs (one subdirectory a run).
	Dir string
	// Strategies are the strategies to run, each on one cheater; empty
	// runs cheat.All().
	Strategies []cheat.Strategy
	// Coalition adds a run where two players cheat at once.
	Coalition bool
	// Runs is how many tables each strategy plays (at least 1).
	Runs int
	// Timeout is the per-message timeout of every node; it bounds how
	// long silence takes to be named (3 s is plenty on loopback). A turn
	// waits twice as long (--turn-timeout), as join's defaults wait longer
	// for a decision than for an automatic step: with equal waits a drawer
	// kept waiting for a silent player's keys races the others' wait for
	// its turn (SPEC.md §9).
	Timeout time.Duration
	// Link, if not zero, delays every connection between two players of
	// a table both ways (latency.FromRTT: half the round-trip time, with
	// jitter), through relays in this process.
	Link latency.Link
	// Progress, if not nil, gets a line as each run ends.
	Progress io.Writer
	// NoPipeline runs every table without the pipelined setup (join
	// --no-pipeline): each hand's whole setup after the hand before. The
	// default (false) prepares each hand's passes during the hand before
	// (SPEC.md §22).
	NoPipeline bool
	// Rules are the house-rule flags every node of every table gets, as
	// mentalmj join takes them: "--rules", "ema", "--rule", "aka=0"…
	// (Flags builds them); empty plays the default, the tenhou preset.
	Rules []string
}

// Flags returns the join flags that choose the house rules preset (""
// for the default) and the switches ("NAME=VALUE" each, applied after
// it), for Config.Rules. It does not check them: the nodes do, and exit 2
// on a bad one (as mentalmj lab checks them first with rules.Parse).
func Flags(preset string, switches []string) []string {
	var out []string
	if preset != "" {
		out = append(out, "--rules", preset)
	}
	for _, sw := range switches {
		out = append(out, "--rule", sw)
	}
	return out
}

// Result is one row of the matrix: a strategy (or the control) over its
// runs. It is also the JSON `mentalmj lab --json` prints.
type Result struct {
	Strategy string `json:"strategy"`
	// Cheaters are the player numbers (player-N) that cheated.
	Cheaters []int `json:"cheaters"`
	// Expect is the verdict the strategy should get ("blame", "fault",
	// "none" for the control).
	Expect string `json:"expect"`
	// Caught is the earliest step at which an honest node or the offline
	// audit caught a cheater, over all runs: "at once", "end of hand",
	// "transcript comparison" or "not caught".
	Caught string `json:"caught"`
	// Blamed are the peer IDs blamed, by honest nodes or the audit.
	Blamed []string `json:"blamed"`
	// Faults are the faults raised, "KIND: PLAYER" each.
	Faults []string `json:"faults"`
	// Reasons are the reasons honest nodes gave for their blames, as
	// their progress lines say them ("illegal discard 7m: … kuikae: …").
	Reasons []string `json:"reasons,omitempty"`
	// FalseBlames counts blames of honest players; FalseFaults faults
	// naming an honest player. Both must be 0.
	FalseBlames int `json:"false_blames"`
	FalseFaults int `json:"false_faults"`
	// CheaterNamed reports whether every run named a cheater in the
	// expected way (a blame, or for a fault strategy a fault or a blame).
	CheaterNamed bool `json:"cheater_named"`
	Runs         int  `json:"runs"`
	// Seconds is the wall time of the runs.
	Seconds float64 `json:"seconds"`
}

// Matrix is the lab's whole result.
type Matrix struct {
	Strategies []Result `json:"strategies"`
	Control    Result   `json:"control"`
}

// stages orders the steps at which a cheat is caught.
var stages = []string{"at once", "end of hand", "transcript comparison", "not caught"}

// Run plays the control and every strategy's runs, one table at a time.
// It returns an error only when a table cannot be run at all (the binary
// does not start, ctx ends).
func Run(ctx context.Context, cfg Config) (*Matrix, error) {
	if len(cfg.Strategies) == 0 {
		cfg.Strategies = cheat.All()
	}
	cfg.Runs = max(cfg.Runs, 1)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 3 * time.Second
	}
	m := &Matrix{}
	var err error
	if m.Control, err = runRow(ctx, cfg, "control", "none", 2, false, nil); err != nil {
		return nil, err
	}
	for _, s := range cfg.Strategies {
		scfg := cfg
		scfg.Rules = append(slices.Clone(cfg.Rules), Flags("", s.Rules)...)
		r, err := runRow(ctx, scfg, s.Name, string(s.Expect), s.Hands, s.Passive, map[int]string{1: s.Name})
		if err != nil {
			return nil, err
		}
		m.Strategies = append(m.Strategies, r)
	}
	if cfg.Coalition {
		r, err := runRow(ctx, cfg, "coalition: wrong-private-key + shuffle-replace", "blame", 1, false, map[int]string{1: "wrong-private-key", 2: "shuffle-replace"})
		if err != nil {
			return nil, err
		}
		m.Strategies = append(m.Strategies, r)
	}
	return m, nil
}

// runRow plays cfg.Runs tables with the given cheaters and sums them up.
func runRow(ctx context.Context, cfg Config, name, expect string, hands int, passive bool, cheats map[int]string) (Result, error) {
	r := Result{Strategy: name, Expect: expect, Caught: "not caught", Blamed: []string{}, Faults: []string{}, Cheaters: []int{}, CheaterNamed: true}
	for i := range cheats {
		r.Cheaters = append(r.Cheaters, i)
	}
	slices.Sort(r.Cheaters)
	start := time.Now()
	for run := range cfg.Runs {
		dir := filepath.Join(cfg.Dir, fmt.Sprintf("%s-%d", strings.NewReplacer(" ", "", ":", "", "+", "-").Replace(name), run))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return r, err
		}
		// A run is bounded: its hands, plus every node's timeouts.
		rctx, cancel := context.WithTimeout(ctx, time.Duration(hands)*20*time.Second+20*cfg.Timeout+time.Minute)
		t, err := runTable(rctx, cfg.Binary, dir, spec{hands: hands, passive: passive, timeout: cfg.Timeout, turnTimeout: 2 * cfg.Timeout, cheats: cheats, link: cfg.Link, rules: cfg.Rules, noPipeline: cfg.NoPipeline})
		cancel()
		if err != nil {
			return r, err
		}
		r.judge(t, expect)
		r.Runs++
		if cfg.Progress != nil {
			fmt.Fprintf(cfg.Progress, "lab: %s run %d: caught %s, blamed %d, faults %d, false blames %d\n", name, run+1, r.Caught, len(r.Blamed), len(r.Faults), r.FalseBlames)
		}
	}
	r.Seconds = time.Since(start).Seconds()
	return r, nil
}

// judge folds one table's verdicts into r: the honest nodes' (a
// cheater's own node says what it likes) and the offline audit's of all
// four transcripts together.
func (r *Result) judge(t *table, expect string) {
	j := &tableJudge{r: r, expect: expect, caught: "not caught", cheater: map[string]bool{}, nick: map[string]string{}}
	for _, p := range t.players {
		j.cheater[p.ID.String()] = p.cheat != ""
		j.nick[p.ID.String()] = p.Name
	}
	for _, p := range t.players {
		if p.cheat == "" {
			j.honestNode(p)
		}
	}
	j.offlineAudit(t)
	r.CheaterNamed = r.CheaterNamed && (j.named || !slices.Contains(slices.Collect(maps.Values(j.cheater)), true))
	if slices.Index(stages, j.caught) < slices.Index(stages, r.Caught) {
		r.Caught = j.caught
	}
}

// tableJudge is one table's verdicts being folded into a Result.
type tableJudge struct {
	r       *Result
	expect  string
	cheater map[string]bool   // peer ID → runs a strategy
	nick    map[string]string // peer ID → player name
	// caught is the earliest stage at which a cheater was named; named,
	// whether one was, as the strategy expects.
	caught string
	named  bool
}

// honestNode takes in the blames and faults an honest node reported.
func (j *tableJudge) honestNode(p *player) {
	for _, b := range p.blames {
		j.blame(b.Peer)
		if b.Reason != "" && !slices.Contains(j.r.Reasons, b.Reason) {
			j.r.Reasons = append(j.r.Reasons, b.Reason)
		}
		if j.cheater[b.Peer] {
			j.earlier(cmpOr(b.When, "at once"))
			j.named = true
		}
	}
	for _, f := range p.faults {
		j.fault(f.Kind, f.Peer)
		if j.cheater[f.Peer] {
			j.earlier("at once")
			j.named = j.named || j.expect == "fault"
		}
	}
}

// offlineAudit takes in the verdicts of the offline audit of the
// table's transcripts together (verdict.Audit): its blames, and the
// faults an honest player reported.
func (j *tableJudge) offlineAudit(t *table) {
	var files []verdict.File
	for _, p := range t.players {
		f, err := os.Open(p.Transcript)
		if err != nil {
			continue
		}
		recs, rerr := protocol.LoadRecords(f, p.Transcript)
		f.Close()
		if len(recs) > 0 {
			files = append(files, verdict.File{Name: p.Transcript, Records: recs, ReadErr: rerr})
		}
	}
	rep, err := verdict.Audit(files)
	if err != nil {
		return
	}
	for _, b := range rep.Blame {
		j.blame(b.Peer)
		if j.cheater[b.Peer] {
			j.earlier("transcript comparison")
			j.named = true
		}
	}
	for _, f := range rep.Faults {
		// A fault the audit read only from a cheater's own records
		// is that cheater's claim: its node says what it likes.
		honest := len(f.Reporters) == 0 || slices.ContainsFunc(f.Reporters, func(p string) bool { return !j.cheater[p] })
		if f.Peer != "" && honest {
			j.fault(f.Kind, f.Peer)
		}
	}
}

// earlier makes stage s the stage the cheat was caught at if it is
// earlier than the one so far.
func (j *tableJudge) earlier(s string) {
	if slices.Index(stages, s) < slices.Index(stages, j.caught) {
		j.caught = s
	}
}

// blame counts a blame of peer once, and as false if peer is honest.
func (j *tableJudge) blame(peer string) {
	if !slices.Contains(j.r.Blamed, peer) {
		j.r.Blamed = append(j.r.Blamed, peer)
		if !j.cheater[peer] {
			j.r.FalseBlames++
		}
	}
}

// fault counts a fault of kind naming peer ("" for none) once, and as
// false if peer is honest.
func (j *tableJudge) fault(kind, peer string) {
	who := j.nick[peer]
	if peer == "" {
		who = "no player"
	}
	f := kind + ": " + who
	if !slices.Contains(j.r.Faults, f) {
		j.r.Faults = append(j.r.Faults, f)
		if peer != "" && !j.cheater[peer] {
			j.r.FalseFaults++
		}
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// WriteText writes the matrix as a table, the control first.
func (m *Matrix) WriteText(w io.Writer) {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy\tcheaters\texpect\tcaught\tblamed\tfaults\tfalse blames\tfalse faults\truns\tseconds")
	for _, r := range append([]Result{m.Control}, m.Strategies...) {
		var blamed []string
		for _, b := range r.Blamed {
			blamed = append(blamed, "…"+b[max(0, len(b)-6):])
		}
		var cheaters []string
		for _, c := range r.Cheaters {
			cheaters = append(cheaters, fmt.Sprintf("player-%d", c))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%d\t%.1f\n", r.Strategy, orNone(cheaters), r.Expect, r.Caught, orNone(blamed), orNone(r.Faults), r.FalseBlames, r.FalseFaults, r.Runs, r.Seconds)
	}
	tw.Flush()
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "-"
	}
	return strings.Join(xs, ", ")
}

// OK reports whether the protocol kept its promises in every run: every
// cheater named as its strategy expects (the control caught no one), and
// no verdict naming an honest player.
func (m *Matrix) OK() bool {
	if len(m.Control.Blamed) > 0 || len(m.Control.Faults) > 0 {
		return false
	}
	for _, r := range m.Strategies {
		if r.FalseBlames > 0 || r.FalseFaults > 0 || !r.CheaterNamed || r.Caught == "not caught" {
			return false
		}
	}
	return true
}
