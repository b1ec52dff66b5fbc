// Command qrglue-conformance-extism is the conformance runner of the Go
// Extism path (tests/conformance/README.md): every case of the corpus
// ($QRGLUE_VECTORS_DIR, else tests/vectors) through the Extism plug-in,
// printed as {"paths": {"go-extism": {id: outcome}}}.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"qrglue.dev/qrglue/extism"
	"qrglue.dev/qrglue/internal/corpus"
)

func main() {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-extism:", err)
		os.Exit(1)
	}
	g, err := extism.NewGenerator(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-extism:", err)
		os.Exit(1)
	}
	outcomes := make(map[string]corpus.Outcome, len(cases))
	for i := range cases {
		outcomes[cases[i].ID] = corpus.Run(g, &cases[i])
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"paths": map[string]any{"go-extism": outcomes}}); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance-extism:", err)
		os.Exit(1)
	}
}
