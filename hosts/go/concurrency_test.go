package qrglue_test

import (
	"bytes"
	"errors"
	"fmt"
	"sync"
	"testing"

	"qrglue.dev/qrglue"
)

// Goroutines x calls on one Generator and on the package functions: every
// answer right (the race detector, with -race, sees no unsafe sharing), and
// never more instances in use than goroutines.
func TestConcurrentCalls(t *testing.T) {
	want := expected(t)["ref-01"].(map[string]any)["png_sha256"]
	const goroutines, calls = 8, 40
	// A pool as large as the goroutines: no instance is ever closed for want
	// of room, so the instances made are the most ever in use at once.
	g := newGenerator(t, goroutines)
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*calls)
	for i := 0; i < goroutines; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < calls; j++ {
				var png []byte
				var err error
				if (i+j)%2 == 0 {
					png, err = g.PNG("https://github.com/pretzelhammer/rust-blog")
				} else {
					png, err = qrglue.PNG("https://github.com/pretzelhammer/rust-blog")
				}
				if err != nil || sha256Hex(png) != want {
					errs <- fmt.Errorf("goroutine %d call %d: %v", i, j, err)
				}
				// An error mid-stream leaves the instance usable.
				_, err = g.SVG("", qrglue.WithMinSize(0))
				var qrErr *qrglue.QrError
				if !errors.As(err, &qrErr) || qrErr.Kind != qrglue.EmptyText {
					errs <- fmt.Errorf("goroutine %d call %d: empty text gave %v", i, j, err)
				}
				own := []byte(fmt.Sprintf("goroutine %d call %d", i, j))
				fromBytes, err1 := g.PNGBytes(own)
				fromText, err2 := g.PNG(string(own))
				if err1 != nil || err2 != nil || !bytes.Equal(fromBytes, fromText) {
					errs <- fmt.Errorf("goroutine %d call %d: its own text's code differs: %v %v", i, j, err1, err2)
				}
			}
		}(i)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := g.Instances(); n < 1 || n > goroutines {
		t.Errorf("%d instances for %d goroutines", n, goroutines)
	}
	if g.Retired() != 0 {
		t.Errorf("%d instances retired without a trap", g.Retired())
	}
}

// A trap retires the instance it happened in: the error says so (a
// *TrapError, not a *QrError), and the next call runs on a new instance
// with the right answer; other goroutines' calls are unaffected.
func TestTrapRetiresTheInstance(t *testing.T) {
	g := newGenerator(t, 1)
	good, err := g.PNG("after")
	if err != nil {
		t.Fatal(err)
	}
	err = g.Trap()
	var trap *qrglue.TrapError
	var qrErr *qrglue.QrError
	if !errors.As(err, &trap) || errors.As(err, &qrErr) {
		t.Fatalf("Trap() = %T %v, want a *TrapError", err, err)
	}
	if g.Retired() != 1 {
		t.Fatalf("%d instances retired after a trap", g.Retired())
	}
	again, err := g.PNG("after")
	if err != nil || !bytes.Equal(again, good) || g.Instances() != 2 {
		t.Fatalf("after the trap: %v, same bytes %v, %d instances", err, bytes.Equal(again, good), g.Instances())
	}

	// Traps among concurrent calls.
	var wg sync.WaitGroup
	failures := make(chan string, 64)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 8; j++ {
				if i%4 == 0 && j%2 == 0 {
					if err := g.Trap(); !errors.As(err, new(*qrglue.TrapError)) {
						failures <- fmt.Sprintf("trap gave %v", err)
					}
					continue
				}
				if png, err := g.PNG("after"); err != nil || !bytes.Equal(png, good) {
					failures <- fmt.Sprintf("a call beside traps: %v", err)
				}
			}
		}(i)
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	if g.Retired() != 1+2*4 {
		t.Errorf("%d retired, want %d", g.Retired(), 1+2*4)
	}
}
