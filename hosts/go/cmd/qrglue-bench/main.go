// Command qrglue-bench is the Go host's part of `just bench`
// (tests/bench/README.md): every series of its paths (raw on wazero; native
// through cgo when built with -tags qrglue_native, as `just bench-go` does)
// and of Go's own QR encoders (peers.go) in interleaved rounds in one process, with tests/bench/settings.json's
// rounds and batch time, then the cold starts in fresh processes; it writes
// target/bench/go.json in tests/bench/schema.json's shape.
//
//	go run ./cmd/qrglue-bench [-out FILE]     (QRGLUE_BENCH_QUICK=1: settings.json's quick values)
package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/internal/corpus"
)

// settings are settings.json's values for this run: full or quick, with
// the host "go" overrides if any.
type settings struct {
	Rounds           int     `json:"rounds"`
	WarmupRounds     int     `json:"warmup_rounds"`
	BatchMS          float64 `json:"batch_ms"`
	ColdStartSamples int     `json:"cold_start_samples"`
	PNGRepeatTimes   uint32  `json:"png_repeat_times"`
	PayloadSizes     []int   `json:"payload_sizes"`
}

func loadSettings(quick bool) (settings, string, error) {
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "..", "bench", "settings.json"))
	if err != nil {
		return settings{}, "", err
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(raw, &file); err != nil {
		return settings{}, "", err
	}
	mode := "full"
	if quick {
		mode = "quick"
	}
	var s settings
	if err := json.Unmarshal(file[mode], &s); err != nil {
		return s, "", err
	}
	var hosts map[string]map[string]json.RawMessage
	if err := json.Unmarshal(file["hosts"], &hosts); err == nil {
		if override, ok := hosts["go"][mode]; ok {
			if err := json.Unmarshal(override, &s); err != nil {
				return s, "", err
			}
		}
	}
	var reference string
	err = json.Unmarshal(file["reference_text_id"], &reference)
	return s, reference, err
}

// series is one (op, text or size) measured on the path: samples are the
// mean time of a batch of calls (sized in the warm-up to last batch_ms),
// divided by per (png-repeat's renders per call).
type series struct {
	path    string
	op      string
	textID  *string
	bytes   *int
	per     float64
	call    func() (any, error)
	batch   int
	samples []float64
	output  any
}

func (s *series) run(record bool, batchNS float64) error {
	start := time.Now()
	var out any
	for i := 0; i < s.batch; i++ {
		var err error
		if out, err = s.call(); err != nil {
			return fmt.Errorf("%s: %w", s.op, err)
		}
	}
	elapsed := float64(time.Since(start).Nanoseconds())
	if record {
		s.samples = append(s.samples, elapsed/float64(s.batch)/s.per)
	} else {
		s.batch = max(1, min(100_000, int(batchNS*float64(s.batch)/max(1, elapsed)+0.5)))
	}
	s.output = out
	return nil
}

// result is the series' row: median and p10/p90 of its samples (the
// inclusive quantiles Python's statistics.quantiles computes), the last
// output's size and digest in expected.json's form.
func (s *series) result() map[string]any {
	xs := slices.Clone(s.samples)
	slices.Sort(xs)
	row := map[string]any{"path": s.path, "op": s.op, "text_id": s.textID, "bytes": s.bytes,
		"median_ns": quantile(xs, 0.5), "p10_ns": quantile(xs, 0.1), "p90_ns": quantile(xs, 0.9),
		"samples": len(xs), "output_bytes": nil, "sha256": nil}
	digest := func(b []byte) string { sum := sha256.Sum256(b); return hex.EncodeToString(sum[:]) }
	switch out := s.output.(type) {
	case []byte:
		row["output_bytes"] = len(out)
		if s.op == "png" {
			row["sha256"] = digest(out)
		}
	case string:
		row["output_bytes"] = len(out)
		switch {
		case s.op == "text":
			row["sha256"] = digest([]byte(out))
		case s.op == "data-url" && strings.HasPrefix(out, "data:image/png;base64,"):
			if png, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(out, "data:image/png;base64,")); err == nil {
				row["sha256"] = digest(png)
			}
		}
	case *qrglue.Matrix:
		data := append(binary.LittleEndian.AppendUint32(nil, uint32(out.Width)), out.Modules...)
		row["output_bytes"], row["sha256"] = len(data), digest(data)
	}
	return row
}

func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 1 {
		return sorted[0]
	}
	position := q * float64(len(sorted)-1)
	low := int(position)
	if low+1 >= len(sorted) {
		return sorted[low]
	}
	return sorted[low] + (position-float64(low))*(sorted[low+1]-sorted[low])
}

// outputSeries are the calls every path makes: png on ref-01..ref-10, then
// svg, text, matrix and the data URL on the reference text.
func outputSeries(path string, g *qrglue.Generator, cases map[string]string, reference string) []*series {
	var all []*series
	text := func(id string) *string { return &id }
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("ref-%02d", i)
		t := cases[id]
		all = append(all, &series{path: path, op: "png", textID: text(id), call: func() (any, error) { return g.PNG(t) }})
	}
	ref := cases[reference]
	return append(all,
		&series{path: path, op: "svg", textID: text(reference), call: func() (any, error) { return g.SVG(ref) }},
		&series{path: path, op: "text", textID: text(reference), call: func() (any, error) { return g.Text(ref) }},
		&series{path: path, op: "matrix", textID: text(reference), call: func() (any, error) { return g.Matrix(ref) }},
		&series{path: path, op: "data-url", textID: text(reference), call: func() (any, error) { return g.PNGDataURL(ref) }})
}

func buildSeries(g, native *qrglue.Generator, cases map[string]string, reference string, s settings) []*series {
	all := outputSeries("raw", g, cases, reference)
	if native != nil {
		all = append(all, outputSeries("native", native, cases, reference)...)
	}
	all = append(all, peerSeries(cases, reference)...)
	text := func(id string) *string { return &id }
	ref := cases[reference]
	all = append(all,
		&series{path: "raw", op: "png-repeat", textID: text(reference), per: float64(s.PNGRepeatTimes),
			call: func() (any, error) { return g.PNGRepeat(ref, s.PNGRepeatTimes) }},
		&series{path: "raw", op: "noop", call: func() (any, error) { return nil, g.Noop() }},
	)
	for _, size := range s.PayloadSizes {
		payload := make([]byte, size)
		for i := range payload {
			payload[i] = byte(i % 251)
		}
		n := size
		all = append(all,
			&series{path: "raw", op: "consume", bytes: &n, call: func() (any, error) { return g.Consume(payload) }},
			&series{path: "raw", op: "produce", bytes: &n, call: func() (any, error) { return g.Produce(uint32(n)) }})
	}
	for _, one := range all {
		if one.per == 0 {
			one.per = 1
		}
		one.batch = 1
	}
	return all
}

// coldStart times, in fresh processes of this program, main's start to the
// first PNG's bytes (the runtime's compile, or its load from a warm on-disk
// cache, and the instantiation included), interleaved with and without the cache.
func coldStart(samples int, text string, native bool) ([]map[string]any, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cache, err := os.MkdirTemp("", "qrglue-go-bench-cache-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cache)
	child := func(path, cacheDir string) (float64, error) {
		cmd := exec.Command(self, "-cold-start", text, "-path", path)
		cmd.Env = append(os.Environ(), "QRGLUE_WAZERO_CACHE_DIR="+cacheDir)
		out, err := cmd.Output()
		if err != nil {
			return 0, fmt.Errorf("cold start: %w", err)
		}
		return strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
	}
	if _, err := child("raw", cache); err != nil { // fills the cache
		return nil, err
	}
	// (path, op, cache dir): the raw path without and with the compiled-code
	// cache; the native one has nothing to compile.
	variants := [][3]string{{"raw", "cold-start", ""}, {"raw", "cold-start-cached", cache}}
	if native {
		variants = append(variants, [3]string{"native", "cold-start", ""})
	}
	times := make([][]float64, len(variants))
	for i := 0; i < samples; i++ {
		for v, variant := range variants {
			ns, err := child(variant[0], variant[2])
			if err != nil {
				return nil, err
			}
			times[v] = append(times[v], ns)
		}
	}
	var rows []map[string]any
	for v, variant := range variants {
		s := &series{path: variant[0], op: variant[1], textID: &[]string{"ref-02"}[0], samples: times[v]}
		rows = append(rows, s.result())
	}
	return rows, nil
}

func machine() string {
	model := "unknown cpu"
	if info, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(info), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				model = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d logical cores, %s %s, %s, wazero v1.12.0 (compiler)", model, runtime.NumCPU(),
		runtime.GOOS, runtime.GOARCH, runtime.Version())
}

func main() {
	start := time.Now()
	out := flag.String("out", filepath.Join(corpus.Dir(), "..", "..", "target", "bench", "go.json"), "where to write the results")
	coldStartText := flag.String("cold-start", "", "internal: time one cold start on this text and print it in ns")
	coldStartPath := flag.String("path", "raw", "internal: the cold start's path, raw or native")
	flag.Parse()
	if *coldStartText != "" {
		var g *qrglue.Generator
		var err error
		if *coldStartPath == "native" {
			g, err = qrglue.NewNativeGenerator()
		} else {
			g, err = qrglue.Default()
		}
		if err == nil {
			_, err = g.PNG(*coldStartText)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(time.Since(start).Nanoseconds())
		return
	}
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "qrglue-bench:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	quick := os.Getenv("QRGLUE_BENCH_QUICK") == "1"
	s, reference, err := loadSettings(quick)
	if err != nil {
		return err
	}
	loaded, err := corpus.Load(corpus.Dir())
	if err != nil {
		return err
	}
	cases := map[string]string{}
	for _, c := range loaded {
		cases[c.ID] = c.Text
	}
	g, err := qrglue.NewGenerator(1)
	if err != nil {
		return err
	}
	native, err := qrglue.NewNativeGenerator()
	if err != nil {
		native = nil // a build without the native path measures raw alone
		fmt.Fprintln(os.Stderr, "qrglue-bench:", err)
	}
	all := buildSeries(g, native, cases, reference, s)
	batchNS := s.BatchMS * 1e6
	for w := 0; w < s.WarmupRounds; w++ {
		for _, one := range all {
			if err := one.run(false, batchNS); err != nil {
				return err
			}
		}
	}
	for r := 0; r < s.Rounds; r++ {
		for _, one := range all {
			if err := one.run(true, batchNS); err != nil {
				return err
			}
		}
	}
	var rows []map[string]any
	for _, one := range all {
		rows = append(rows, one.result())
	}
	cold, err := coldStart(s.ColdStartSamples, cases[reference], native != nil)
	if err != nil {
		return err
	}
	rows = append(rows, cold...)
	label := machine()
	if quick {
		label += "; QRGLUE_BENCH_QUICK smoke run, not for comparison"
	}
	report := map[string]any{"host": "go", "machine": label, "quick": quick, "measurements": rows}
	encoded, err := json.MarshalIndent(report, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(out, append(encoded, '\n'), 0o644); err != nil {
		return err
	}
	fmt.Printf("# %s\n%-10s %-18s %10s %11s %10s %10s %4s\n", label, "path", "op", "text/bytes", "median us", "p10", "p90", "n")
	for _, row := range rows {
		what := "-"
		if id, ok := row["text_id"].(*string); ok && id != nil {
			what = *id
		} else if n, ok := row["bytes"].(*int); ok && n != nil {
			what = strconv.Itoa(*n)
		}
		fmt.Printf("%-10s %-18s %10s %11.2f %10.2f %10.2f %4d\n", row["path"], row["op"], what,
			row["median_ns"].(float64)/1e3, row["p10_ns"].(float64)/1e3, row["p90_ns"].(float64)/1e3, row["samples"])
	}
	return nil
}
