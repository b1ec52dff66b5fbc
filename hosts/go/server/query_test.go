package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"qrglue.dev/qrglue"
)

// The query grammar's shared cases (tests/http/query_cases.json) through this
// server's adapter (query.go) over the C library: the same cases
// guest/http-query, hosts/c, hosts/node/server/query.test.mjs and
// hosts/python/server/test_http_query.py run.
type queryCases struct {
	Queries []struct {
		Query   string                     `json:"query"`
		Request map[string]json.RawMessage `json:"request"`
		Empty   bool                       `json:"empty"`
		Refused *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"refused"`
	} `json:"queries"`
	Targets [][3]string         `json:"targets"`
	Methods map[string][]string `json:"methods"`
}

// contract: what these tests read of target/contract.json (`just contract`).
type contract struct {
	ECLevels []string          `json:"ec_levels"`
	Messages map[string]string `json:"messages"`
	Defaults map[string]any    `json:"defaults"`
	RawABI   struct {
		SymbolFlags map[string]uint32 `json:"symbol_flags"`
	} `json:"raw_abi"`
}

func readJSON(t *testing.T, path string, into any) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}

// jsonString decodes a JSON string as its bytes: encoding/json would turn a
// lone surrogate (\ud800) into U+FFFD, and the cases' texts are compared byte
// for byte.
func jsonString(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	s, err := strconv.Unquote(string(raw))
	if err != nil {
		// strconv does not take \u escapes of surrogates; none of the shared
		// cases' expected texts holds one (a lone surrogate is refused).
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func colour(t *testing.T, hex string) uint32 {
	t.Helper()
	v, err := strconv.ParseUint(strings.TrimPrefix(hex, "#"), 16, 32)
	if err != nil || len(hex) != 9 {
		t.Fatalf("colour %q is not #rrggbbaa", hex)
	}
	return uint32(v)
}

// expected: a case's "request" object (the options given) over the
// contract's defaults, as checkQuery answers it.
func expected(t *testing.T, c *contract, fields map[string]json.RawMessage) *request {
	t.Helper()
	level := func(name string) uint32 {
		for i, l := range c.ECLevels {
			if l == name {
				return uint32(i)
			}
		}
		t.Fatalf("ec-level %q", name)
		return 0
	}
	r := &request{
		ECLevel: level(c.Defaults["ec-level"].(string)), MinSize: uint32(c.Defaults["min-size"].(float64)),
		QuietZone: uint32(c.Defaults["quiet-zone"].(float64)),
		Dark:      colour(t, c.Defaults["dark"].(string)), Light: colour(t, c.Defaults["light"].(string)),
	}
	symbol := map[string]any{}
	for name, raw := range fields {
		var u uint32
		var b bool
		switch name {
		case "text":
			r.Text = jsonString(t, raw)
		case "ec-level":
			r.ECLevel = level(jsonString(t, raw))
		case "dark", "light":
			*map[string]*uint32{"dark": &r.Dark, "light": &r.Light}[name] = colour(t, jsonString(t, raw))
		case "min-size", "quiet-zone":
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			*map[string]*uint32{"min-size": &r.MinSize, "quiet-zone": &r.QuietZone}[name] = u
		case "scale":
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			r.Scale = optional[uint32]{u, true}
		default:
			// A symbol option (qrglue.SymbolFlags): given as true, or a number.
			flag := -1
			for i, f := range qrglue.SymbolFlags {
				if f.Name == name {
					flag = i
				}
			}
			if flag < 0 {
				t.Fatalf("unknown field %q in a case's request", name)
			}
			if qrglue.SymbolFlags[flag].Number {
				if err := json.Unmarshal(raw, &u); err != nil {
					t.Fatal(err)
				}
				symbol[name] = u
			} else if err := json.Unmarshal(raw, &b); err != nil {
				t.Fatal(err)
			} else if b {
				symbol[name] = true
			}
		}
	}
	// In the table's order, as checkQuery gives them.
	for _, f := range qrglue.SymbolFlags {
		if v, ok := symbol[f.Name]; ok {
			r.Symbol = append(r.Symbol, symbolOption{f.Name, v})
		}
	}
	return r
}

func TestSharedQueryCases(t *testing.T) {
	var cases queryCases
	var c contract
	readJSON(t, "../../../tests/http/query_cases.json", &cases)
	readJSON(t, "../../../target/contract.json", &c)
	if len(cases.Queries) < 240 {
		t.Fatalf("only %d query cases", len(cases.Queries))
	}
	for _, q := range cases.Queries {
		got, refusal := checkQuery(q.Query, false)
		switch {
		case refusal != nil:
			if q.Refused == nil {
				t.Errorf("%q: refused (%v), expected to pass", q.Query, refusal)
			} else if refusal.kind != q.Refused.Kind || refusal.message != q.Refused.Message || refusal.status != 400 {
				t.Errorf("%q: %d %v, expected 400 %s: %s", q.Query, refusal.status, refusal, q.Refused.Kind, q.Refused.Message)
			}
		case q.Refused != nil:
			t.Errorf("%q: passed, expected %s: %s", q.Query, q.Refused.Kind, q.Refused.Message)
		case q.Empty:
			if want := expected(t, &c, nil); !reflect.DeepEqual(got, want) {
				t.Errorf("%q: %+v, expected the empty text at the defaults %+v", q.Query, *got, *want)
			}
		default:
			if want := expected(t, &c, q.Request); !reflect.DeepEqual(got, want) {
				t.Errorf("%q: %+v, expected %+v", q.Query, *got, *want)
			}
		}
	}
}

// Alone (the static and go-qrcode tiers), the parser also refuses what the
// generator would: an empty text, and options out of the generator's bounds.
func TestAlone(t *testing.T) {
	var c contract
	readJSON(t, "../../../target/contract.json", &c)
	for _, q := range []struct{ query, kind, message string }{
		{"text=", "empty-text", c.Messages["empty-text"]},
		{"text=a&scale=21", "invalid-options", "scale must be within 1..=20, got 21"},
		{"text=a&micro=true&ec-level=high", "invalid-options", c.Messages["micro-ec-level"]},
		{"text=a&version=2&min-version=3", "invalid-options", c.Messages["version-conflict"]},
		{"text=a&dark=%23fff", "invalid-options", strings.Replace(c.Messages["same-colors"], "{value}", "#ffffffff", 1)},
		{"text=a&x=1", "bad-query", ""},
	} {
		if _, err := checkQuery(q.query, false); err != nil && q.kind != "bad-query" {
			t.Errorf("%q: refused without alone: %v", q.query, err)
		}
		_, err := checkQuery(q.query, true)
		if err == nil || err.kind != q.kind || (q.message != "" && err.message != q.message) {
			t.Errorf("%q alone: %v, expected %s: %s", q.query, err, q.kind, q.message)
		}
	}
	if r, err := checkQuery("text=a&micro=true&version=4&mask=3&ec-level=quartile&boost-ec=true", true); err != nil || r.Text != "a" {
		t.Errorf("a valid Micro QR query alone: %+v, %v", r, err)
	}
}

func TestSharedTargetsAndMethods(t *testing.T) {
	var cases queryCases
	readJSON(t, "../../../tests/http/query_cases.json", &cases)
	for _, c := range cases.Targets {
		if path, query := pathAndQuery(c[0]); path != c[1] || query != c[2] {
			t.Errorf("%q: (%q, %q), expected (%q, %q)", c[0], path, query, c[1], c[2])
		}
	}
	// net/http hands over a target's bytes as they came: any byte keeps its place.
	if path, query := pathAndQuery("/q\xffr?text=\xe9#\xff"); path != "/q\xffr" || query != "text=\xe9" {
		t.Errorf("non-UTF-8 target: (%q, %q)", path, query)
	}
	for class, methods := range cases.Methods {
		for _, m := range methods {
			if got := methodClass(m); got != class {
				t.Errorf("method %q: %s, expected %s", m, got, class)
			}
		}
	}
	if unknownMethodMessage == "" || noHostMessage == "" {
		t.Error("the C library gave no fixed messages")
	}
}

// The few contract values this server keeps (go-qrcode's data-too-long
// message), and the generated symbol-flag table it reads QrglueOptions with
// (qrglue.SymbolFlags): every bit the contract file has, under its name.
func TestContractCopies(t *testing.T) {
	var c contract
	readJSON(t, "../../../target/contract.json", &c)
	if len(qrglue.SymbolFlags) != len(c.RawABI.SymbolFlags) {
		t.Errorf("%d symbol flags, the contract has %d", len(qrglue.SymbolFlags), len(c.RawABI.SymbolFlags))
	}
	for _, f := range qrglue.SymbolFlags {
		name := f.Name
		if f.Number {
			name = "has-" + name
		}
		if c.RawABI.SymbolFlags[name] != f.Bit {
			t.Errorf("symbol flag %s: ours %d, contract %d", name, f.Bit, c.RawABI.SymbolFlags[name])
		}
	}
}
