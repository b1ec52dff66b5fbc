package extism_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/extism"
	"qrglue.dev/qrglue/internal/corpus"
)

func newGenerator(t testing.TB, maxIdle int) *qrglue.Generator {
	t.Helper()
	g, err := extism.NewGenerator(maxIdle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// Every case of the corpus through the Extism plug-in: each output
// byte-identical to expected.json's digests, or the same error.
func TestGoldenCorpus(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	cases, err := corpus.Load(corpus.Dir())
	if err != nil || len(cases) == 0 {
		t.Fatalf("the corpus: %d cases, %v", len(cases), err)
	}
	g := newGenerator(t, 1)
	for i, c := range cases {
		encoded, err := json.Marshal(corpus.Run(g, &cases[i]))
		if err != nil {
			t.Fatal(err)
		}
		var got any
		if err := json.Unmarshal(encoded, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want[c.ID]) {
			t.Errorf("%s: got %v\nwant %v", c.ID, got, want[c.ID])
		}
	}
}

// Each contract error crosses Extism's error channel as "<kind>: <message>"
// with the kind's code, and comes back as the same *QrError as on the raw
// path; the instance stays in use.
func TestErrorsMapToKinds(t *testing.T) {
	g := newGenerator(t, 1)
	raw, err := qrglue.NewGenerator(1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = raw.Close() })
	calls := map[string]func(*qrglue.Generator) error{
		"empty":      func(g *qrglue.Generator) error { _, err := g.PNG(""); return err },
		"not utf-8":  func(g *qrglue.Generator) error { _, err := g.PNG("a\xffb"); return err },
		"too long":   func(g *qrglue.Generator) error { _, err := g.PNG(string(bytes.Repeat([]byte("é"), 2000))); return err },
		"min-size":   func(g *qrglue.Generator) error { _, err := g.PNG("a", qrglue.WithMinSize(0)); return err },
		"svg title":  func(g *qrglue.Generator) error { _, err := g.SVG("a", qrglue.WithTitle("a\x01")); return err },
		"text style": func(g *qrglue.Generator) error { _, err := g.Text("a", qrglue.WithStyle(9)); return err },
		"micro high": func(g *qrglue.Generator) error {
			_, err := g.Matrix("a", qrglue.WithMicro(true), qrglue.WithECLevel(qrglue.High))
			return err
		},
		"payload long": func(g *qrglue.Generator) error {
			_, err := g.PNGBytes(bytes.Repeat([]byte{0xff}, 3000), qrglue.WithECLevel(qrglue.High))
			return err
		},
	}
	for name, call := range calls {
		var got, want *qrglue.QrError
		if !errors.As(call(g), &got) || !errors.As(call(raw), &want) {
			t.Errorf("%s: not a *QrError on both paths", name)
			continue
		}
		if *got != *want {
			t.Errorf("%s: extism %+v, raw %+v", name, *got, *want)
		}
	}
	if g.Instances() != 1 || g.Retired() != 0 {
		t.Fatalf("%d instances, %d retired after refusals", g.Instances(), g.Retired())
	}
}

// The probes the bench drives: noop, bytes in, bytes out, guest-only PNGs.
func TestProbes(t *testing.T) {
	g := newGenerator(t, 1)
	if err := g.Noop(); err != nil {
		t.Fatal(err)
	}
	if n, err := g.Consume(make([]byte, 100_000)); err != nil || n != 100_000 {
		t.Fatalf("consume: %d, %v", n, err)
	}
	out, err := g.Produce(1000)
	if err != nil || len(out) != 1000 || out[252] != 1 || out[999] != byte(999%251) {
		t.Fatalf("produce: %d bytes, %v", len(out), err)
	}
	png, err := g.PNG("repeat")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := g.PNGRepeat("repeat", 3); err != nil || int(n) != len(png) {
		t.Fatalf("png-repeat: %d, %v (png %d bytes)", n, err, len(png))
	}
	var qrErr *qrglue.QrError
	if _, err := g.Produce(1 << 30); !errors.As(err, &qrErr) || qrErr.Kind != qrglue.InvalidOptions {
		t.Fatalf("produce 1 GiB: %v", err)
	}
	if err := g.Trap(); !errors.Is(err, qrglue.ErrNoPluginProbe) {
		t.Fatalf("trap: %v", err)
	}
}

// Instances from the pool under goroutines (run under -race): every PNG the same.
func TestGoroutines(t *testing.T) {
	g := newGenerator(t, 2)
	good, err := g.PNG("after")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	failures := make(chan error, 64)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 8; j++ {
				if png, err := g.PNG("after"); err != nil || !bytes.Equal(png, good) {
					failures <- errors.Join(errors.New("a call among goroutines"), err)
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
}
