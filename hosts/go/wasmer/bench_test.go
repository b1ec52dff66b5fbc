package wasmer_test

import (
	"testing"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/wasmer"
)

const reference = "https://www.reddit.com/r/rustjerk/top/?t=all"

// go test -run '^$' -bench . : the same calls on Wasmer's two compilers and
// on wazero, for docs/go.md's figures (not a test: no speed is asserted).
func BenchmarkEngines(b *testing.B) {
	engines := []struct {
		name string
		g    *qrglue.Generator
	}{}
	for _, compiler := range compilers {
		g, err := wasmer.NewGenerator(compiler, 1)
		if err != nil {
			b.Fatal(err)
		}
		engines = append(engines, struct {
			name string
			g    *qrglue.Generator
		}{"wasmer-" + compiler.String(), g})
	}
	onWazero, err := qrglue.NewGenerator(1)
	if err != nil {
		b.Fatal(err)
	}
	engines = append(engines, struct {
		name string
		g    *qrglue.Generator
	}{"wazero", onWazero})
	for _, engine := range engines {
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
