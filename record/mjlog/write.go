package mjlog

import (
	"bufio"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/wall"
)

// Write emits g as a Tenhou-format mjlog document:
//
//	<mjloggm ver="2.3"><SHUFFLE seed= ref=/><GO type= lobby=/><UN …/>
//	<TAIKYOKU oya=/>[Prelude][Unknown]<INIT …/><T12/><D12/>…</mjloggm>
//
// SHUFFLE is omitted when g.Shuffle is nil and UN when g.Players is nil; an
// empty g.Version is written as "2.3". Draws are T/U/V/W and discards
// D/E/F/G by seat; calls are re-encoded with EncodeMeld; names are
// %-encoded byte by byte as Tenhou does. Parse(Write(g)) reproduces g
// (with File set to the new name). It returns an error for a seat outside
// 0..3, a tile outside 0..135, a die outside 0..5, more than 4 players, a
// meld EncodeMeld rejects, an unknown Event type, or a write error of w.
func Write(w io.Writer, g *Game) error {
	e := &encoder{w: bufio.NewWriter(w)}
	ver := g.Version
	if ver == "" {
		ver = "2.3"
	}
	e.open("mjloggm")
	e.attr("ver", ver)
	e.raw(">")
	if g.Shuffle != nil {
		e.open("SHUFFLE")
		e.attr("seed", g.Shuffle.Seed)
		e.attr("ref", g.Shuffle.Ref)
		e.close()
	}
	e.open("GO")
	e.attr("type", strconv.Itoa(g.Go.Type))
	e.attr("lobby", strconv.Itoa(g.Go.Lobby))
	e.extra(g.Go.Extra)
	e.close()
	if g.Players != nil {
		if err := e.players(g.Players, g.PlayersExtra); err != nil {
			return err
		}
	}
	e.open("TAIKYOKU")
	e.attr("oya", strconv.Itoa(g.Oya))
	e.close()
	for i, ev := range g.Prelude {
		if err := e.event(ev); err != nil {
			return fmt.Errorf("write prelude event %d: %w", i, err)
		}
	}
	for _, u := range g.Unknown {
		e.unknown(u)
	}
	for i := range g.Rounds {
		if err := e.round(&g.Rounds[i]); err != nil {
			return fmt.Errorf("write round %d: %w", i, err)
		}
	}
	e.raw("</mjloggm>")
	if e.err != nil {
		return e.err
	}
	return e.w.Flush()
}

// encoder writes tags; the first write error sticks in err.
type encoder struct {
	w   *bufio.Writer
	err error
}

func (e *encoder) raw(s string) {
	if e.err == nil {
		_, e.err = e.w.WriteString(s)
	}
}

func (e *encoder) open(name string) { e.raw("<" + name) }

func (e *encoder) close() { e.raw("/>") }

func (e *encoder) attr(name, value string) {
	e.raw(" " + name + `="`)
	if e.err == nil {
		e.err = xml.EscapeText(e.w, []byte(value))
	}
	e.raw(`"`)
}

func (e *encoder) extra(as []Attr) {
	for _, a := range as {
		e.attr(a.Name, a.Value)
	}
}

func (e *encoder) unknown(u Unknown) {
	e.open(u.Name)
	e.extra(u.Attrs)
	e.close()
}

func (e *encoder) players(ps []Player, extra []Attr) error {
	if len(ps) > 4 {
		return fmt.Errorf("write <UN>: %d players, want at most 4", len(ps))
	}
	e.open("UN")
	var dan, rate, sx []string
	for i := range 4 {
		var p Player
		if i < len(ps) {
			p = ps[i]
		}
		e.attr("n"+strconv.Itoa(i), encodeName(p.Name))
		dan = append(dan, strconv.Itoa(p.Dan))
		rate = append(rate, formatFloat(p.Rate, 2))
		sx = append(sx, p.Sex)
	}
	e.attr("dan", strings.Join(dan, ","))
	e.attr("rate", strings.Join(rate, ","))
	e.attr("sx", strings.Join(sx, ","))
	e.extra(extra)
	e.close()
	return nil
}

func (e *encoder) round(r *Round) error {
	in := &r.Init
	known := slices.DeleteFunc(concat(in.Hai[:]), func(t wall.Tile) bool { return t == Hidden })
	if err := checkTiles(append([]wall.Tile{in.DoraIndicator}, known...)); err != nil {
		return fmt.Errorf("<INIT>: %w", err)
	}
	if err := checkSeat(in.Oya); err != nil {
		return fmt.Errorf("<INIT>: %w", err)
	}
	for _, d := range in.Dice {
		if d < 0 || d > 5 {
			return fmt.Errorf("<INIT>: die %d out of range 0..5", d)
		}
	}
	e.open("INIT")
	e.attr("seed", joinInts([]int{in.Kyoku, in.Honba, in.Kyotaku, in.Dice[0], in.Dice[1], int(in.DoraIndicator)}))
	e.attr("ten", joinInts(in.Ten))
	e.attr("oya", strconv.Itoa(in.Oya))
	for i, h := range in.Hai {
		e.attr("hai"+strconv.Itoa(i), joinHai(h))
	}
	e.extra(in.Extra)
	e.close()
	for i, ev := range r.Events {
		if err := e.event(ev); err != nil {
			return fmt.Errorf("event %d: %w", i, err)
		}
	}
	return nil
}

func (e *encoder) event(ev Event) error {
	switch ev := ev.(type) {
	case Draw:
		if ev.Tile == Hidden {
			if err := checkSeat(ev.Who); err != nil {
				return fmt.Errorf("<T>: %w", err)
			}
			e.raw("<" + "TUVW"[ev.Who:ev.Who+1] + "/>")
			return nil
		}
		return e.play("TUVW", ev.Who, ev.Tile)
	case Discard:
		return e.play("DEFG", ev.Who, ev.Tile)
	case Call:
		if err := checkSeat(ev.Who); err != nil {
			return fmt.Errorf("<N>: %w", err)
		}
		m, err := EncodeMeld(ev.Meld)
		if err != nil {
			return fmt.Errorf("<N>: %w", err)
		}
		e.open("N")
		e.attr("who", strconv.Itoa(ev.Who))
		e.attr("m", strconv.Itoa(m))
		e.close()
	case Reach:
		if err := checkSeat(ev.Who); err != nil {
			return fmt.Errorf("<REACH>: %w", err)
		}
		e.open("REACH")
		e.attr("who", strconv.Itoa(ev.Who))
		if ev.Ten != nil {
			e.attr("ten", joinInts(ev.Ten))
		}
		e.attr("step", strconv.Itoa(ev.Step))
		e.close()
	case Dora:
		if err := checkTiles([]wall.Tile{ev.Tile}); err != nil {
			return fmt.Errorf("<DORA>: %w", err)
		}
		e.open("DORA")
		e.attr("hai", strconv.Itoa(int(ev.Tile)))
		e.close()
	case Agari:
		return e.agari(&ev)
	case Ryuukyoku:
		return e.ryuukyoku(&ev)
	case Bye:
		if err := checkSeat(ev.Who); err != nil {
			return fmt.Errorf("<BYE>: %w", err)
		}
		e.open("BYE")
		e.attr("who", strconv.Itoa(ev.Who))
		e.close()
	case Reconnect:
		if err := checkSeat(ev.Who); err != nil {
			return fmt.Errorf("<UN>: %w", err)
		}
		e.open("UN")
		e.attr("n"+strconv.Itoa(ev.Who), encodeName(ev.Name))
		e.close()
	case Unknown:
		e.unknown(ev)
	default:
		return fmt.Errorf("unknown event type %T", ev)
	}
	return nil
}

// play writes a tsumo or dahai tag: letters[who] followed by the tile id.
func (e *encoder) play(letters string, who int, t wall.Tile) error {
	if err := checkSeat(who); err != nil {
		return fmt.Errorf("<%c>: %w", letters[0], err)
	}
	if err := checkTiles([]wall.Tile{t}); err != nil {
		return fmt.Errorf("<%c>: %w", letters[who], err)
	}
	e.raw("<" + letters[who:who+1] + strconv.Itoa(int(t)) + "/>")
	return nil
}

func (e *encoder) agari(a *Agari) error {
	if err := checkSeat(a.Who); err != nil {
		return fmt.Errorf("<AGARI> who: %w", err)
	}
	if err := checkSeat(a.FromWho); err != nil {
		return fmt.Errorf("<AGARI> fromWho: %w", err)
	}
	if a.Paowho != -1 {
		if err := checkSeat(a.Paowho); err != nil {
			return fmt.Errorf("<AGARI> paoWho: %w", err)
		}
	}
	if err := checkTiles(concat([][]wall.Tile{a.Hai, {a.Machi}, a.DoraHai, a.DoraHaiUra})); err != nil {
		return fmt.Errorf("<AGARI>: %w", err)
	}
	var ms []int
	for _, md := range a.Melds {
		m, err := EncodeMeld(md)
		if err != nil {
			return fmt.Errorf("<AGARI> m: %w", err)
		}
		ms = append(ms, m)
	}
	e.open("AGARI")
	e.attr("ba", joinInts([]int{a.Honba, a.Kyotaku}))
	e.attr("hai", joinTiles(a.Hai))
	if ms != nil {
		e.attr("m", joinInts(ms))
	}
	e.attr("machi", strconv.Itoa(int(a.Machi)))
	e.attr("ten", joinInts([]int{a.Fu, a.Ten, a.Limit}))
	if a.Yaku != nil {
		var ys []int
		for _, y := range a.Yaku {
			ys = append(ys, y.ID, y.Han)
		}
		e.attr("yaku", joinInts(ys))
	}
	if a.Yakuman != nil {
		e.attr("yakuman", joinInts(a.Yakuman))
	}
	if a.DoraHai != nil {
		e.attr("doraHai", joinTiles(a.DoraHai))
	}
	if a.DoraHaiUra != nil {
		e.attr("doraHaiUra", joinTiles(a.DoraHaiUra))
	}
	e.attr("who", strconv.Itoa(a.Who))
	e.attr("fromWho", strconv.Itoa(a.FromWho))
	if a.Paowho != -1 {
		e.attr("paoWho", strconv.Itoa(a.Paowho))
	}
	if a.Sc != nil {
		e.attr("sc", joinInts(a.Sc))
	}
	e.owari(a.Owari)
	e.extra(a.Extra)
	e.close()
	return nil
}

func (e *encoder) ryuukyoku(rk *Ryuukyoku) error {
	if err := checkTiles(concat(rk.Hai[:])); err != nil {
		return fmt.Errorf("<RYUUKYOKU>: %w", err)
	}
	e.open("RYUUKYOKU")
	if rk.Type != "" {
		e.attr("type", rk.Type)
	}
	e.attr("ba", joinInts([]int{rk.Honba, rk.Kyotaku}))
	if rk.Sc != nil {
		e.attr("sc", joinInts(rk.Sc))
	}
	for i, h := range rk.Hai {
		if h != nil {
			e.attr("hai"+strconv.Itoa(i), joinTiles(h))
		}
	}
	e.owari(rk.Owari)
	e.extra(rk.Extra)
	e.close()
	return nil
}

func (e *encoder) owari(o *Owari) {
	if o == nil {
		return
	}
	var fs []string
	for i := range o.Scores {
		fs = append(fs, strconv.Itoa(o.Scores[i]))
		p := 0.0
		if i < len(o.Points) {
			p = o.Points[i]
		}
		fs = append(fs, formatFloat(p, 1))
	}
	e.attr("owari", strings.Join(fs, ","))
}

func checkSeat(who int) error {
	if who < 0 || who > 3 {
		return fmt.Errorf("seat %d out of range 0..3", who)
	}
	return nil
}

func checkTiles(ts []wall.Tile) error {
	for _, t := range ts {
		if !t.Valid() {
			return fmt.Errorf("tile id %d out of range 0..135", int(t))
		}
	}
	return nil
}

func concat(ls [][]wall.Tile) []wall.Tile {
	var out []wall.Tile
	for _, l := range ls {
		out = append(out, l...)
	}
	return out
}

func joinInts(ns []int) string {
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// joinHai is joinTiles for an <INIT> hai list, writing a Hidden tile as
// "?".
func joinHai(ts []wall.Tile) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		if t == Hidden {
			b.WriteByte('?')
			continue
		}
		b.WriteString(strconv.Itoa(int(t)))
	}
	return b.String()
}

func joinTiles(ts []wall.Tile) string {
	var b strings.Builder
	for i, t := range ts {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(int(t)))
	}
	return b.String()
}

// formatFloat writes v with prec decimals (Tenhou's style: rates "1500.00",
// points "-13.0") when that reads back as exactly v, else the shortest
// exact form.
func formatFloat(v float64, prec int) string {
	s := strconv.FormatFloat(v, 'f', prec, 64)
	if back, err := strconv.ParseFloat(s, 64); err == nil && back == v {
		return s
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}
