package wasmer_test

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
	"qrglue.dev/qrglue/internal/corpus"
	"qrglue.dev/qrglue/wasmer"
)

// Both of Wasmer's compilers run every test.
var compilers = []wasmer.Compiler{wasmer.Cranelift, wasmer.Singlepass}

func newGenerator(t testing.TB, compiler wasmer.Compiler, maxIdle int) *qrglue.Generator {
	t.Helper()
	g, err := wasmer.NewGenerator(compiler, maxIdle)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// Every case of the corpus on Wasmer, through the same glue as wazero, with
// each compiler: each output byte-identical to expected.json's digests (the
// module without SIMD makes the same bytes), or the same error.
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
	for _, compiler := range compilers {
		t.Run(compiler.String(), func(t *testing.T) {
			g := newGenerator(t, compiler, 1)
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
		})
	}
}

// The contract's errors come back as *QrError, and leave the instance in use.
func TestQrErrorKeepsTheInstance(t *testing.T) {
	for _, compiler := range compilers {
		t.Run(compiler.String(), func(t *testing.T) {
			g := newGenerator(t, compiler, 1)
			_, err := g.PNG("a", qrglue.WithMinSize(0))
			var qrErr *qrglue.QrError
			if !errors.As(err, &qrErr) || qrErr.Kind != qrglue.InvalidOptions || qrErr.Message != "min-size must be within 1..=4096, got 0" {
				t.Fatalf("min-size 0: %T %v", err, err)
			}
			if _, err := g.PNG(""); !errors.As(err, &qrErr) || qrErr.Kind != qrglue.EmptyText {
				t.Fatalf("empty text: %v", err)
			}
			if g.Instances() != 1 || g.Retired() != 0 {
				t.Fatalf("%d instances, %d retired after refusals", g.Instances(), g.Retired())
			}
		})
	}
}

// A trap in Wasmer is a *TrapError and retires the instance; goroutines
// beside it get their PNGs (run under -race).
func TestTrapsAndGoroutines(t *testing.T) {
	for _, compiler := range compilers {
		t.Run(compiler.String(), func(t *testing.T) {
			g := newGenerator(t, compiler, 2)
			good, err := g.PNG("after")
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			failures := make(chan error, 64)
			for i := 0; i < 8; i++ {
				wg.Add(1)
				go func(i int) {
					defer wg.Done()
					for j := 0; j < 8; j++ {
						if i%4 == 0 && j%2 == 0 {
							if err := g.Trap(); !errors.As(err, new(*qrglue.TrapError)) {
								failures <- err
							}
							continue
						}
						if png, err := g.PNG("after"); err != nil || !bytes.Equal(png, good) {
							failures <- errors.Join(errors.New("a call beside traps"), err)
						}
					}
				}(i)
			}
			wg.Wait()
			close(failures)
			for err := range failures {
				t.Error(err)
			}
			if g.Retired() != 2*4 {
				t.Errorf("%d retired, want %d", g.Retired(), 2*4)
			}
		})
	}
}

// Linear memory stays bounded over many calls on one instance (each call
// frees what it allocated).
func TestGuestMemoryBounded(t *testing.T) {
	for _, compiler := range compilers {
		t.Run(compiler.String(), func(t *testing.T) {
			g := newGenerator(t, compiler, 1)
			before, err := g.MemoryPages()
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 2000; i++ {
				if _, err := g.PNG("bounded", qrglue.WithScale(uint32(1+i%20))); err != nil {
					t.Fatal(err)
				}
			}
			after, err := g.MemoryPages()
			if err != nil {
				t.Fatal(err)
			}
			if after > before+16 {
				t.Errorf("memory grew from %d to %d pages over 2,000 calls", before, after)
			}
		})
	}
}

// An unknown compiler is an error, not a default.
func TestUnknownCompiler(t *testing.T) {
	if g, err := wasmer.NewGenerator(wasmer.Compiler(7), 1); err == nil || g != nil {
		t.Fatalf("compiler 7: %v, %v", g, err)
	}
}
