package main

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The query grammar's shared cases (tests/http/query_cases.json) against this
// server's own parser: the same cases hosts/rust/http-query,
// hosts/node/server/contract.test.mjs and hosts/python/server/test_http_contract.py
// run against theirs.
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

// asRequest: a case's "request" object as the request checkQuery returns.
func asRequest(t *testing.T, fields map[string]json.RawMessage) *request {
	t.Helper()
	r := &request{}
	for name, raw := range fields {
		var u uint32
		var b bool
		switch name {
		case "text":
			r.Text = jsonString(t, raw)
		case "ec-level":
			r.ECLevel = some(jsonString(t, raw))
		case "dark":
			r.Dark = some(jsonString(t, raw))
		case "light":
			r.Light = some(jsonString(t, raw))
		case "min-size", "quiet-zone", "scale", "version", "min-version", "mask":
			if err := json.Unmarshal(raw, &u); err != nil {
				t.Fatal(err)
			}
			*map[string]*optional[uint32]{
				"min-size": &r.MinSize, "quiet-zone": &r.QuietZone, "scale": &r.Scale, "version": &r.Version,
				"min-version": &r.MinVersion, "mask": &r.Mask,
			}[name] = some(u)
		case "micro", "boost-ec", "eci":
			if err := json.Unmarshal(raw, &b); err != nil {
				t.Fatal(err)
			}
			*map[string]*optional[bool]{"micro": &r.Micro, "boost-ec": &r.BoostEC, "eci": &r.ECI}[name] = some(b)
		default:
			t.Fatalf("unknown field %q in a case's request", name)
		}
	}
	return r
}

func TestSharedQueryCases(t *testing.T) {
	var cases queryCases
	readJSON(t, "../../../tests/http/query_cases.json", &cases)
	if len(cases.Queries) < 240 {
		t.Fatalf("only %d query cases", len(cases.Queries))
	}
	for _, c := range cases.Queries {
		got, refusal := checkQuery(c.Query)
		switch {
		case refusal != nil:
			if c.Refused == nil {
				t.Errorf("%q: refused (%v), expected to pass", c.Query, refusal)
			} else if refusal.kind != c.Refused.Kind || refusal.message != c.Refused.Message || refusal.status != 400 {
				t.Errorf("%q: %d %v, expected 400 %s: %s", c.Query, refusal.status, refusal, c.Refused.Kind, c.Refused.Message)
			}
		case c.Refused != nil:
			t.Errorf("%q: passed, expected %s: %s", c.Query, c.Refused.Kind, c.Refused.Message)
		case c.Empty:
			if got.Text != "" {
				t.Errorf("%q: text %q, expected the empty text", c.Query, got.Text)
			}
		default:
			if want := asRequest(t, c.Request); !reflect.DeepEqual(got, want) {
				t.Errorf("%q: %+v, expected %+v", c.Query, *got, *want)
			}
		}
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
	for class, methods := range cases.Methods {
		for _, m := range methods {
			if got := methodClass(m); got != class {
				t.Errorf("method %q: %s, expected %s", m, got, class)
			}
		}
	}
}

// The copies this server keeps for the tiers with no qrglue library
// (go-qrcode, static) equal the contract the build writes from
// guest/core/src/contract.rs, and checkRanges refuses in the generator's order.
func TestContractCopies(t *testing.T) {
	var contract struct {
		ECLevels []string             `json:"ec_levels"`
		Messages map[string]string    `json:"messages"`
		Bounds   map[string][2]uint32 `json:"bounds"`
		Defaults map[string]any       `json:"defaults"`
	}
	readJSON(t, "../../../target/contract.json", &contract)
	if !reflect.DeepEqual(ecLevels, contract.ECLevels) {
		t.Errorf("ec levels %v, contract %v", ecLevels, contract.ECLevels)
	}
	for key, ours := range map[string]string{
		"empty-text": emptyTextMessage, "lone-surrogate": loneSurrogateMessage, "not-utf8": notUTF8Template,
		"data-too-long": dataTooLongMessage, "out-of-range": outOfRangeTemplate, "same-colors": sameColorsTemplate,
		"version-conflict": versionConflictMessage, "micro-ec-level": microECLevelMessage, "micro-eci": microECIMessage,
	} {
		if contract.Messages[key] != ours {
			t.Errorf("message %s: ours %q, contract %q", key, ours, contract.Messages[key])
		}
	}
	fill := func(option string, value uint32, bounds string) string {
		b := contract.Bounds[bounds]
		return strings.NewReplacer("{option}", option, "{min}", strconv.Itoa(int(b[0])), "{max}", strconv.Itoa(int(b[1])),
			"{value}", strconv.Itoa(int(value))).Replace(contract.Messages["out-of-range"])
	}
	refusal := func(r request) string {
		if err := checkRanges(&r); err != nil {
			return err.message
		}
		return ""
	}
	u := some[uint32]
	minSize, zone, scale := contract.Bounds["min-size"], contract.Bounds["quiet-zone"], contract.Bounds["scale"]
	version, microVersion := contract.Bounds["version"], contract.Bounds["micro-version"]
	mask, microMask := contract.Bounds["mask"], contract.Bounds["micro-mask"]
	dark, light := contract.Defaults["dark"].(string), contract.Defaults["light"].(string)
	same := func(v string) string { return strings.Replace(contract.Messages["same-colors"], "{value}", v, 1) }
	yes := some(true)
	for i, c := range []struct {
		r    request
		want string
	}{
		{request{MinSize: u(minSize[0] - 1)}, fill("min-size", minSize[0]-1, "min-size")},
		{request{MinSize: u(minSize[1] + 1)}, fill("min-size", minSize[1]+1, "min-size")},
		{request{QuietZone: u(zone[1] + 1)}, fill("quiet-zone", zone[1]+1, "quiet-zone")},
		{request{Scale: u(scale[0] - 1)}, fill("scale", scale[0]-1, "scale")},
		{request{Scale: u(scale[1] + 1)}, fill("scale", scale[1]+1, "scale")},
		{request{Dark: some(light)}, same(light)},
		{request{Light: some(dark)}, same(dark)},
		{request{Version: u(version[1] + 1)}, fill("version", version[1]+1, "version")},
		{request{MinVersion: u(0)}, fill("min-version", 0, "version")},
		{request{Micro: yes, Version: u(microVersion[1] + 1)}, fill("version", microVersion[1]+1, "micro-version")},
		{request{Version: u(2), MinVersion: u(3)}, contract.Messages["version-conflict"]},
		{request{Mask: u(mask[1] + 1)}, fill("mask", mask[1]+1, "mask")},
		{request{Micro: yes, Mask: u(microMask[1] + 1)}, fill("mask", microMask[1]+1, "micro-mask")},
		{request{Micro: yes, ECLevel: some("high")}, contract.Messages["micro-ec-level"]},
		{request{Micro: yes, ECI: yes}, contract.Messages["micro-eci"]},
		{request{Micro: yes, ECI: yes, ECLevel: some("high")}, contract.Messages["micro-ec-level"]},
		// The generator's order: the first failing check answers.
		{request{MinSize: u(0), QuietZone: u(17)}, fill("min-size", 0, "min-size")},
		{request{QuietZone: u(17), Scale: u(0)}, fill("quiet-zone", 17, "quiet-zone")},
		{request{Scale: u(0), Dark: some(light)}, fill("scale", 0, "scale")},
		{request{Dark: some(light), Version: u(0)}, same(light)},
		{request{Version: u(0), MinVersion: u(0)}, fill("version", 0, "version")},
		{request{Version: u(1), MinVersion: u(0)}, fill("min-version", 0, "version")},
		{request{Version: u(1), MinVersion: u(1), Mask: u(8)}, contract.Messages["version-conflict"]},
		{request{Mask: u(8), Micro: yes, ECLevel: some("high")}, fill("mask", 8, "micro-mask")},
		{request{MinSize: u(minSize[0]), QuietZone: u(zone[1])}, ""},
		{request{MinSize: u(minSize[1]), QuietZone: u(0), Scale: u(scale[1]), Dark: some(light), Light: some(dark)}, ""},
		{request{Micro: yes, Version: u(microVersion[1]), Mask: u(microMask[1]), ECLevel: some("quartile"), BoostEC: yes}, ""},
	} {
		if got := refusal(c.r); got != c.want {
			t.Errorf("case %d: %q, expected %q", i, got, c.want)
		}
	}
}
