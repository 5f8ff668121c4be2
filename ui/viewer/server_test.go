package viewer

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// The page answers only with the URL's token and from its own origin
// (ui.Guard, as the live table); its frame endpoint takes any query.
func TestServerGuardAndFrames(t *testing.T) {
	rec, err := Load("testdata/hand.mjlog.xml")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Listen(rec, 0, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Serve(ctx)
	base, _, _ := strings.Cut(srv.URL(-1, 0), "?")
	token := strings.TrimPrefix(srv.URL(-1, 0), base+"?token=")
	get := func(path, origin string) (int, string) {
		req, _ := http.NewRequest("GET", base+path, nil)
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, _ := get("", ""); code != http.StatusForbidden {
		t.Errorf("the page without the token: %d, want 403", code)
	}
	if code, _ := get("api/record?token=0000", ""); code != http.StatusForbidden {
		t.Errorf("a wrong token: %d, want 403", code)
	}
	if code, _ := get("?token="+token, "http://evil.example"); code != http.StatusForbidden {
		t.Errorf("a foreign origin: %d, want 403", code)
	}
	if code, body := get("?token="+token, ""); code != http.StatusOK || !strings.Contains(body, "mentalmj replay") || !strings.Contains(body, "/assets/app.js") {
		t.Errorf("the page: %d %.80q", code, body)
	}
	for _, path := range []string{"assets/app.js", "assets/tiles.js", "viewer/viewer.js"} {
		if code, _ := get(path+"?token="+token, ""); code != http.StatusOK {
			t.Errorf("%s: %d", path, code)
		}
	}
	for _, q := range []string{"", "k=x&a=y&view=z", "k=-1&a=-1", "k=999999999999999999999&a=1"} {
		code, body := get("api/frame?token="+token+"&"+q, "")
		var f Frame
		if code != http.StatusOK || json.Unmarshal([]byte(body), &f) != nil || len(f.Seats) != 4 {
			t.Errorf("frame %q: %d %.80q", q, code, body)
		}
	}
}
