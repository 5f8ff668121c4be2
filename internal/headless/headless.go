// Package headless starts the headless Chromium that the browser tests
// (packages ui/web and ui/viewer) drive with chromedp: Debian's chromium, which
// .ci/run installs, or the binary $MENTALMJ_CHROMIUM names. A test on a
// machine without one is skipped, saying why.
package headless

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"testing"

	"github.com/chromedp/chromedp"
)

// Chromium returns the path of a Chromium or Chrome binary:
// $MENTALMJ_CHROMIUM, else the first of chromium, chromium-browser,
// google-chrome, headless-shell on PATH; "" if none.
func Chromium() string {
	if p := os.Getenv("MENTALMJ_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "headless-shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// New starts a headless Chromium with a 1280×720 window under ctx and
// returns its chromedp context, closed when t ends; it skips t when no
// Chromium is installed and fails it when the browser does not start.
func New(t testing.TB, ctx context.Context) context.Context {
	t.Helper()
	path := Chromium()
	if path == "" {
		t.Skip("no Chromium found (install Debian's chromium package, or set MENTALMJ_CHROMIUM): the browser test cannot run")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.WindowSize(1280, 720), chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-features", disabledFeatures))
	actx, cancel := chromedp.NewExecAllocator(ctx, opts...)
	t.Cleanup(cancel)
	bctx, cancel2 := chromedp.NewContext(actx)
	t.Cleanup(cancel2)
	if err := chromedp.Do(bctx, chromedp.EmulateViewport(1280, 720)); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return bctx
}

// disabledFeatures replaces chromedp's --disable-features list (Translate,
// BlinkGenPropertyTrees) with one that also turns off the omnibox popup's
// WebUI. Chromium 156's headless mode still builds that browser UI: a
// renderer of its own that loads chrome://omnibox-popup.top-chrome/ at
// start and redraws it on each navigation, for a window nobody sees. In
// ui/viewer's tests, which navigate often, it took more CPU than the page
// under test (docs/BENCHMARKS.md, "Headless Chromium's hidden omnibox").
// Chromium ignores names it does not know, so older versions are unharmed.
const disabledFeatures = "Translate,BlinkGenPropertyTrees,WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup"
