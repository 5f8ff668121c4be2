package mjai

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// The event types.
const (
	StartGame     = "start_game"
	StartKyoku    = "start_kyoku"
	Tsumo         = "tsumo"
	Dahai         = "dahai"
	Chi           = "chi"
	Pon           = "pon"
	Daiminkan     = "daiminkan"
	Kakan         = "kakan"
	Ankan         = "ankan"
	Nukidora      = "nukidora"
	Dora          = "dora"
	Reach         = "reach"
	ReachAccepted = "reach_accepted"
	Hora          = "hora"
	Ryukyoku      = "ryukyoku"
	EndKyoku      = "end_kyoku"
	EndGame       = "end_game"
	None          = "none"
)

// Event is one mjai event. Only the fields of its Type are written (see the
// package documentation); tiles are mjai names, seats absolute 0..3,
// points not 100s.
type Event struct {
	Type string
	// Actor is the acting seat; Target the seat a called or ronned tile
	// came from (Target == Actor for tsumo).
	Actor, Target int
	// Pai is the tile drawn, discarded, called or added (kakan).
	Pai string
	// Consumed are the hand tiles of a call: 2 chi/pon, 3 daiminkan and
	// kakan (the pon), 4 ankan.
	Consumed []string
	// Tsumogiri marks a dahai of the tile just drawn.
	Tsumogiri bool
	// ID is start_game's seat of the reader; -1 writes no id (a full view).
	ID int
	// Names are start_game's four player names.
	Names []string
	// Bakaze, DoraMarker, Kyoku (1–4), Honba, Kyotaku, Oya, Scores and
	// Tehais (4 × 13, "?" for hidden tiles; empty for the absent seat of a
	// three-player game) describe start_kyoku.
	Bakaze     string
	DoraMarker string
	Kyoku      int
	Honba      int
	Kyotaku    int
	Oya        int
	Scores     []int
	Tehais     [][]string
	// Deltas are hora's and ryukyoku's score changes (4 seats); UraMarkers
	// hora's ura-dora indicators (riichi winners only).
	Deltas     []int
	UraMarkers []string
	// CanAct, when non-nil, writes Mortal's "can_act" extension.
	CanAct *bool
}

// MarshalJSON writes the event with "type" first and only its type's
// fields, in mjai's field order.
func (e Event) MarshalJSON() ([]byte, error) {
	return e.AppendJSON(make([]byte, 0, 96)), nil
}

// AppendJSON appends the event's JSON (as MarshalJSON writes it) to b.
func (e *Event) AppendJSON(b []byte) []byte {
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, e.Type)
	num := func(k string, v int) {
		b = append(b, `,"`...)
		b = append(b, k...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	str := func(k, v string) {
		b = append(b, `,"`...)
		b = append(b, k...)
		b = append(b, `":`...)
		b = strconv.AppendQuote(b, v)
	}
	strs := func(k string, vs []string) {
		b = append(b, `,"`...)
		b = append(b, k...)
		b = append(b, `":[`...)
		for i, v := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendQuote(b, v)
		}
		b = append(b, ']')
	}
	nums := func(k string, vs []int) {
		b = append(b, `,"`...)
		b = append(b, k...)
		b = append(b, `":[`...)
		for i, v := range vs {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	switch e.Type {
	case StartGame:
		if e.Names != nil {
			strs("names", e.Names)
		}
		if e.ID >= 0 {
			num("id", e.ID)
		}
	case StartKyoku:
		str("bakaze", e.Bakaze)
		str("dora_marker", e.DoraMarker)
		num("kyoku", e.Kyoku)
		num("honba", e.Honba)
		num("kyotaku", e.Kyotaku)
		num("oya", e.Oya)
		nums("scores", e.Scores)
		b = append(b, `,"tehais":[`...)
		for i, t := range e.Tehais {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, '[')
			for j, v := range t {
				if j > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendQuote(b, v)
			}
			b = append(b, ']')
		}
		b = append(b, ']')
	case Tsumo, Nukidora:
		num("actor", e.Actor)
		str("pai", e.Pai)
	case Dahai:
		num("actor", e.Actor)
		str("pai", e.Pai)
		b = append(b, `,"tsumogiri":`...)
		b = strconv.AppendBool(b, e.Tsumogiri)
	case Chi, Pon, Daiminkan:
		num("actor", e.Actor)
		num("target", e.Target)
		str("pai", e.Pai)
		strs("consumed", e.Consumed)
	case Kakan:
		num("actor", e.Actor)
		str("pai", e.Pai)
		strs("consumed", e.Consumed)
	case Ankan:
		num("actor", e.Actor)
		strs("consumed", e.Consumed)
	case Dora:
		str("dora_marker", e.DoraMarker)
	case Reach, ReachAccepted:
		num("actor", e.Actor)
	case Hora:
		num("actor", e.Actor)
		num("target", e.Target)
		if e.Deltas != nil {
			nums("deltas", e.Deltas)
		}
		if e.UraMarkers != nil {
			strs("ura_markers", e.UraMarkers)
		}
	case Ryukyoku:
		if e.Deltas != nil {
			nums("deltas", e.Deltas)
		}
	}
	if e.CanAct != nil {
		b = append(b, `,"can_act":`...)
		b = strconv.AppendBool(b, *e.CanAct)
	}
	return append(b, '}')
}

// wire is the decoding form of an event: pointers tell absent fields.
type wire struct {
	Type       string     `json:"type"`
	Actor      *int       `json:"actor"`
	Target     *int       `json:"target"`
	Pai        string     `json:"pai"`
	Consumed   []string   `json:"consumed"`
	Tsumogiri  bool       `json:"tsumogiri"`
	ID         *int       `json:"id"`
	Names      []string   `json:"names"`
	Bakaze     string     `json:"bakaze"`
	DoraMarker string     `json:"dora_marker"`
	Kyoku      int        `json:"kyoku"`
	Honba      int        `json:"honba"`
	Kyotaku    int        `json:"kyotaku"`
	Oya        int        `json:"oya"`
	Scores     []int      `json:"scores"`
	Tehais     [][]string `json:"tehais"`
	Deltas     []int      `json:"deltas"`
	UraMarkers []string   `json:"ura_markers"`
	CanAct     *bool      `json:"can_act"`
}

// needsActor lists the types that must carry an actor.
var needsActor = map[string]bool{Tsumo: true, Dahai: true, Chi: true, Pon: true, Daiminkan: true, Kakan: true,
	Ankan: true, Nukidora: true, Reach: true, ReachAccepted: true, Hora: true}

// UnmarshalJSON reads one event. It returns an error for input that is not
// a JSON object, has no "type", or lacks the actor (0..3) of an event that
// needs one; other fields are taken as given (unknown keys, such as
// Mortal's "meta", are ignored).
func (e *Event) UnmarshalJSON(data []byte) error {
	var w wire
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("mjai: %w", err)
	}
	if w.Type == "" {
		return fmt.Errorf("mjai: event without a type")
	}
	*e = Event{Type: w.Type, Pai: w.Pai, Consumed: w.Consumed, Tsumogiri: w.Tsumogiri, ID: -1, Names: w.Names,
		Bakaze: w.Bakaze, DoraMarker: w.DoraMarker, Kyoku: w.Kyoku, Honba: w.Honba, Kyotaku: w.Kyotaku, Oya: w.Oya,
		Scores: w.Scores, Tehais: w.Tehais, Deltas: w.Deltas, UraMarkers: w.UraMarkers, CanAct: w.CanAct}
	if w.ID != nil {
		e.ID = *w.ID
	}
	if needsActor[w.Type] {
		if w.Actor == nil || *w.Actor < 0 || *w.Actor > 3 {
			return fmt.Errorf("mjai: %s without an actor 0..3", w.Type)
		}
		e.Actor = *w.Actor
	}
	if w.Target != nil {
		if *w.Target < 0 || *w.Target > 3 {
			return fmt.Errorf("mjai: %s: target %d outside 0..3", w.Type, *w.Target)
		}
		e.Target = *w.Target
	}
	return nil
}

// String returns the event's JSON.
func (e Event) String() string {
	b, _ := e.MarshalJSON()
	return string(b)
}
