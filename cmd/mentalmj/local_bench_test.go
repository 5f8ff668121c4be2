package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// buildForBench builds the mentalmj binary into a temporary directory.
func buildForBench(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "mentalmj")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// runLocalBench runs "mentalmj local" with args and returns its output.
func runLocalBench(b *testing.B, bin string, args ...string) []byte {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	args = append([]string{"local", "--dir", filepath.Join(b.TempDir(), "run")}, args...)
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		b.Fatalf("mentalmj %v: %v\n%s", args, err, out)
	}
	return out
}

// metrics extracts the float submatches of re from out and reports them
// under units.
func metrics(b *testing.B, out []byte, re string, units ...string) []float64 {
	b.Helper()
	m := regexp.MustCompile(re).FindSubmatch(out)
	if m == nil {
		b.Fatalf("no %q in:\n%s", re, out)
	}
	var vs []float64
	for i, unit := range units {
		v, err := strconv.ParseFloat(string(m[i+1]), 64)
		if err != nil {
			b.Fatal(err)
		}
		if unit != "" {
			b.ReportMetric(v, unit)
		}
		vs = append(vs, v)
	}
	return vs
}

// BenchmarkLocalProcesses runs "mentalmj local --hands b.N": four separate
// join processes, each a libp2p node on 127.0.0.1 over TCP, play b.N hands
// of riichi with bots under the mental protocol, with audits. It reports
// what local's stats line measures: the hand setup (seats and dice, 4
// shuffle and 4 rekey passes, the deal of 53 tiles; the slowest node per
// hand), the tsumo latency over every draw of every node (start of the
// draw → drawn tile decrypted), and the largest peak RSS of the four
// nodes. Run with -benchtime 20x for 20 hands (fewer if the match ends
// first, e.g. a player goes below zero).
func BenchmarkLocalProcesses(b *testing.B) { localProcesses(b) }

// BenchmarkLocalProcessesNoProofs is BenchmarkLocalProcesses with
// "--no-proofs": the passes carry no shuffle or rekey proofs.
func BenchmarkLocalProcessesNoProofs(b *testing.B) { localProcesses(b, "--no-proofs") }

// BenchmarkLocalProcessesSanma is BenchmarkLocalProcesses with
// "--players 3": three processes play Tenhou three-player hands (3
// shuffle and 3 rekey passes over 108 tiles, the deal of 40 tiles).
func BenchmarkLocalProcessesSanma(b *testing.B) { localProcesses(b, "--players", "3") }

func localProcesses(b *testing.B, extra ...string) {
	bin := buildForBench(b)
	b.ResetTimer()
	out := runLocalBench(b, bin, append([]string{"--hands", strconv.Itoa(b.N)}, extra...)...)
	b.StopTimer()
	metrics(b, out, `stats: hand setup median ([\d.]+) ms max [\d.]+ ms; tsumo latency median ([\d.]+) ms p99 ([\d.]+) ms over \d+ draws; peak RSS per node ([\d.]+) MB`,
		"setup-ms-median", "tsumo-ms-median", "tsumo-ms-p99", "peak-rss-MB")
}

// BenchmarkLocalHanchan runs b.N whole hanchans of four bot processes on
// loopback ("mentalmj local"), audits included. ns/op is the wall time of
// a hanchan; it also reports the CPU time of the four nodes together, the
// hands played, and the messages and bytes per hand on the wire (signed
// envelopes, counted from the transcripts).
func BenchmarkLocalHanchan(b *testing.B) { localHanchan(b) }

// BenchmarkLocalHanchanNoProofs is BenchmarkLocalHanchan with
// "--no-proofs", for the cost of the proofs over a whole match.
func BenchmarkLocalHanchanNoProofs(b *testing.B) { localHanchan(b, "--no-proofs") }

// BenchmarkLocalHanchanNoPipeline is BenchmarkLocalHanchan with
// "--no-pipeline": each hand's whole setup runs after the hand before
// (the default prepares its passes during the hand before, issue 18;
// compare with BenchmarkLocalHanchanNoPipelineNoProofs).
func BenchmarkLocalHanchanNoPipeline(b *testing.B) { localHanchan(b, "--no-pipeline") }

// BenchmarkLocalHanchanNoPipelineNoProofs is
// BenchmarkLocalHanchanNoPipeline with "--no-proofs".
func BenchmarkLocalHanchanNoPipelineNoProofs(b *testing.B) {
	localHanchan(b, "--no-pipeline", "--no-proofs")
}

func localHanchan(b *testing.B, extra ...string) {
	bin := buildForBench(b)
	var hands, msgs, kb, cpu float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out := runLocalBench(b, bin, extra...)
		b.StopTimer()
		v := metrics(b, out, `traffic: ([\d.]+) messages and ([\d.]+) KB per hand on the wire \(signed envelopes, all four nodes\); CPU ([\d.]+) s`, "", "", "")
		h := metrics(b, out, `all (\d+) hands played`, "")
		msgs += v[0]
		kb += v[1]
		cpu += v[2]
		hands += h[0]
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(hands/n, "hands/hanchan")
	b.ReportMetric(cpu/n, "cpu-s/hanchan")
	b.ReportMetric(msgs/n, "msgs/hand")
	b.ReportMetric(kb/n, "KB/hand")
}
