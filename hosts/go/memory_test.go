package qrglue_test

import (
	"strings"
	"testing"
	"time"

	"qrglue.dev/qrglue"
)

// Guest memory stays bounded over 100,000 calls on one instance: every kind
// of call (each output, payloads, SVG strings, refusals in the guest and in
// the host, the probes) frees what it allocates. The instance's memory after
// the first round of calls is its size for good.
func TestGuestMemoryBounded(t *testing.T) {
	const calls = 100_000
	g := newGenerator(t, 1)
	long := strings.Repeat("Z", 300)
	tooLong := strings.Repeat("z", 5000) // fits the length bound, not a code
	round := []func() error{
		func() error { _, err := g.PNG("https://github.com/pretzelhammer/rust-blog"); return err },
		func() error {
			_, err := g.SVG("héllo", qrglue.WithTitle("a title"), qrglue.WithClass("qr big"))
			return err
		},
		func() error { _, err := g.Matrix(long, qrglue.WithECLevel(qrglue.Quartile)); return err },
		func() error { _, err := g.Text("text", qrglue.WithStyle(qrglue.ASCII)); return err },
		func() error { _, err := g.PNGBytes([]byte{0, 1, 2, 0xff}); return err },
		func() error { _, err := g.PNG(tooLong); return ignoreQr(err) },                       // encoding refuses it
		func() error { _, err := g.PNG(tooLong + tooLong); return ignoreQr(err) },             // the host refuses it
		func() error { _, err := g.PNG("x", qrglue.WithMinSize(0)); return ignoreQr(err) },    // options
		func() error { _, err := g.PNG("x\xed\xa0\x80"); return ignoreQr(err) },               // invalid text
		func() error { _, err := g.PNG("x", qrglue.WithDark("red")); return ignoreQr(err) },   // host + probe
		func() error { _, err := g.SVG("x", qrglue.WithTitle("\x00")); return ignoreQr(err) }, // guest's SVG check
		func() error { _, err := g.Consume([]byte(long)); return err },
		func() error { _, err := g.Produce(70_000); return err },
	}
	var pages uint32
	start := time.Now()
	for i := 0; i < calls; i++ {
		if err := round[i%len(round)](); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if i == len(round)-1 {
			pages = mustPages(t, g)
		}
	}
	if after := mustPages(t, g); after != pages {
		t.Fatalf("guest memory grew from %d to %d pages over %d calls", pages, after, calls)
	}
	if g.Instances() != 1 {
		t.Fatalf("%d instances for one goroutine's calls", g.Instances())
	}
	t.Logf("%d calls in %v; guest memory %d pages (%d KiB) throughout", calls, time.Since(start).Round(time.Millisecond), pages, pages*64)
}

func mustPages(t *testing.T, g *qrglue.Generator) uint32 {
	t.Helper()
	pages, err := g.MemoryPages()
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// ignoreQr lets the contract's refusals through: the calls that make them
// are expected to.
func ignoreQr(err error) error {
	if _, ok := err.(*qrglue.QrError); ok {
		return nil
	}
	if err == nil {
		return errUnexpectedSuccess
	}
	return err
}

var errUnexpectedSuccess = &qrglue.QrError{Kind: "none", Message: "a call that must be refused succeeded"}
