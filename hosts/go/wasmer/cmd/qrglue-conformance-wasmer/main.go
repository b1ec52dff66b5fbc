// Command qrglue-conformance-wasmer is the conformance runner of the Go raw
// path on Wasmer (tests/conformance/README.md): every case of the corpus
// ($QRGLUE_VECTORS_DIR, else tests/vectors) through the same glue as
// go-raw, on qrglue.raw-nosimd.wasm with each of Wasmer's compilers,
// printed as {"paths": {"go-wasmer-cranelift": {id: outcome}, "go-wasmer-singlepass": ...}}.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"qrglue.dev/qrglue/internal/corpus"
	"qrglue.dev/qrglue/wasmer"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-wasmer:", err)
		os.Exit(1)
	}
}

func run() error {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		return err
	}
	paths := map[string]any{}
	for _, compiler := range []wasmer.Compiler{wasmer.Cranelift, wasmer.Singlepass} {
		g, err := wasmer.NewGenerator(compiler, 1)
		if err != nil {
			return err
		}
		outcomes := make(map[string]corpus.Outcome, len(cases))
		for i := range cases {
			outcomes[cases[i].ID] = corpus.Run(g, &cases[i])
		}
		paths["go-wasmer-"+compiler.String()] = outcomes
		if err := g.Close(); err != nil {
			return err
		}
	}
	return json.NewEncoder(os.Stdout).Encode(map[string]any{"paths": paths})
}
