// Command qrglue-engine-wasmer gives tests/bench/engines.py the engine
// table's Wasmer rows (Wasmer 2.0 through wasmer-go, on
// qrglue.raw-nosimd.wasm).
//
//   - probe -compiler cranelift|singlepass -text T: one fresh-process
//     sample, as qrglue-engine-probe: the Generator's load (compile and
//     instantiate), then the first png of T; prints {"load_ms", "first_ms",
//     "sha256"}. The parent reads the peak RSS.
//   - bench -text T -rounds N: png, guest-only (png-repeat per png) and noop
//     on both compilers and, as the yardstick, the raw path on wazero, in
//     this one process, interleaved (one sample of each per round, after a
//     warm-up call); prints a JSON list of {"engine", "op", "median_ns",
//     "p10_ns", "p90_ns", "samples", "sha256"} (the png's digest on png).
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"time"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/wasmer"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-engine-wasmer:", err)
		os.Exit(1)
	}
}

func compilerNamed(name string) (wasmer.Compiler, error) {
	for _, c := range []wasmer.Compiler{wasmer.Cranelift, wasmer.Singlepass} {
		if c.String() == name {
			return c, nil
		}
	}
	return 0, fmt.Errorf("unknown compiler %q (cranelift or singlepass)", name)
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: probe -compiler C -text T | bench -text T -rounds N")
	}
	flags := flag.NewFlagSet(args[0], flag.ContinueOnError)
	compiler := flags.String("compiler", "cranelift", "cranelift or singlepass (probe)")
	text := flags.String("text", "", "the reference text")
	rounds := flags.Int("rounds", 50, "interleaved rounds (bench)")
	if err := flags.Parse(args[1:]); err != nil {
		return err
	}
	switch args[0] {
	case "probe":
		c, err := compilerNamed(*compiler)
		if err != nil {
			return err
		}
		return probe(c, *text)
	case "bench":
		return bench(*text, *rounds)
	}
	return fmt.Errorf("unknown mode %q (probe or bench)", args[0])
}

func digest(png []byte) string {
	sum := sha256.Sum256(png)
	return hex.EncodeToString(sum[:])
}

func probe(compiler wasmer.Compiler, text string) error {
	start := time.Now()
	g, err := wasmer.NewGenerator(compiler, 1)
	if err != nil {
		return err
	}
	// The pool instantiates on the first call: make the instance here, as
	// part of the load, with a call that renders nothing.
	if err := g.Noop(); err != nil {
		return err
	}
	loaded := time.Now()
	png, err := g.PNG(text)
	if err != nil {
		return err
	}
	first := time.Now()
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"load_ms": float64(loaded.Sub(start).Microseconds()) / 1e3, "first_ms": float64(first.Sub(loaded).Microseconds()) / 1e3,
		"sha256": digest(png)})
}

type call struct {
	engine, op string
	per        int
	run        func() error
}

func bench(text string, rounds int) error {
	generators := []struct {
		name string
		make func() (*qrglue.Generator, error)
	}{
		{"wasmer-cranelift", func() (*qrglue.Generator, error) { return wasmer.NewGenerator(wasmer.Cranelift, 1) }},
		{"wasmer-singlepass", func() (*qrglue.Generator, error) { return wasmer.NewGenerator(wasmer.Singlepass, 1) }},
		{"wazero (yardstick)", func() (*qrglue.Generator, error) { return qrglue.NewGenerator(1) }},
	}
	var calls []call
	digests := map[string]string{}
	for _, gen := range generators {
		g, err := gen.make()
		if err != nil {
			return err
		}
		name := gen.name
		calls = append(calls,
			call{name, "png", 1, func() error {
				png, err := g.PNG(text)
				digests[name] = digest(png)
				return err
			}},
			call{name, "png-repeat", 5, func() error { _, err := g.PNGRepeat(text, 5); return err }},
			call{name, "noop", 20, func() error {
				for i := 0; i < 20; i++ {
					if err := g.Noop(); err != nil {
						return err
					}
				}
				return nil
			}},
		)
	}
	samples := make([][]float64, len(calls))
	for round := -1; round < rounds; round++ {
		for i, c := range calls {
			start := time.Now()
			if err := c.run(); err != nil {
				return fmt.Errorf("%s %s: %w", c.engine, c.op, err)
			}
			if round >= 0 { // round -1 warms every call up
				samples[i] = append(samples[i], float64(time.Since(start).Nanoseconds())/float64(c.per))
			}
		}
	}
	rows := make([]map[string]any, 0, len(calls))
	for i, c := range calls {
		s := samples[i]
		sort.Float64s(s)
		row := map[string]any{"engine": c.engine, "op": c.op, "median_ns": s[len(s)/2], "p10_ns": s[len(s)/10],
			"p90_ns": s[len(s)*9/10], "samples": len(s)}
		if c.op == "png" {
			row["sha256"] = digests[c.engine]
		}
		rows = append(rows, row)
	}
	return json.NewEncoder(os.Stdout).Encode(rows)
}
