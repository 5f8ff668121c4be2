package transcript

import "testing"

func ctx() Context {
	return Context{Version: "v", GameID: []byte("game"), Hand: 1, Pass: 2, Prover: []byte("peer")}
}

func TestChallengeDependsOnEveryField(t *testing.T) {
	base := New("d", ctx()).Challenge("c")
	variants := map[string]Context{}
	c := ctx()
	c.Version = "w"
	variants["version"] = c
	c = ctx()
	c.GameID = []byte("gamf")
	variants["game"] = c
	c = ctx()
	c.Hand = 2
	variants["hand"] = c
	c = ctx()
	c.Pass = 3
	variants["pass"] = c
	c = ctx()
	c.Prover = []byte("peeR")
	variants["prover"] = c
	for name, v := range variants {
		if New("d", v).Challenge("c").IsEqual(base) {
			t.Errorf("changing %s does not change the challenge", name)
		}
	}
	if New("e", ctx()).Challenge("c").IsEqual(base) {
		t.Error("domain not bound")
	}
	if New("d", ctx()).Challenge("x").IsEqual(base) {
		t.Error("label not bound")
	}
}

func TestAppendIsUnambiguous(t *testing.T) {
	a := New("d", ctx())
	a.Append("ab", []byte("c"))
	b := New("d", ctx())
	b.Append("a", []byte("bc"))
	if a.Challenge("c").IsEqual(b.Challenge("c")) {
		t.Error("label/data boundary not bound")
	}
}

func TestChallengesChain(t *testing.T) {
	a := New("d", ctx())
	x := a.Challenges("u", 3)
	if x[0].IsEqual(x[1]) || x[1].IsEqual(x[2]) {
		t.Error("challenges repeat")
	}
	y := a.Challenge("u")
	if y.IsEqual(x[0]) {
		t.Error("a second challenge under the same label repeats the first")
	}
}
