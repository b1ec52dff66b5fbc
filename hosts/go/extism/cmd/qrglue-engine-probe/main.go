// Command qrglue-engine-probe is one sample of tests/bench/engines.py's
// engine table, in a fresh process: it makes a Generator on one engine
// (-engine wazero: the raw glue on wazero, compiling qrglue.raw.wasm;
// -engine extism: guest/extism through Extism's Go SDK, on wazero), timing
// that load, then the first png of -text, and prints
// {"load_ms", "first_ms", "sha256"}. The parent reads the peak RSS.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/extism"
)

func main() {
	engine := flag.String("engine", "wazero", "wazero or extism")
	text := flag.String("text", "", "the text of the first png")
	flag.Parse()
	start := time.Now()
	var g *qrglue.Generator
	var err error
	switch *engine {
	case "wazero":
		g, err = qrglue.NewGenerator(1)
	case "extism":
		g, err = extism.NewGenerator(1)
	default:
		err = fmt.Errorf("unknown engine %q", *engine)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-engine-probe:", err)
		os.Exit(1)
	}
	loaded := time.Now()
	png, err := g.PNG(*text)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-engine-probe:", err)
		os.Exit(1)
	}
	first := time.Now()
	digest := sha256.Sum256(png)
	_ = json.NewEncoder(os.Stdout).Encode(map[string]any{
		"load_ms": float64(loaded.Sub(start).Microseconds()) / 1e3, "first_ms": float64(first.Sub(loaded).Microseconds()) / 1e3,
		"sha256": hex.EncodeToString(digest[:])})
}
