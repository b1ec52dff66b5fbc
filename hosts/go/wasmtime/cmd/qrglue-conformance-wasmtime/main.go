// Command qrglue-conformance-wasmtime is the conformance runner of the Go
// raw path on Wasmtime (tests/conformance/README.md): every case of the
// corpus ($QRGLUE_VECTORS_DIR, else tests/vectors) through the same glue as
// go-raw, printed as {"paths": {"go-wasmtime": {id: outcome}}}.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"qrglue.dev/qrglue/internal/corpus"
	"qrglue.dev/qrglue/wasmtime"
)

func main() {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-wasmtime:", err)
		os.Exit(1)
	}
	g, err := wasmtime.NewGenerator(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-wasmtime:", err)
		os.Exit(1)
	}
	outcomes := make(map[string]corpus.Outcome, len(cases))
	for i := range cases {
		outcomes[cases[i].ID] = corpus.Run(g, &cases[i])
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"paths": map[string]any{"go-wasmtime": outcomes}}); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-wasmtime:", err)
		os.Exit(1)
	}
}
