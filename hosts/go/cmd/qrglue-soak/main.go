// Command qrglue-soak is the Go host's in-process loop for `just soak`
// (tests/soak/soak.py): every in-process path (raw on wazero; native through
// cgo when built with -tags qrglue_native) in one process, round-robin over
// the ten reference texts at a fixed rate for SECONDS; each result is held
// to its golden digest first, then to the first result. The soak samples
// this process's RSS from outside. Exits 1 on a mismatch.
//
//	qrglue-soak SECONDS CALLS_PER_SECOND
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/internal/corpus"
)

var reference = regexp.MustCompile(`^ref-\d\d$`)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-soak:", err)
		os.Exit(1)
	}
}

func run() error {
	if len(os.Args) != 3 {
		return fmt.Errorf("usage: qrglue-soak SECONDS CALLS_PER_SECOND")
	}
	seconds, err1 := strconv.ParseFloat(os.Args[1], 64)
	rate, err2 := strconv.ParseFloat(os.Args[2], 64)
	if err1 != nil || err2 != nil || seconds <= 0 || rate <= 0 {
		return fmt.Errorf("SECONDS and CALLS_PER_SECOND are positive numbers")
	}
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "expected.json"))
	if err != nil {
		return err
	}
	var expected map[string]struct {
		PNG string `json:"png_sha256"`
	}
	if err := json.Unmarshal(raw, &expected); err != nil {
		return err
	}
	paths := map[string]*qrglue.Generator{}
	if paths["raw"], err = qrglue.NewGenerator(1); err != nil {
		return err
	}
	if native, err := qrglue.NewNativeGenerator(); err == nil {
		paths["native"] = native
	} else if err != qrglue.ErrNativeUnavailable {
		return err
	}
	type job struct {
		path string
		gen  *qrglue.Generator
		c    corpus.Case
	}
	var jobs []job
	golden := map[string][]byte{}
	for name, gen := range paths {
		for _, c := range cases {
			// The ten reference texts (ref-01..ref-10) at the defaults.
			if !reference.MatchString(c.ID) {
				continue
			}
			png, err := gen.PNG(c.Text, c.Options...)
			if err != nil {
				return fmt.Errorf("%s %s: %w", name, c.ID, err)
			}
			if sum := sha256.Sum256(png); hex.EncodeToString(sum[:]) != expected[c.ID].PNG {
				return fmt.Errorf("%s %s: not its golden PNG", name, c.ID)
			}
			golden[c.ID] = png
			jobs = append(jobs, job{name, gen, c})
		}
	}
	start := time.Now()
	calls := 0
	for time.Since(start).Seconds() < seconds {
		j := jobs[calls%len(jobs)]
		png, err := j.gen.PNG(j.c.Text, j.c.Options...)
		if err != nil || !bytes.Equal(png, golden[j.c.ID]) {
			return fmt.Errorf("%s %s changed after %d calls (%v)", j.path, j.c.ID, calls, err)
		}
		calls++
		// A fixed rate, not full speed: the machine is shared, and growth
		// shows per call.
		if ahead := time.Duration(float64(calls)/rate*float64(time.Second)) - time.Since(start); ahead > 0 {
			time.Sleep(ahead)
		}
	}
	names := make([]string, 0, len(paths))
	for name := range paths {
		names = append(names, name)
	}
	out, _ := json.Marshal(map[string]any{"host": "go", "paths": names, "calls": calls})
	fmt.Println(string(out))
	return nil
}
