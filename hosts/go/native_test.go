//go:build cgo && qrglue_native

package qrglue_test

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"qrglue.dev/qrglue"
)

// In a build with the native path, every test run on every path runs on it
// too (the golden corpus, the errors and their order, payloads, the SVG
// options, data URLs and the matrix).
func init() {
	paths = append(paths, path{"native", func(t testing.TB) *qrglue.Generator {
		g, err := qrglue.NewNativeGenerator()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = g.Close() })
		return g
	}})
}

// A Rust panic inside the library is an error for that call, never a crash:
// the process and the next call carry on.
func TestNativePanicNeverCrossesIntoGo(t *testing.T) {
	g, err := qrglue.NewNativeGenerator()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		err := qrglue.NativePanicProbe()
		var qrErr *qrglue.QrError
		if !errors.Is(err, qrglue.ErrNativePanic) || errors.As(err, &qrErr) ||
			!strings.Contains(err.Error(), "qrglue_panic_probe: a deliberate panic") {
			t.Fatalf("the panic probe gave %v", err)
		}
		png, err := g.PNG("after a panic")
		raw, _ := qrglue.PNG("after a panic")
		if err != nil || !bytes.Equal(png, raw) {
			t.Fatalf("the call after a panic: %v", err)
		}
	}
}

// The native path and the raw one give the same bytes and the same errors
// for the same calls, beyond the corpus: colours, symbol and SVG options.
func TestNativeAgreesWithRaw(t *testing.T) {
	native, err := qrglue.NewNativeGenerator()
	if err != nil {
		t.Fatal(err)
	}
	raw := newGenerator(t, 1)
	for i := 0; i < 300; i++ {
		text := strings.Repeat(fmt.Sprintf("%d-é-%x ", i, i*7919), 1+i%40)
		opts := []qrglue.Option{qrglue.WithECLevel(qrglue.ECLevel(i % 5)), qrglue.WithScale(uint32(i % 23)),
			qrglue.WithDark([]string{"#000", "#0b3d91", "#fff", "bad"}[i%4]), qrglue.WithMask(uint32(i % 9))}
		if i%7 == 0 {
			opts = append(opts, qrglue.WithMicro(true))
		}
		svgOpts := []qrglue.SVGOption{qrglue.WithTitle(text[:i%9]), qrglue.WithClass([]string{"a b", "", "x"}[i%3])}
		for _, o := range opts {
			svgOpts = append(svgOpts, o)
		}
		a, errA := native.PNG(text, opts...)
		b, errB := raw.PNG(text, opts...)
		c, errC := native.SVG(text, svgOpts...)
		d, errD := raw.SVG(text, svgOpts...)
		if !bytes.Equal(a, b) || fmt.Sprint(errA) != fmt.Sprint(errB) || c != d || fmt.Sprint(errC) != fmt.Sprint(errD) {
			t.Fatalf("case %d: native and raw differ: %v / %v; %v / %v", i, errA, errB, errC, errD)
		}
	}
}

// Goroutines call the library at once (it keeps no state); the guest's
// probes have no meaning on this path.
func TestNativeConcurrencyAndProbes(t *testing.T) {
	g, err := qrglue.NewNativeGenerator()
	if err != nil {
		t.Fatal(err)
	}
	want := expected(t)["ref-01"].(map[string]any)["png_sha256"]
	var wg sync.WaitGroup
	failures := make(chan error, 8*50)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				png, err := g.PNG("https://github.com/pretzelhammer/rust-blog")
				if err != nil || sha256Hex(png) != want {
					failures <- fmt.Errorf("call %d: %v", j, err)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	if err := g.Trap(); !errors.Is(err, qrglue.ErrNoGuest) {
		t.Errorf("Trap on native: %v", err)
	}
	if _, err := g.PNGRepeat("x", 1); !errors.Is(err, qrglue.ErrNoGuest) {
		t.Errorf("PNGRepeat on native: %v", err)
	}
	g.Close()
	if _, err := g.PNG("x"); !errors.Is(err, qrglue.ErrClosed) {
		t.Errorf("PNG after Close: %v", err)
	}
}
