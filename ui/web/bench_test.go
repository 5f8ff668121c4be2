package web

import (
	"context"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// autoPlay makes the page play by itself, as playStep does, whenever a
// new decision is shown: the Go side then only waits, so the page's
// renderer is not slowed by the test's own queries.
const autoPlay = `(() => {
  let last = 0;
  setInterval(() => {
    const d = document.querySelector("#actions button, #hand button.playable");
    const seq = Number(document.body.dataset.seq);
    if (!d || seq === last) return;
    last = seq;
    ` + "(" + playStep + ")" + `;
  }, 10);
  return true;
})()`

// BenchmarkPageLatency plays one hand per iteration through the page in
// headless Chromium against three bots (four in-process nodes on a
// memnet.Network) and reports the time from the node applying an event (the
// table model's change, made on the game goroutine) to the page having
// drawn it and acknowledged it over the WebSocket — an upper bound of the
// display latency, since the acknowledgement's trip back is included —
// and the process's peak RSS (the four nodes and the UI server; Chromium
// is another process).
func BenchmarkPageLatency(b *testing.B) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bctx := newBrowser(b, ctx)
	var lat, page []time.Duration
	for b.Loop() {
		hctx, hcancel := context.WithCancel(ctx)
		bt := startTable(b, hctx, 1, time.Minute, 0)
		if err := chromedp.Do(bctx, chromedp.Navigate(bt.srv.URL())); err != nil {
			b.Fatal(err)
		}
		if _, err := chromedp.Run(bctx, chromedp.Evaluate[bool](autoPlay)); err != nil {
			b.Fatal(err)
		}
		select {
		case <-bt.done:
		case <-ctx.Done():
			b.Fatal("the hand did not end in time")
		}
		if bt.err != nil {
			b.Fatal(bt.err)
		}
		time.Sleep(100 * time.Millisecond) // the last acknowledgements
		lat = append(lat, bt.srv.Latencies()...)
		page = append(page, bt.srv.PageTimes()...)
		hcancel()
	}
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	slices.Sort(lat)
	slices.Sort(page)
	b.ReportMetric(ms(page[len(page)/2]), "ms-page-median")
	b.ReportMetric(ms(lat[len(lat)/2]), "ms-median")
	b.ReportMetric(ms(lat[len(lat)*95/100]), "ms-p95")
	b.ReportMetric(ms(lat[len(lat)-1]), "ms-max")
	b.ReportMetric(float64(len(lat))/float64(b.N), "events/hand")
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "MB-peak-RSS")
	}
}
