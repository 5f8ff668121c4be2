package viewer

import (
	"os"
	"testing"
)

// FuzzRead feeds Read damaged records of every format: it must return a
// Record or an error, never panic, and every frame of a Record it returns
// must draw.
func FuzzRead(f *testing.F) {
	for _, p := range []string{"testdata/hand.mjlog.xml", "testdata/private-view.mjlog.xml"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"log":[[[0,0,0],[25000,25000,25000,25000],[12],[],[11,12,13,14,15,16,17,18,19,21,22,23,24],["c111213",21],[60,"r21","151515a15",0],[],[],[],[],[],[],[],[],[],["和了",[0,0,0,0],[0,0,0]]]],"name":["a","b","c","d"],"rule":{"disp":"般南喰赤"},"sc":[25000,0,25000,0,25000,0,25000,0]}`))
	f.Add([]byte(`{"type":"start_game","names":["a","b","c","d"]}
{"type":"start_kyoku","bakaze":"E","dora_marker":"1m","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"scores":[25000,25000,25000,25000],"tehais":[["1m","2m","3m","4m","5m","6m","7m","8m","9m","1p","2p","3p","4p"],["?","?","?","?","?","?","?","?","?","?","?","?","?"],["1s","2s","3s","4s","5s","6s","7s","8s","9s","E","S","W","N"],["P","P","P","F","F","F","C","C","C","5mr","5pr","5sr","E"]]}
{"type":"tsumo","actor":0,"pai":"E"}
{"type":"dahai","actor":0,"pai":"E","tsumogiri":true}
{"type":"pon","actor":3,"target":0,"pai":"E","consumed":["E","E"]}
{"type":"hora","actor":1,"target":0,"deltas":[0,0,0,0]}
{"type":"end_game"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Read(data, "fuzz")
		if err != nil {
			return
		}
		for k, ky := range rec.Kyoku {
			for a := range ky.Steps {
				rec.Frame(k, a, AllOpen)
				rec.Frame(k, a, 1)
			}
		}
		rec.Index()
	})
}
