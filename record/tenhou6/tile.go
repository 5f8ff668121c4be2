package tenhou6

import "github.com/mentalmj/mentalmj/wall"

// Tile codes of tenhou.net/6 JSON.
const (
	// Tsumogiri is the discard code of the tile just drawn.
	Tsumogiri = 60
	// RedMan, RedPin and RedSou are the red fives.
	RedMan, RedPin, RedSou = 51, 52, 53
)

// Code returns the tenhou.net/6 code of tile t: 11–19, 21–29, 31–39 for
// the suits, 41–47 for E S W N haku hatsu chun, and with aka the red fives
// (ids 16, 52, 88) as 51, 52, 53; without aka they are plain fives. t must
// be valid (0..135).
func Code(t wall.Tile, aka bool) int {
	if aka && t.IsRed() {
		return RedMan + int(t.Kind())/9
	}
	k := int(t.Kind())
	return 11 + 10*(k/9) + k%9
}

// codeRed is Code with the red fives those red reports (house rules: 0 to
// 4 red fives, rules.Set.Aka): each is coded as its suit's red five.
func codeRed(t wall.Tile, red func(wall.Tile) bool) int {
	if red(t) {
		return RedMan + int(t.Kind())/9
	}
	return Code(t, false)
}

// plain returns code with a red five made plain (51 → 15).
func plain(code int) int {
	if code >= RedMan && code <= RedSou {
		return 15 + 10*(code-RedMan)
	}
	return code
}

// sortKey orders codes as Tenhou sorts a haipai: by kind, a red five just
// after the plain fives of its suit.
func sortKey(code int) int {
	if code >= RedMan && code <= RedSou {
		return 10*plain(code) + 5
	}
	return 10 * code
}
