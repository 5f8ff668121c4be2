// Package statspage is the page of "mentalmj stats --ui": the figures of a
// stats.Report as HTML tables and SVG charts, drawn on the server (no
// script), with everything embedded (go:embed). Serve it with
// web.ListenPage (ui/web), which adds the token and Origin rules of the table page.
//
// Per kind of game (four- and three-player) the page shows the table of
// every player's figures, as the text output does, then a card per player
// (the 24 with most games, or the one --player names): a placement
// histogram, each place's share of the player's games against the even
// share 1/N, and the player's rates and average points against the whole
// set's average, each a bar with the average marked. A full bar is 50%
// for the win, deal-in, riichi and bust rates, 100% for the tsumo share,
// call rate and tenpai rate at draws, and 16,000 points for the average
// points (longer values are drawn full; the text gives the value).
package statspage

import (
	"embed"
	"fmt"
	"html/template"
	"io/fs"
	"net/http"

	"github.com/mentalmj/mentalmj/stats"
	"github.com/mentalmj/mentalmj/ui/i18n"
)

//go:embed assets
var assets embed.FS

// MaxCards is the number of players given chart cards per kind of game.
const MaxCards = 24

// pageTemplate is the page, parsed once (read-only); its "t" and "markup"
// (a message that holds markup) are bound to the page's language per
// request (Handler).
var pageTemplate = template.Must(template.New("index.html").Funcs(template.FuncMap{
	"pct": stats.FormatRate, "games": stats.Games, "num": stats.FormatNumber, "barX": func() int { return barX },
	"t": func(string, ...any) string { return "" }, "markup": func(string, ...any) template.HTML { return "" },
}).ParseFS(assets, "assets/index.html"))

// Handler returns the page of r: GET / the page, GET /assets/ its style
// sheet. Every other path is 404. The page speaks lang (--lang, package
// i18n), or when lang is "" the first language of the browser's
// Accept-Language that has a catalogue, else English.
func Handler(r stats.Report, lang string) http.Handler {
	sub, _ := fs.Sub(assets, "assets")
	mux := http.NewServeMux()
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(sub)))
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, req *http.Request) {
		code := lang
		if code == "" {
			code = i18n.FromAcceptLanguage(req.Header.Get("Accept-Language"))
		}
		l, err := i18n.Load(code)
		if err != nil {
			l = i18n.English()
		}
		tpl, err := pageTemplate.Clone()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		tpl.Funcs(template.FuncMap{
			"t": l.T,
			// markup is a message whose markup comes from the catalogue and
			// the template, never from the record.
			"markup": func(key string, args ...any) template.HTML { return template.HTML(l.T(key, args...)) },
		})
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if err := tpl.Execute(w, build(r, l)); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
		}
	})
	return mux
}

// view is what the template draws.
type view struct {
	// Lang is the page's language code.
	Lang     string
	Sections []section
}

type section struct {
	Title    string
	Table    *stats.TableReport
	Players  int
	Cards    []card
	Hidden   int // players without a card
	AllPlace []bar
}

type card struct {
	Name   string
	Sub    string
	Places []bar
	Rates  []bar
}

// PlacesH and RatesH are the heights of the card's two charts.
func (c card) PlacesH() int { return 12 + rowH*len(c.Places) }
func (c card) RatesH() int  { return 12 + rowH*len(c.Rates) }

// bar is one bar of a chart: Label, the value's text, its length and the
// average's mark in percent of the chart's width, and whether it is above
// the average.
type bar struct {
	Label, Text, AvgText string
	Len, Avg             float64
	Y                    int
	Above, Has           bool
}

// The charts' geometry, in SVG user units: labels left of barX, bars up
// to barX+barW, the value's text after.
const (
	barX = 92
	barW = 140
	rowH = 22
)

// W returns the bar's width and AvgX the x of the average's mark.
func (b bar) W() float64    { return b.Len * barW / 100 }
func (b bar) AvgX() float64 { return barX + b.Avg*barW/100 }

// TextX is the x of the value's text, TextY its baseline.
func (b bar) TextX() int { return barX + barW + 6 }
func (b bar) TextY() int { return b.Y + 12 }

// AvgY1 and AvgY2 are the ends of the average's mark, a little taller
// than the bar.
func (b bar) AvgY1() int { return b.Y - 3 }
func (b bar) AvgY2() int { return b.Y + 19 }

func build(r stats.Report, l *i18n.Lang) view {
	v := view{Lang: l.Code}
	for _, k := range []struct {
		title string
		t     *stats.TableReport
		n     int
	}{{l.T("stats.four"), r.FourPlayer, 4}, {l.T("stats.three"), r.ThreePlayer, 3}} {
		if k.t == nil {
			continue
		}
		s := section{Title: k.title, Table: k.t, Players: k.n}
		for i, f := range k.t.Players {
			if i >= MaxCards {
				s.Hidden = len(k.t.Players) - MaxCards
				break
			}
			s.Cards = append(s.Cards, newCard(f, k.t.All, k.n, l))
		}
		v.Sections = append(v.Sections, s)
	}
	return v
}

func newCard(f, all stats.Figures, n int, l *i18n.Lang) card {
	c := card{Name: f.Name, Sub: l.T("stats.card_sub", f.Games, f.Kyoku, stats.FormatNumber(f.AvgPlacement, 2))}
	even := 100 / float64(n)
	for i := range n {
		b := bar{Label: l.T(fmt.Sprintf("stats.place.%d", i+1)), Y: 8 + rowH*i, Avg: even, AvgText: fmt.Sprintf("%.0f%%", even)}
		if f.Games > 0 {
			share := 100 * float64(f.Placements[i]) / float64(f.Games)
			b.Len, b.Has, b.Above = share, true, share > even
			b.Text = fmt.Sprintf("%d (%.0f%%)", f.Placements[i], share)
		} else {
			b.Text = "-"
		}
		c.Places = append(c.Places, b)
	}
	rates := []struct {
		label  string
		v, avg *float64
		scale  float64 // the chart's full width
		points bool
	}{
		{"win", f.WinRate, all.WinRate, 0.5, false},
		{"tsumo", f.TsumoShare, all.TsumoShare, 1, false},
		{"deal-in", f.DealInRate, all.DealInRate, 0.5, false},
		{"riichi", f.RiichiRate, all.RiichiRate, 0.5, false},
		{"call", f.CallRate, all.CallRate, 1, false},
		{"tenpai@draw", f.DrawTenpaiRate, all.DrawTenpaiRate, 1, false},
		{"bust", f.BustRate, all.BustRate, 0.5, false},
		{"win pts", f.AvgWinPoints, all.AvgWinPoints, 16000, true},
		{"deal-in pts", f.AvgDealInPoints, all.AvgDealInPoints, 16000, true},
	}
	for i, r := range rates {
		b := bar{Label: l.T("stats.col." + r.label), Y: 8 + rowH*i, Text: "-"}
		fmtv := stats.FormatRate
		if r.points {
			fmtv = func(v *float64) string { return stats.FormatNumber(v, 0) }
		}
		if r.avg != nil {
			b.Avg = min(100, 100**r.avg/r.scale)
			b.AvgText = l.T("stats.set", fmtv(r.avg))
		}
		if r.v != nil {
			b.Len, b.Has = min(100, 100**r.v/r.scale), true
			b.Text = fmtv(r.v)
			b.Above = r.avg != nil && *r.v > *r.avg
		}
		c.Rates = append(c.Rates, b)
	}
	return c
}
