// Command qrglue-conformance is the Go host's conformance runner
// (tests/conformance/README.md): it renders every case of the corpus
// ($QRGLUE_VECTORS_DIR, else tests/vectors) on each Go path and prints
// {"paths": {"go-raw": {id: outcome}}} on standard output. Exit 0 when
// every case got an outcome, whatever it was.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/internal/corpus"
)

func main() {
	cases, err := corpus.Load(corpus.Dir())
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
	g, err := qrglue.NewGenerator(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
	outcomes := make(map[string]corpus.Outcome, len(cases))
	for i := range cases {
		outcomes[cases[i].ID] = corpus.Run(g, &cases[i])
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"paths": map[string]any{"go-raw": outcomes}}); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
}
