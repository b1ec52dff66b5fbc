package qrglue_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"qrglue.dev/qrglue"
	"qrglue.dev/qrglue/internal/corpus"
)

// expected reads tests/vectors/expected.json: the golden digests and errors,
// never restated here (the core's PNG writer may change them; a merge then
// updates that file, and this test follows).
func expected(t testing.TB) map[string]any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(corpus.Dir(), "expected.json"))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	return want
}

func cases(t testing.TB) []corpus.Case {
	t.Helper()
	cs, err := corpus.Load(corpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("the corpus is empty")
	}
	return cs
}

// normalized is an outcome as JSON reads it back (numbers as float64), the
// form expected.json is compared in.
func normalized(t testing.TB, outcome corpus.Outcome) any {
	t.Helper()
	raw, err := json.Marshal(outcome)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	return back
}

// Every case of the corpus on the Go raw path: PNG, SVG, matrix and each
// text style byte-identical to expected.json's digests, or the same error
// (kind and message) from all of them.
func TestGoldenCorpus(t *testing.T) {
	want := expected(t)
	all := cases(t)
	onEveryPath(t, func(t *testing.T, g *qrglue.Generator) {
		for i, c := range all {
			t.Run(c.ID, func(t *testing.T) {
				w, ok := want[c.ID]
				if !ok {
					t.Fatalf("no entry in expected.json")
				}
				if got := normalized(t, corpus.Run(g, &all[i])); !reflect.DeepEqual(got, w) {
					t.Errorf("got %v\nwant %v", got, w)
				}
			})
		}
	})
}

// The package functions (the shared Generator) give the golden bytes too.
func TestPackageFunctionsGolden(t *testing.T) {
	want := expected(t)["ref-01"].(map[string]any)
	png, err := qrglue.PNG("https://github.com/pretzelhammer/rust-blog",
		qrglue.WithECLevel(qrglue.Low), qrglue.WithMinSize(200), qrglue.WithQuietZone(4))
	if err != nil {
		t.Fatal(err)
	}
	if got := sha256Hex(png); got != want["png_sha256"] {
		t.Errorf("png sha256 %s, want %s", got, want["png_sha256"])
	}
	svg, err := qrglue.SVG("https://github.com/pretzelhammer/rust-blog")
	if err != nil {
		t.Fatal(err)
	}
	if got := sha256Hex([]byte(svg)); got != want["svg_sha256"] {
		t.Errorf("svg sha256 %s, want %s", got, want["svg_sha256"])
	}
	texts := want["text_sha256"].(map[string]any)
	for _, style := range qrglue.TextStyles {
		text, err := qrglue.Text("https://github.com/pretzelhammer/rust-blog", qrglue.WithStyle(style))
		if err != nil {
			t.Fatal(err)
		}
		if got := sha256Hex([]byte(text)); got != texts[style.String()] {
			t.Errorf("text %s sha256 %s, want %s", style, got, texts[style.String()])
		}
	}
}
