package wasmtime_test

import (
	"testing"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/wasmtime"
)

const reference = "https://www.reddit.com/r/rustjerk/top/?t=all"

// go test -run '^$' -bench . : the same calls on Wasmtime and on wazero, for
// hosts/go/README.md's figures (not a test: no speed is asserted).
func BenchmarkEngines(b *testing.B) {
	onWasmtime, err := wasmtime.NewGenerator(1)
	if err != nil {
		b.Fatal(err)
	}
	onWazero, err := qrglue.NewGenerator(1)
	if err != nil {
		b.Fatal(err)
	}
	for _, engine := range []struct {
		name string
		g    *qrglue.Generator
	}{{"wasmtime", onWasmtime}, {"wazero", onWazero}} {
		b.Run(engine.name+"/png", func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.g.PNG(reference); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(engine.name+"/png-repeat-20", func(b *testing.B) {
			for b.Loop() {
				if _, err := engine.g.PNGRepeat(reference, 20); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(engine.name+"/noop", func(b *testing.B) {
			for b.Loop() {
				if err := engine.g.Noop(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
