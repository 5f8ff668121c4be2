package mjai

import (
	"bytes"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mentalmj/mentalmj/internal/tenhoucorpus"
	"github.com/mentalmj/mentalmj/record/mjlog"
	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/wall"
)

// TestTileNames checks the notation against mjai's published names, both
// ways.
func TestTileNames(t *testing.T) {
	cases := map[wall.Tile]string{0: "1m", 16: "5mr", 17: "5m", 35: "9m", 52: "5pr", 88: "5sr", 89: "5s", 108: "E", 112: "S", 116: "W", 120: "N", 124: "P", 128: "F", 132: "C", 135: "C"}
	for id, want := range cases {
		if got := Tile(id, wall.TenhouReds); got != want {
			t.Errorf("Tile(%d) = %s, want %s", id, got, want)
		}
		k, red, err := ParseTile(want)
		if err != nil || k != id.Kind() || red != id.IsRed() {
			t.Errorf("ParseTile(%s) = %v %v %v", want, k, red, err)
		}
	}
	if Tile(16, 0) != "5m" || Tile(-1, wall.TenhouReds) != Hidden {
		t.Error("no-aka red five or hidden tile")
	}
	for _, bad := range []string{"?", "0m", "5zr", "6mr", "10m", "", "Z", "5x"} {
		if _, _, err := ParseTile(bad); err == nil {
			t.Errorf("ParseTile(%q) accepted", bad)
		}
	}
}

// TestEventJSON reads Mortal's published example events (libriichi's
// event.rs test lines) and writes them back identically.
func TestEventJSON(t *testing.T) {
	lines := []string{
		`{"type":"none"}`,
		`{"type":"start_kyoku","bakaze":"E","dora_marker":"5s","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["N","3p","W","W","7m","N","S","C","7m","P","8p","2m","5m"],["7p","1p","2m","3m","4m","C","7s","7s","9s","9p","1m","C","1s"],["3s","E","5m","P","5m","F","7p","6m","5s","9p","1s","S","N"],["2p","4s","4p","E","5p","F","3p","1s","8p","6s","8s","7s","5p"]]}`,
		`{"type":"tsumo","actor":0,"pai":"1m"}`,
		`{"type":"dahai","actor":0,"pai":"2m","tsumogiri":true}`,
		`{"type":"chi","actor":1,"target":0,"pai":"6s","consumed":["5sr","7s"]}`,
		`{"type":"pon","actor":1,"target":0,"pai":"C","consumed":["C","C"]}`,
		`{"type":"daiminkan","actor":2,"target":0,"pai":"5p","consumed":["5pr","5p","5p"]}`,
		`{"type":"kakan","actor":3,"pai":"S","consumed":["S","S","S"]}`,
		`{"type":"ankan","actor":0,"consumed":["9m","9m","9m","9m"]}`,
		`{"type":"dora","dora_marker":"3s"}`,
		`{"type":"reach","actor":1}`,
		`{"type":"reach_accepted","actor":2}`,
		`{"type":"hora","actor":3,"target":1,"deltas":[0,-8000,0,9000],"ura_markers":["4p"]}`,
		`{"type":"hora","actor":3,"target":1}`,
		`{"type":"ryukyoku","deltas":[0,1500,0,-1500]}`,
		`{"type":"ryukyoku"}`,
		`{"type":"end_kyoku"}`,
		`{"type":"end_game"}`,
	}
	for _, l := range lines {
		var e Event
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if got := e.String(); got != l {
			t.Errorf("round trip\n got %s\nwant %s", got, l)
		}
	}
	for _, bad := range []string{`{}`, `{"type":"dahai","pai":"1m"}`, `{"type":"reach","actor":4}`, `[1]`, `{"type":"hora","actor":0,"target":9}`} {
		var e Event
		if err := json.Unmarshal([]byte(bad), &e); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestSharedLogsConvert converts every log of the corpus (three-player ones
// included) and checks each seat view hides exactly the other seats'
// haipai and draws: the number of "?" equals their tile count, and seat s
// sees its own tiles as in the full stream.
func TestSharedLogsConvert(t *testing.T) {
	corpus := tenhoucorpus.For(t)
	files := corpus.MustFiles(t)
	three, kita := 0, 0
	for _, f := range files {
		g, err := mjlog.Read(f)
		if err != nil {
			t.Fatal(err)
		}
		evs, err := FromMjlog(g)
		if err != nil {
			t.Fatal(err)
		}
		if g.Go.Players() == 3 {
			three++
		}
		calls := 0
		for _, rd := range g.Rounds {
			for _, e := range rd.Events {
				if c, ok := e.(mjlog.Call); ok && c.Meld.Type == riichi.Kita {
					calls++
				}
			}
		}
		nuki := 0
		var lastDahai *Event
		for i, e := range evs {
			switch e.Type {
			case Nukidora:
				nuki++
			case Dahai:
				lastDahai = &evs[i]
			case Chi, Pon, Daiminkan:
				// The called tile is the last dahai, by the target.
				if lastDahai == nil || lastDahai.Actor != e.Target || lastDahai.Pai != e.Pai || e.Target == e.Actor {
					t.Fatalf("%s: %s after %v", f, e, lastDahai)
				}
			}
		}
		if nuki != calls {
			t.Errorf("%s: %d nukidora events, %d kita calls", f, nuki, calls)
		}
		kita += nuki
		for s := range g.Go.Players() {
			v := View(evs, s)
			hidden, want := 0, 0
			for i, e := range v {
				full := evs[i]
				switch e.Type {
				case StartGame:
					if e.ID != s {
						t.Fatalf("%s seat %d: start_game id %d", f, s, e.ID)
					}
				case StartKyoku:
					for o, th := range e.Tehais {
						if o != s {
							want += len(th)
						} else if strings.Join(th, ",") != strings.Join(full.Tehais[o], ",") {
							t.Fatalf("%s seat %d: own haipai changed", f, s)
						}
						hidden += strings.Count(strings.Join(th, ","), Hidden)
					}
				case Tsumo:
					if e.Actor != s {
						want++
					} else if e.Pai != full.Pai {
						t.Fatalf("%s seat %d: own tsumo changed", f, s)
					}
					if e.Pai == Hidden {
						hidden++
					}
				default:
					if e.String() != full.String() {
						t.Fatalf("%s seat %d: public event changed: %s", f, s, e)
					}
				}
			}
			if hidden != want {
				t.Errorf("%s seat %d: %d hidden tiles, want %d", f, s, hidden, want)
			}
		}
	}
	t.Logf("%d games (%d three-player, %d nukidora) converted", len(files), three, kita)
	if want := corpus.MustManifest(t).Totals(); len(files) != want.Games || three != want.Games3 {
		t.Errorf("converted %d games (%d three-player) of %s, its MANIFEST.md lists %d (%d)", len(files), three, corpus, want.Games, want.Games3)
	}
}

// BenchmarkConvertSharedLogs reads, converts and writes every log of the corpus
// per iteration (games/s is the target: ≥ 1,000 on one core).
func BenchmarkConvertSharedLogs(b *testing.B) {
	corpus := tenhoucorpus.For(b)
	files := corpus.MustFiles(b)
	var data [][]byte
	for _, f := range files {
		d, err := tenhoucorpus.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
	}
	var out bytes.Buffer
	cpu0 := cpuTime()
	b.ResetTimer()
	for b.Loop() {
		for i, d := range data {
			g, err := mjlog.Parse(bytes.NewReader(d), files[i])
			if err != nil {
				b.Fatal(err)
			}
			out.Reset()
			if err := WriteMjlog(&out, g, -1); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(data))/b.Elapsed().Seconds(), "games/s")
	b.ReportMetric(float64(b.N*len(data))/(cpuTime()-cpu0).Seconds(), "games/cpu-s")
}

// BenchmarkConvertParsed converts and writes every log of the corpus, already
// parsed, per iteration: the converter's own share of the games/s above.
func BenchmarkConvertParsed(b *testing.B) {
	corpus := tenhoucorpus.For(b)
	files := corpus.MustFiles(b)
	var games []*mjlog.Game
	for _, f := range files {
		g, err := mjlog.Read(f)
		if err != nil {
			b.Fatal(err)
		}
		games = append(games, g)
	}
	var out bytes.Buffer
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, g := range games {
			out.Reset()
			if err := WriteMjlog(&out, g, -1); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(games))/b.Elapsed().Seconds(), "games/s")
}

// cpuTime returns the process's user and system CPU time so far: with
// -cpu 1 the games per CPU second is the one-core rate even when other
// processes share the machine.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
