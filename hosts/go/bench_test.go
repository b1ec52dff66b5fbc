package qrglue_test

import (
	"testing"

	"qrglue.dev/qrglue"
)

// go test -run '^$' -bench . : the raw path's cost per call on wazero, for
// the reference URL (the golden ref-01), and the bridge's fixed costs.

const referenceURL = "https://github.com/pretzelhammer/rust-blog"

func BenchmarkPNG(b *testing.B) {
	g := newGenerator(b, 1)
	for b.Loop() {
		if _, err := g.PNG(referenceURL); err != nil {
			b.Fatal(err)
		}
	}
}

// Twenty renders inside the guest per call: the guest's own time per PNG,
// with the bridge's cost spread over twenty.
func BenchmarkPNGGuestOnly(b *testing.B) {
	g := newGenerator(b, 1)
	for b.Loop() {
		if _, err := g.PNGRepeat(referenceURL, 20); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNoop(b *testing.B) {
	g := newGenerator(b, 1)
	for b.Loop() {
		if err := g.Noop(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPNGParallel(b *testing.B) {
	g := newGenerator(b, 0)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := g.PNG(referenceURL); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// A new instance of the module compiled once per process.
func BenchmarkInstantiate(b *testing.B) {
	for b.Loop() {
		g, err := qrglue.NewGenerator(1)
		if err != nil {
			b.Fatal(err)
		}
		g.Close()
	}
}
