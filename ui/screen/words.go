package screen

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/mentalmj/mentalmj/riichi"
	"github.com/mentalmj/mentalmj/riichi/game"
	"github.com/mentalmj/mentalmj/ui/i18n"
	"github.com/mentalmj/mentalmj/wall"
)

// HonourNames are the honour tiles as a player reads them, by kind from
// 1z (27) to 7z (33): the winds and the dragons. A player never reads
// "3z": the table says West.
var HonourNames = [7]string{"East", "South", "West", "North", "White", "Green", "Red"}

// TileWord names tile t as the table shows it to a player: a numbered
// tile as "5m" (a red five of the table's rules reds as "0m"), an honour
// by its name (HonourNames), "?" for a hidden or invalid tile.
func TileWord(t wall.Tile, reds wall.Reds) string {
	if !t.Valid() {
		return "?"
	}
	return KindWord(t.Kind(), reds.Has(t))
}

// KindWord names a tile kind as TileWord does (red: a red five).
func KindWord(k wall.Kind, red bool) string {
	if k >= 27 && k < 34 {
		return HonourNames[k-27]
	}
	if red {
		return "0" + string(k.Suit())
	}
	return k.String()
}

// HandWords names tiles as a meld or hand reads: numbered tiles grouped
// as riichi.FormatHandReds writes them ("055p"), honours by name
// ("West West West"), the honours after.
func HandWords(ts []wall.Tile, reds wall.Reds) string {
	var nums []wall.Tile
	var words []string
	for _, t := range ts {
		if t.Valid() && t.Kind() >= 27 {
			words = append(words, TileWord(t, reds))
		} else {
			nums = append(nums, t)
		}
	}
	if len(nums) > 0 {
		words = append([]string{riichi.FormatHandReds(nums, reds)}, words...)
	}
	return strings.Join(words, " ")
}

var honourCode = regexp.MustCompile(`[1-7]z`)

// Words rewrites a text in the engine's tile notation (game.Action.Format,
// "pon 1z (1z1z)") so that honours read by name ("pon East (East East)");
// numbered tiles stay as they are.
func Words(s string) string {
	s = honourCode.ReplaceAllStringFunc(s, func(c string) string { return " " + HonourNames[c[0]-'1'] + " " })
	s = strings.Join(strings.Fields(s), " ")
	return strings.NewReplacer("( ", "(", " )", ")").Replace(s)
}

// TileMsg names tile t as TileWord does, as a message: an honour by the
// catalogue's tile.Nz (East, 東), a numbered tile as is.
func TileMsg(t wall.Tile, reds wall.Reds) any {
	if t.Valid() && t.Kind() >= 27 && t.Kind() < 34 {
		return i18n.M("tile." + t.Kind().String())
	}
	return TileWord(t, reds)
}

// ActionMsg is Words(a.Format(reds)) as a message: a discard ("discard
// 5p", "打5p"), a riichi discard and a pass in the view's language; any
// other action in the engine's words.
func ActionMsg(a game.Action, reds wall.Reds) i18n.Msg {
	switch {
	case a.Type == game.Discard && a.Riichi:
		return i18n.M("action.riichi", TileMsg(a.Tile, reds))
	case a.Type == game.Discard:
		return i18n.M("action.discard", TileMsg(a.Tile, reds))
	case a.Type == game.Pass:
		return i18n.M("action.pass")
	}
	return i18n.M("action.other", Words(a.Format(reds)))
}

// RoundMsg is a round as game.RoundName names it ("East 1") as a message
// (key round: "East 1", "東1局"); any other name as is.
func RoundMsg(name string) any {
	w, num, ok := strings.Cut(name, " ")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || !slices.Contains(WindNames[:], w) {
		return name
	}
	return i18n.M("round", i18n.M("wind."+w), n)
}
