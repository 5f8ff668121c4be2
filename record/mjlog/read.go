package mjlog

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/mentalmj/mentalmj/wall"
)

// Read opens the mjlog at path, plain XML or gzip-compressed (detected by
// the magic bytes 1f 8b), and parses it with Parse. Errors name path.
func Read(path string) (*Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	size := 0
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		size = int(min(info.Size(), fastLimit))
	}
	return parse(f, path, size, false)
}

// Parse reads one mjlog document from r (plain or gzip, detected by magic
// bytes) and returns the Game; name is recorded in Game.File and prefixes
// every error. It returns an error for input that is not well-formed XML,
// is truncated before </mjloggm>, has a malformed number, a tile id
// outside 0..135, a seat outside 0..3, a meld code outside Tenhou's layout
// (wrapping ErrMeldCode), or play tags before the first <INIT>; an error
// about a tag ends with its position ("the tag ending at line 1, column
// 812"), and XML syntax errors name their line. Unknown
// tags and attributes are kept, not rejected.
//
// Documents up to fastLimit bytes (decompressed) are read whole and
// tokenized by the fast scanner (scan.go); one that leaves its subset, or
// any error, is reparsed with encoding/xml, which then decides the result.
func Parse(r io.Reader, name string) (*Game, error) {
	size := 0
	if l, ok := r.(interface{ Len() int }); ok {
		size = min(l.Len(), fastLimit)
	}
	return parse(r, name, size, false)
}

// ParseView is Parse for one player's view of a game (a Mental Mahjong
// private-hands record): it also accepts hidden tiles (Hidden), a tsumo
// tag without a tile id (<U/>) and "?" in an <INIT> hai list. Parse
// refuses them.
func ParseView(r io.Reader, name string) (*Game, error) {
	size := 0
	if l, ok := r.(interface{ Len() int }); ok {
		size = min(l.Len(), fastLimit)
	}
	return parse(r, name, size, true)
}

// parse is Parse with a hint of the input's size in bytes (0 unknown).
func parse(r io.Reader, name string, size int, view bool) (*Game, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		defer zr.Close()
		src = zr
	}
	b := bytes.NewBuffer(make([]byte, 0, size+bytes.MinRead))
	_, err := b.ReadFrom(io.LimitReader(src, fastLimit+1))
	buf := b.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(buf) > fastLimit {
		return parseXML(io.MultiReader(bytes.NewReader(buf), src), name, view)
	}
	doc := string(buf)
	p := &parser{d: tokenSource{fast: &scanner{doc: doc}}, g: &Game{File: name}, view: view}
	if err := p.run(); err == nil {
		return p.g, nil
	}
	return parseXML(strings.NewReader(doc), name, view)
}

// fastLimit is the largest decompressed document (bytes) read whole for
// the fast scanner; a real mjlog is under 1 MB.
const fastLimit = 64 << 20

// parseXML parses a plain mjlog document with encoding/xml's tokenizer: the
// reference path the fast scanner is checked against, and the reader of
// every document the scanner does not take.
func parseXML(r io.Reader, name string, view bool) (*Game, error) {
	p := &parser{d: tokenSource{dec: xml.NewDecoder(r)}, g: &Game{File: name}, view: view}
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.g, nil
}

// parser holds the state of one Parse call.
type parser struct {
	d                    tokenSource
	g                    *Game
	seenShuffle, seenGo  bool
	seenUN, seenTaikyoku bool
	// view accepts hidden tiles (ParseView).
	view bool
}

func (p *parser) run() error {
	file := p.g.File
	var tok token
	// Find the root element. Element nesting is checked here (RawToken
	// does not).
	for {
		err := p.d.next(&tok)
		if err == io.EOF {
			return fmt.Errorf("%s: no <mjloggm> element", file)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		if tok.kind == tokStart {
			if tok.name.Local != "mjloggm" || tok.name.Space != "" {
				return fmt.Errorf("%s: root element <%s>, want <mjloggm>", file, attrName(tok.name))
			}
			if v, ok := (&tag{attrs: tok.attr}).get("ver"); ok {
				p.g.Version = v
			}
			break
		}
		if tok.kind == tokEnd {
			return fmt.Errorf("%s: unexpected </%s>", file, attrName(tok.name))
		}
	}
	for {
		err := p.d.next(&tok)
		if err == io.EOF {
			return fmt.Errorf("%s: truncated: missing </mjloggm>", file)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", file, err)
		}
		switch tok.kind {
		case tokStart:
			if err := p.element(tok.name, tok.attr); err != nil {
				line, col := p.d.inputPos()
				return fmt.Errorf("%w (the tag ending at line %d, column %d)", err, line, col)
			}
			if err := p.skip(tok.name, &tok); err != nil {
				return err
			}
		case tokEnd:
			if tok.name.Local != "mjloggm" || tok.name.Space != "" {
				return fmt.Errorf("%s: </%s> closes <mjloggm>", file, attrName(tok.name))
			}
			return nil
		}
	}
}

// skip consumes the content and end tag of the element name just started,
// checking that nested elements are closed in order; tok is scratch space.
func (p *parser) skip(name xml.Name, tok *token) error {
	var buf [4]xml.Name
	stack := append(buf[:0], name)
	for len(stack) > 0 {
		err := p.d.next(tok)
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return fmt.Errorf("%s: <%s>: %w", p.g.File, attrName(name), err)
		}
		switch tok.kind {
		case tokStart:
			stack = append(stack, tok.name)
		case tokEnd:
			if top := stack[len(stack)-1]; tok.name != top {
				return fmt.Errorf("%s: </%s> closes <%s>", p.g.File, attrName(tok.name), attrName(top))
			}
			stack = stack[:len(stack)-1]
		}
	}
	return nil
}

// playEvents holds every Draw and Discard value already converted to an
// Event, [discard][who][tile]: the events of a log are mostly draws and
// discards, and converting each to an interface value would allocate. The
// table is read-only once built.
var playEvents = sync.OnceValue(func() *[2][4][wall.NumTiles]Event {
	var t [2][4][wall.NumTiles]Event
	for who := range 4 {
		for id := range wall.NumTiles {
			t[0][who][id] = Draw{Who: who, Tile: wall.Tile(id)}
			t[1][who][id] = Discard{Who: who, Tile: wall.Tile(id)}
		}
	}
	return &t
})

// playEvent returns the Draw (or Discard) of tile by seat who as an Event
// without allocating.
func playEvent(who int, discard bool, tile wall.Tile) Event {
	d := 0
	if discard {
		d = 1
	}
	return playEvents()[d][who][tile]
}

// playTag reports whether name is a tsumo/dahai tag like "T56" or "E3"
// and returns the seat, whether it is a discard, and the id text.
func playTag(name string) (who int, discard bool, id string, ok bool) {
	if len(name) < 1 {
		return 0, false, "", false
	}
	i := strings.IndexByte("TUVWDEFG", name[0])
	if i < 0 || len(name) == 1 && i >= 4 {
		return 0, false, "", false
	}
	for j := 1; j < len(name); j++ {
		if name[j] < '0' || name[j] > '9' {
			return 0, false, "", false
		}
	}
	return i % 4, i >= 4, name[1:], true
}

func (p *parser) round() *Round {
	if len(p.g.Rounds) == 0 {
		return nil
	}
	return &p.g.Rounds[len(p.g.Rounds)-1]
}

// addEvent appends e to the current round, or fails when play has not
// started.
func (p *parser) addEvent(t *tag, e Event) error {
	r := p.round()
	if r == nil {
		switch e.(type) {
		case Bye, Reconnect:
			p.g.Prelude = append(p.g.Prelude, e)
			return nil
		}
		return t.errf("before the first <INIT>")
	}
	r.Events = append(r.Events, e)
	return nil
}

// keep records an uninterpreted tag: in Game.Unknown before play, as an
// event afterwards.
func (p *parser) keep(name xml.Name, attrs []xml.Attr) {
	u := Unknown{Name: attrName(name)}
	for _, a := range attrs {
		u.Attrs = append(u.Attrs, Attr{Name: attrName(a.Name), Value: a.Value})
	}
	if r := p.round(); r != nil {
		r.Events = append(r.Events, u)
	} else {
		p.g.Unknown = append(p.g.Unknown, u)
	}
}

func (p *parser) element(name xml.Name, attrs []xml.Attr) error {
	t := &tag{file: p.g.File, name: name.Local, attrs: attrs}
	if name.Space != "" {
		p.keep(name, attrs)
		return nil
	}
	if who, discard, id, ok := playTag(t.name); ok {
		if id == "" {
			if !p.view {
				return t.errf("%v", errHidden)
			}
			return p.addEvent(t, Draw{Who: who, Tile: Hidden})
		}
		tile, err := parseTile(id)
		if err != nil {
			return t.errf("tile %q: %w", id, err)
		}
		return p.addEvent(t, playEvent(who, discard, tile))
	}
	switch t.name {
	case "SHUFFLE":
		if p.seenShuffle || p.round() != nil {
			break
		}
		p.seenShuffle = true
		seed, _ := t.get("seed")
		ref, _ := t.get("ref")
		p.g.Shuffle = &Shuffle{Seed: seed, Ref: ref}
		return nil
	case "GO":
		if p.seenGo || p.round() != nil {
			break
		}
		p.seenGo = true
		typ, err := t.intAttr("type", 0, math.MaxInt32)
		if err != nil {
			return err
		}
		lobby, err := t.optIntAttr("lobby", 0, math.MaxInt32, 0)
		if err != nil {
			return err
		}
		p.g.Go = GoRule{Type: typ, Lobby: lobby, Extra: t.extra("type", "lobby")}
		return nil
	case "UN":
		if who, name, ok, err := reconnect(t); err != nil {
			return err
		} else if ok && (p.seenUN || p.round() != nil) {
			return p.addEvent(t, Reconnect{Who: who, Name: name})
		}
		if p.seenUN || p.round() != nil {
			break
		}
		p.seenUN = true
		return p.players(t)
	case "TAIKYOKU":
		if p.seenTaikyoku || p.round() != nil {
			break
		}
		p.seenTaikyoku = true
		oya, err := t.optIntAttr("oya", 0, 3, 0)
		if err != nil {
			return err
		}
		p.g.Oya = oya
		return nil
	case "INIT":
		in, err := parseInit(t, p.view)
		if err != nil {
			return err
		}
		// A kyoku holds about a hundred events: start there.
		p.g.Rounds = append(p.g.Rounds, Round{Init: in, Events: make([]Event, 0, 128)})
		return nil
	case "N":
		who, err := t.intAttr("who", 0, 3)
		if err != nil {
			return err
		}
		m, err := t.intAttr("m", 0, 0xFFFF)
		if err != nil {
			return err
		}
		md, err := DecodeMeld(m)
		if err != nil {
			return t.attrErr("m", strconv.Itoa(m), err)
		}
		return p.addEvent(t, Call{Who: who, Meld: md})
	case "REACH":
		who, err := t.intAttr("who", 0, 3)
		if err != nil {
			return err
		}
		step, err := t.intAttr("step", 0, math.MaxInt32)
		if err != nil {
			return err
		}
		ten, err := t.intsAttr("ten", 0)
		if err != nil {
			return err
		}
		return p.addEvent(t, Reach{Who: who, Step: step, Ten: ten})
	case "DORA":
		tile, err := t.tileAttr("hai")
		if err != nil {
			return err
		}
		return p.addEvent(t, Dora{Tile: tile})
	case "BYE":
		who, err := t.intAttr("who", 0, 3)
		if err != nil {
			return err
		}
		return p.addEvent(t, Bye{Who: who})
	case "AGARI":
		a, err := parseAgari(t)
		if err != nil {
			return err
		}
		if err := p.addEvent(t, a); err != nil {
			return err
		}
		if a.Owari != nil {
			p.g.Owari = a.Owari
		}
		return nil
	case "RYUUKYOKU":
		rk, err := parseRyuukyoku(t)
		if err != nil {
			return err
		}
		if err := p.addEvent(t, rk); err != nil {
			return err
		}
		if rk.Owari != nil {
			p.g.Owari = rk.Owari
		}
		return nil
	}
	p.keep(name, attrs)
	return nil
}

// reconnect reports whether t is a reconnection <UN nX="name"/> (exactly
// one attribute, n0..n3) and decodes it.
func reconnect(t *tag) (who int, name string, ok bool, err error) {
	if len(t.attrs) != 1 {
		return 0, "", false, nil
	}
	a := t.attrs[0]
	switch a.Name.Local {
	case "n0", "n1", "n2", "n3":
	default:
		return 0, "", false, nil
	}
	name, err = decodeName(a.Value)
	if err != nil {
		return 0, "", false, t.attrErr(a.Name.Local, a.Value, err)
	}
	return int(a.Name.Local[1] - '0'), name, true, nil
}

// players parses the header <UN n0..n3 dan rate sx>.
func (p *parser) players(t *tag) error {
	ps := make([]Player, 4)
	for i := range ps {
		attr := "n" + strconv.Itoa(i)
		v, _ := t.get(attr)
		name, err := decodeName(v)
		if err != nil {
			return t.attrErr(attr, v, err)
		}
		ps[i].Name = name
	}
	dan, err := t.intsAttr("dan", 4)
	if err != nil {
		return err
	}
	for i, d := range dan {
		ps[i].Dan = d
	}
	if v, ok := t.get("rate"); ok && v != "" {
		fields := strings.Split(v, ",")
		if len(fields) != 4 {
			return t.attrErr("rate", v, fmt.Errorf("%d values, want 4", len(fields)))
		}
		for i, f := range fields {
			r, err := parseFloat(f)
			if err != nil {
				return t.attrErr("rate", v, err)
			}
			ps[i].Rate = r
		}
	}
	if v, ok := t.get("sx"); ok && v != "" {
		fields := strings.Split(v, ",")
		if len(fields) != 4 {
			return t.attrErr("sx", v, fmt.Errorf("%d values, want 4", len(fields)))
		}
		for i, f := range fields {
			ps[i].Sex = f
		}
	}
	p.g.Players = ps
	p.g.PlayersExtra = t.extra("n0", "n1", "n2", "n3", "dan", "rate", "sx")
	return nil
}

func parseInit(t *tag, view bool) (Init, error) {
	var in Init
	seed, err := t.need("seed")
	if err != nil {
		return in, err
	}
	f, err := t.intsAttr("seed", 6)
	if err != nil {
		return in, err
	}
	in.Kyoku, in.Honba, in.Kyotaku = f[0], f[1], f[2]
	for i := range 2 {
		if f[3+i] < 0 || f[3+i] > 5 {
			return in, t.attrErr("seed", seed, fmt.Errorf("die %d out of range 0..5", f[3+i]))
		}
		in.Dice[i] = f[3+i]
	}
	if !wall.Tile(f[5]).Valid() {
		return in, t.attrErr("seed", seed, fmt.Errorf("dora indicator %d out of range 0..135", f[5]))
	}
	in.DoraIndicator = wall.Tile(f[5])
	if in.Ten, err = t.intsAttr("ten", 0); err != nil {
		return in, err
	}
	if in.Oya, err = t.intAttr("oya", 0, 3); err != nil {
		return in, err
	}
	for i := range 4 {
		if in.Hai[i], err = t.haiAttr("hai"+strconv.Itoa(i), view); err != nil {
			return in, err
		}
	}
	in.Extra = t.extra("seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3")
	return in, nil
}

func parseAgari(t *tag) (Agari, error) {
	a := Agari{Paowho: -1}
	var err error
	if a.Who, err = t.intAttr("who", 0, 3); err != nil {
		return a, err
	}
	if a.FromWho, err = t.intAttr("fromWho", 0, 3); err != nil {
		return a, err
	}
	if a.Paowho, err = t.optIntAttr("paoWho", 0, 3, -1); err != nil {
		return a, err
	}
	if _, err = t.need("hai"); err != nil {
		return a, err
	}
	if a.Hai, err = t.tilesAttr("hai"); err != nil {
		return a, err
	}
	ms, err := t.intsAttr("m", 0)
	if err != nil {
		return a, err
	}
	for _, m := range ms {
		md, err := DecodeMeld(m)
		if err != nil {
			v, _ := t.get("m")
			return a, t.attrErr("m", v, err)
		}
		a.Melds = append(a.Melds, md)
	}
	if a.Machi, err = t.tileAttr("machi"); err != nil {
		return a, err
	}
	if _, err = t.need("ten"); err != nil {
		return a, err
	}
	ten, err := t.intsAttr("ten", 3)
	if err != nil {
		return a, err
	}
	a.Fu, a.Ten, a.Limit = ten[0], ten[1], ten[2]
	yaku, err := t.intsAttr("yaku", 0)
	if err != nil {
		return a, err
	}
	if len(yaku)%2 != 0 {
		v, _ := t.get("yaku")
		return a, t.attrErr("yaku", v, errors.New("odd number of values, want id,han pairs"))
	}
	for i := 0; i < len(yaku); i += 2 {
		a.Yaku = append(a.Yaku, YakuHan{ID: yaku[i], Han: yaku[i+1]})
	}
	if a.Yakuman, err = t.intsAttr("yakuman", 0); err != nil {
		return a, err
	}
	if a.DoraHai, err = t.tilesAttr("doraHai"); err != nil {
		return a, err
	}
	if a.DoraHaiUra, err = t.tilesAttr("doraHaiUra"); err != nil {
		return a, err
	}
	if a.Honba, a.Kyotaku, err = t.baAttr(); err != nil {
		return a, err
	}
	if a.Sc, err = t.intsAttr("sc", 0); err != nil {
		return a, err
	}
	if a.Owari, err = t.owariAttr(); err != nil {
		return a, err
	}
	a.Extra = t.extra("who", "fromWho", "paoWho", "hai", "m", "machi", "ten", "yaku", "yakuman",
		"doraHai", "doraHaiUra", "ba", "sc", "owari")
	return a, nil
}

func parseRyuukyoku(t *tag) (Ryuukyoku, error) {
	var rk Ryuukyoku
	var err error
	rk.Type, _ = t.get("type")
	if rk.Honba, rk.Kyotaku, err = t.baAttr(); err != nil {
		return rk, err
	}
	if rk.Sc, err = t.intsAttr("sc", 0); err != nil {
		return rk, err
	}
	for i := range 4 {
		if rk.Hai[i], err = t.tilesAttr("hai" + strconv.Itoa(i)); err != nil {
			return rk, err
		}
	}
	if rk.Owari, err = t.owariAttr(); err != nil {
		return rk, err
	}
	rk.Extra = t.extra("type", "ba", "sc", "hai0", "hai1", "hai2", "hai3", "owari")
	return rk, nil
}
