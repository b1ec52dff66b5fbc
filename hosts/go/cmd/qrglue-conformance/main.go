// Command qrglue-conformance is the Go host's conformance runner
// (tests/conformance/README.md): it renders every case of the corpus
// ($QRGLUE_VECTORS_DIR, else tests/vectors) on each Go path and prints
// {"paths": {"go-raw": {id: outcome}, "go-native": {...}}} on standard
// output. Exit 0 when every case got an outcome, whatever it was; 1 when a
// path could not run (a build without the native path: `just build-go`
// builds it with -tags qrglue_native).
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
	raw, err := qrglue.NewGenerator(1)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
	native, err := qrglue.NewNativeGenerator()
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
	results := map[string]any{}
	for name, g := range map[string]*qrglue.Generator{"go-raw": raw, "go-native": native} {
		outcomes := make(map[string]corpus.Outcome, len(cases))
		for i := range cases {
			outcomes[cases[i].ID] = corpus.Run(g, &cases[i])
		}
		results[name] = outcomes
	}
	if err := json.NewEncoder(os.Stdout).Encode(map[string]any{"paths": results}); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-conformance:", err)
		os.Exit(1)
	}
}
