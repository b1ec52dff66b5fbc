// Command qrglue-bench-extism measures the Extism path against the raw path
// on the Go host, interleaved in one process (tests/bench/README.md's
// method: every round runs every series once; a sample is the mean of a
// batch sized in the warm-up to last settings.json's batch_ms; each row is
// the median with p10 and p90 of the samples). Both paths run on wazero:
// the raw glue of qrglue.NewGenerator, and guest/extism through Extism's Go
// SDK. Writes target/bench/extism-go.json (tests/bench/report.py's Extism
// section); QRGLUE_BENCH_QUICK=1 uses the quick settings.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/extism"
	"qrglue.dev/qrglue/internal/corpus"
)

type settings struct {
	Rounds         int     `json:"rounds"`
	WarmupRounds   int     `json:"warmup_rounds"`
	BatchMS        float64 `json:"batch_ms"`
	PNGRepeatTimes int     `json:"png_repeat_times"`
	PayloadSizes   []int   `json:"payload_sizes"`
}

type series struct {
	path, op string
	textID   *string
	bytes    *int
	per      float64 // calls per call (png-repeat: the renders in one call)
	call     func() ([]byte, error)
	batch    int
	samples  []float64
	out      []byte
}

func (s *series) run(record bool) {
	start := time.Now()
	for i := 0; i < s.batch; i++ {
		out, err := s.call()
		if err != nil {
			panic(fmt.Sprintf("%s %s: %v", s.path, s.op, err))
		}
		s.out = out
	}
	if record {
		s.samples = append(s.samples, float64(time.Since(start).Nanoseconds())/float64(s.batch)/s.per)
	}
}

// size makes the batch last about batchMS (at least one call).
func (s *series) size(batchMS float64) {
	s.batch = 1
	start := time.Now()
	if _, err := s.call(); err != nil {
		panic(fmt.Sprintf("%s %s: %v", s.path, s.op, err))
	}
	one := float64(time.Since(start).Nanoseconds())
	if n := int(batchMS * 1e6 / max(one, 1)); n > 1 {
		s.batch = n
	}
}

func quantile(sorted []float64, q float64) float64 {
	return sorted[int(q*float64(len(sorted)-1)+0.5)]
}

func main() {
	out := flag.String("out", filepath.Join(corpus.Dir(), "..", "..", "target", "bench", "extism-go.json"), "where to write the rows")
	flag.Parse()
	quick := os.Getenv("QRGLUE_BENCH_QUICK") == "1"
	var all map[string]json.RawMessage
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "..", "bench", "settings.json"))
	if err == nil {
		err = json.Unmarshal(raw, &all)
	}
	var s settings
	mode := map[bool]string{false: "full", true: "quick"}[quick]
	if err == nil {
		err = json.Unmarshal(all[mode], &s)
	}
	var reference string
	if err == nil {
		var id string
		_ = json.Unmarshal(all["reference_text_id"], &id)
		var cases []corpus.Case
		cases, err = corpus.Load(corpus.Dir())
		for _, c := range cases {
			if c.ID == id {
				reference = c.Text
			}
		}
	}
	if err != nil || reference == "" {
		fmt.Fprintln(os.Stderr, "qrglue-bench-extism: settings or corpus:", err)
		os.Exit(1)
	}
	rawGen, err := qrglue.NewGenerator(1)
	if err != nil {
		panic(err)
	}
	extGen, err := extism.NewGenerator(1)
	if err != nil {
		panic(err)
	}
	ref := "ref-02"
	var list []*series
	for _, p := range []struct {
		name string
		g    *qrglue.Generator
	}{{"raw", rawGen}, {"extism", extGen}} {
		g := p.g
		list = append(list,
			&series{path: p.name, op: "png", textID: &ref, per: 1, call: func() ([]byte, error) { return g.PNG(reference) }},
			&series{path: p.name, op: "png-repeat", textID: &ref, per: float64(s.PNGRepeatTimes), call: func() ([]byte, error) {
				_, err := g.PNGRepeat(reference, uint32(s.PNGRepeatTimes))
				return nil, err
			}},
			&series{path: p.name, op: "noop", per: 1, call: func() ([]byte, error) { return nil, g.Noop() }})
		for _, n := range s.PayloadSizes {
			n := n
			payload := make([]byte, n)
			list = append(list,
				&series{path: p.name, op: "consume", bytes: &n, per: 1, call: func() ([]byte, error) { _, err := g.Consume(payload); return nil, err }},
				&series{path: p.name, op: "produce", bytes: &n, per: 1, call: func() ([]byte, error) { return g.Produce(uint32(n)) }})
		}
	}
	for _, x := range list {
		x.size(s.BatchMS)
	}
	for w := 0; w < s.WarmupRounds; w++ {
		for _, x := range list {
			x.run(false)
		}
	}
	for r := 0; r < s.Rounds; r++ {
		for _, x := range list {
			x.run(true)
		}
	}
	rows := []map[string]any{}
	for _, x := range list {
		sort.Float64s(x.samples)
		row := map[string]any{"path": x.path, "op": x.op, "text_id": x.textID, "bytes": x.bytes,
			"median_ns": quantile(x.samples, 0.5), "p10_ns": quantile(x.samples, 0.1), "p90_ns": quantile(x.samples, 0.9),
			"samples": len(x.samples), "output_bytes": nil, "sha256": nil}
		if x.op == "png" {
			digest := sha256.Sum256(x.out)
			row["output_bytes"], row["sha256"] = len(x.out), hex.EncodeToString(digest[:])
		}
		rows = append(rows, row)
		fmt.Printf("%-7s %-11s %8v %10.2f us  p10 %9.2f  p90 %9.2f\n", x.path, x.op, deref(x.bytes), quantile(x.samples, 0.5)/1e3,
			quantile(x.samples, 0.1)/1e3, quantile(x.samples, 0.9)/1e3)
	}
	report := map[string]any{"host": "go", "quick": quick, "engines": "raw: wazero v1.12.0; extism: go-sdk v1.7.1 on wazero v1.12.0",
		"machine":      fmt.Sprintf("%s/%s, %d CPUs, %s", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version()),
		"measurements": rows}
	encoded, _ := json.MarshalIndent(report, "", " ")
	if err := os.MkdirAll(filepath.Dir(*out), 0o755); err == nil {
		err = os.WriteFile(*out, append(encoded, '\n'), 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-bench-extism:", err)
		os.Exit(1)
	}
}

func deref(n *int) any {
	if n == nil {
		return "-"
	}
	return *n
}
