package tenhou6

// Log is one game in tenhou.net/6 JSON. Its fields marshal in Tenhou's key
// order (see the package documentation for each).
type Log struct {
	Ver        float64      `json:"ver"`
	Ref        string       `json:"ref"`
	Log        []Kyoku      `json:"log"`
	Connection []Connection `json:"connection,omitempty"`
	RatingC    string       `json:"ratingc"`
	Rule       Rule         `json:"rule"`
	Lobby      int          `json:"lobby"`
	Dan        []string     `json:"dan"`
	Rate       []float64    `json:"rate"`
	Sx         []string     `json:"sx"`
	Sc         []float64    `json:"sc"`
	Name       []string     `json:"name"`
}

// Kyoku is one element of Log.Log: a 17-element JSON array of numbers,
// strings and arrays in Tenhou's layout (package documentation).
type Kyoku []any

// Rule is Log.Rule: the rule text shown by the viewer and the red-five
// switches (1 on, 0 off).
type Rule struct {
	Disp  string `json:"disp"`
	Aka53 int    `json:"aka53"`
	Aka52 int    `json:"aka52"`
	Aka51 int    `json:"aka51"`
	// House is a Mental Mahjong record's house rules that disp and the
	// aka counts cannot say (rules.RecordAttr: the switches that differ
	// from the tenhou preset, ";"-separated); empty, and not written, for
	// Tenhou's rules.
	House string `json:"mentalmj_rules,omitempty"`
}

// Connection is one disconnection (What 0) or reconnection (What 1) of
// seat Who in kyoku index Log (-1 before the first) after Step draws,
// discards and calls of that kyoku.
type Connection struct {
	What int `json:"what"`
	Log  int `json:"log"`
	Who  int `json:"who"`
	Step int `json:"step"`
}
