// The query of GET /qrcode, checked as tests/http/README.md orders it:
// bad-query (syntax, names, repeats, missing text), invalid-text,
// empty-text, text-too-long, then invalid-options for values that are not of
// their option's form, in WIT field order: an ec-level name, a decimal u32,
// a CSS hex colour, true or false. Ranges are the generator's to refuse
// (checkRanges restates them for the tiers without one). Request targets
// and methods: pathAndQuery, methodClass.
//
// The same rules as hosts/rust/http-query, hosts/node/server/contract.mjs
// and hosts/python/server/http_contract.py; all of them run
// tests/http/query_cases.json in their unit tests (query_test.go here).
// Everything of the grammar is in this one file, so that a parser generated
// from one shared description can replace it whole.
package main

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

const (
	maxTextBytes  = 512
	referenceText = "https://www.reddit.com/r/rustjerk/top/?t=all"

	// The contract's fixed messages (guest/core/src/contract.rs), for the tiers
	// with no qrglue library to ask (go-qrcode, static); query_test.go checks
	// them against target/contract.json.
	emptyTextMessage       = "text is empty"
	loneSurrogateMessage   = "text contains a lone surrogate (not encodable as UTF-8)"
	notUTF8Template        = "text is not valid UTF-8 from byte {index}"
	outOfRangeTemplate     = "{option} must be within {min}..={max}, got {value}"
	sameColorsTemplate     = "dark and light must be different colours, both are {value}"
	versionConflictMessage = "version and min-version exclude each other: give one"
	microECLevelMessage    = "ec-level high is not available in Micro QR (M4 goes up to quartile)"
	microECIMessage        = "eci is not available in Micro QR (it has no ECI mode)"
	dataTooLongMessage     = "text does not fit in a QR code at this error-correction level"

	// Request targets and methods (tests/http/README.md).
	unknownMethodMessage = "unknown method (methods are case-sensitive: GET and HEAD are served)"
	noHostMessage        = "an HTTP/1.1 request must have a Host header"
	badRequestMessage    = "malformed HTTP request"
	headTooLargeMessage  = "request head larger than 16 KiB"
)

// ecLevels: the WIT enum's names, in its order.
var ecLevels = []string{"low", "medium", "quartile", "high"}

// names: the query's names, the WIT names in WIT field order.
var names = []string{
	"text", "ec-level", "min-size", "quiet-zone", "scale", "dark", "light", "micro", "version", "min-version", "mask",
	"boost-ec", "eci",
}

var unknownNameMessage = "unknown query parameter (known: " + strings.Join(names, ", ") + ")"

// httpError is a refusal: the status and the contract's JSON body.
type httpError struct {
	status  int
	kind    string
	message string
}

func (e *httpError) Error() string { return e.kind + ": " + e.message }

func refuse(kind, message string) *httpError { return &httpError{400, kind, message} }

// optional is an option given in the query, or not (Set false: the generator's default).
type optional[T any] struct {
	Value T
	Set   bool
}

func some[T any](v T) optional[T] { return optional[T]{v, true} }

// request is a query that passed checkQuery: the text and the options given,
// colours as '#rrggbbaa' lowercase. Text "" is empty-text, which each tier's
// generator answers in its own words (options are then not read).
type request struct {
	Text                      string
	ECLevel                   optional[string]
	MinSize, QuietZone, Scale optional[uint32]
	Dark, Light               optional[string]
	Micro                     optional[bool]
	Version, MinVersion, Mask optional[uint32]
	BoostEC, ECI              optional[bool]
}

func hexValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return -1
}

// decode: a query part -> bytes: '+' is a space, %XY the byte 0xXY, any
// other byte itself.
func decode(part string) (string, *httpError) {
	if strings.IndexByte(part, '%') < 0 && strings.IndexByte(part, '+') < 0 {
		return part, nil
	}
	out := make([]byte, 0, len(part))
	for i := 0; i < len(part); i++ {
		switch c := part[i]; c {
		case '+':
			out = append(out, ' ')
		case '%':
			hi, lo := -1, -1
			if i+2 < len(part) {
				hi, lo = hexValue(part[i+1]), hexValue(part[i+2])
			}
			if hi < 0 || lo < 0 {
				return "", refuse("bad-query", "malformed percent-encoding in the query (a % must be followed by two hex digits)")
			}
			out = append(out, byte(hi<<4|lo))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return string(out), nil
}

// utf8Problem: the contract's invalid-text message for bytes that are not
// UTF-8: where the valid UTF-8 ends (Rust's valid_up_to; Go's decoder, like
// Rust's, takes an encoded surrogate for invalid), the lone-surrogate message
// if an encoded surrogate (ED A0..BF 80..BF) starts there.
func utf8Problem(s string) string {
	at := 0
	for at < len(s) {
		r, size := utf8.DecodeRuneInString(s[at:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		at += size
	}
	if at+2 < len(s) && s[at] == 0xed && s[at+1] >= 0xa0 && s[at+1] <= 0xbf && s[at+2] >= 0x80 && s[at+2] <= 0xbf {
		return loneSurrogateMessage
	}
	return strings.Replace(notUTF8Template, "{index}", strconv.Itoa(at), 1)
}

func uintValue(name, s string) (optional[uint32], *httpError) {
	ok := len(s) >= 1 && len(s) <= 10
	for i := 0; ok && i < len(s); i++ {
		ok = s[i] >= '0' && s[i] <= '9'
	}
	if ok {
		if n, err := strconv.ParseUint(s, 10, 32); err == nil {
			return some(uint32(n)), nil
		}
	}
	return optional[uint32]{}, refuse("invalid-options", name+" must be a decimal integer within 0..=4294967295")
}

// colorValue: a CSS hex colour as the hosts take it (#rgb, #rgba, #rrggbb,
// #rrggbbaa, either case) -> '#rrggbbaa', lowercase. The message never shows
// the value.
func colorValue(name, s string) (optional[string], *httpError) {
	bad := refuse("invalid-options", name+" must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)")
	digits := strings.TrimPrefix(s, "#")
	if len(digits) == len(s) {
		return optional[string]{}, bad
	}
	switch len(digits) {
	case 3, 4, 6, 8:
	default:
		return optional[string]{}, bad
	}
	for i := 0; i < len(digits); i++ {
		if hexValue(digits[i]) < 0 {
			return optional[string]{}, bad
		}
	}
	digits = strings.ToLower(digits)
	if len(digits) <= 4 {
		var b strings.Builder
		for i := 0; i < len(digits); i++ {
			b.WriteByte(digits[i])
			b.WriteByte(digits[i])
		}
		digits = b.String()
	}
	if len(digits) == 6 {
		digits += "ff"
	}
	return some("#" + digits), nil
}

func boolValue(name, s string) (optional[bool], *httpError) {
	if s != "true" && s != "false" {
		return optional[bool]{}, refuse("invalid-options", name+" must be true or false")
	}
	return some(s == "true"), nil
}

// checkQuery: the raw query string (after '?', or "") -> the request, or the
// first refusal in the contract's order.
func checkQuery(query string) (*request, *httpError) {
	found := make(map[string]string, 4)
	for _, part := range strings.Split(query, "&") {
		if part == "" {
			continue
		}
		rawName, rawValue, _ := strings.Cut(part, "=")
		name, err := decode(rawName)
		if err != nil {
			return nil, err
		}
		value, err := decode(rawValue)
		if err != nil {
			return nil, err
		}
		known := false
		for _, n := range names {
			known = known || n == name
		}
		if !known {
			return nil, refuse("bad-query", unknownNameMessage)
		}
		if _, twice := found[name]; twice {
			return nil, refuse("bad-query", "query parameter "+name+" is given more than once")
		}
		found[name] = value
	}
	text, ok := found["text"]
	if !ok {
		return nil, refuse("bad-query", "query parameter text is required")
	}
	if !utf8.ValidString(text) {
		return nil, refuse("invalid-text", utf8Problem(text))
	}
	r := &request{Text: text}
	if text == "" {
		return r, nil
	}
	if len(text) > maxTextBytes {
		return nil, refuse("text-too-long", fmt.Sprintf("text is longer than %d UTF-8 bytes (this endpoint's limit)", maxTextBytes))
	}
	// The options' forms, in WIT field order.
	if v, ok := found["ec-level"]; ok {
		known := false
		for _, level := range ecLevels {
			known = known || v == level
		}
		if !known {
			return nil, refuse("invalid-options", "ec-level must be one of low, medium, quartile, high")
		}
		r.ECLevel = some(v)
	}
	var err *httpError
	for _, o := range []struct {
		name string
		read func(string) *httpError
	}{
		{"min-size", func(v string) (e *httpError) { r.MinSize, e = uintValue("min-size", v); return }},
		{"quiet-zone", func(v string) (e *httpError) { r.QuietZone, e = uintValue("quiet-zone", v); return }},
		{"scale", func(v string) (e *httpError) { r.Scale, e = uintValue("scale", v); return }},
		{"dark", func(v string) (e *httpError) { r.Dark, e = colorValue("dark", v); return }},
		{"light", func(v string) (e *httpError) { r.Light, e = colorValue("light", v); return }},
		{"micro", func(v string) (e *httpError) { r.Micro, e = boolValue("micro", v); return }},
		{"version", func(v string) (e *httpError) { r.Version, e = uintValue("version", v); return }},
		{"min-version", func(v string) (e *httpError) { r.MinVersion, e = uintValue("min-version", v); return }},
		{"mask", func(v string) (e *httpError) { r.Mask, e = uintValue("mask", v); return }},
		{"boost-ec", func(v string) (e *httpError) { r.BoostEC, e = boolValue("boost-ec", v); return }},
		{"eci", func(v string) (e *httpError) { r.ECI, e = boolValue("eci", v); return }},
	} {
		if v, ok := found[o.name]; ok {
			if err = o.read(v); err != nil {
				return nil, err
			}
		}
	}
	return r, nil
}

func outOfRange(option string, min, max, value uint32) *httpError {
	return refuse("invalid-options", strings.NewReplacer(
		"{option}", option, "{min}", strconv.FormatUint(uint64(min), 10), "{max}", strconv.FormatUint(uint64(max), 10),
		"{value}", strconv.FormatUint(uint64(value), 10)).Replace(outOfRangeTemplate))
}

func or[T any](o optional[T], fallback T) T {
	if o.Set {
		return o.Value
	}
	return fallback
}

// checkRanges: the generator's own option checks (qrglue-core's
// Options::validate) in its order and words, for the tiers with no qrglue
// library (static, go-qrcode): min-size, quiet-zone, scale, equal colours
// (the defaults for the ones not given), then the symbol: version,
// min-version (1..=40, 1..=4 with micro), both given, mask (0..=7, 0..=3),
// Micro QR at level high, Micro QR with eci.
func checkRanges(r *request) *httpError {
	if v := or(r.MinSize, 200); v < 1 || v > 4096 {
		return outOfRange("min-size", 1, 4096, v)
	}
	if v := or(r.QuietZone, 4); v > 16 {
		return outOfRange("quiet-zone", 0, 16, v)
	}
	if r.Scale.Set && (r.Scale.Value < 1 || r.Scale.Value > 20) {
		return outOfRange("scale", 1, 20, r.Scale.Value)
	}
	if dark := or(r.Dark, "#000000ff"); dark == or(r.Light, "#ffffffff") {
		return refuse("invalid-options", strings.Replace(sameColorsTemplate, "{value}", dark, 1))
	}
	micro := or(r.Micro, false)
	maxVersion, maxMask := uint32(40), uint32(7)
	if micro {
		maxVersion, maxMask = 4, 3
	}
	if r.Version.Set && (r.Version.Value < 1 || r.Version.Value > maxVersion) {
		return outOfRange("version", 1, maxVersion, r.Version.Value)
	}
	if r.MinVersion.Set && (r.MinVersion.Value < 1 || r.MinVersion.Value > maxVersion) {
		return outOfRange("min-version", 1, maxVersion, r.MinVersion.Value)
	}
	if r.Version.Set && r.MinVersion.Set {
		return refuse("invalid-options", versionConflictMessage)
	}
	if r.Mask.Set && r.Mask.Value > maxMask {
		return outOfRange("mask", 0, maxMask, r.Mask.Value)
	}
	if micro && or(r.ECLevel, "low") == "high" {
		return refuse("invalid-options", microECLevelMessage)
	}
	if micro && or(r.ECI, false) {
		return refuse("invalid-options", microECIMessage)
	}
	return nil
}

// methodClass: "served" (GET, HEAD), "not-allowed" (405: the other methods of
// RFC 9110 and PATCH) or "unknown" (400: methods are case-sensitive).
func methodClass(method string) string {
	switch method {
	case "GET", "HEAD":
		return "served"
	case "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH":
		return "not-allowed"
	}
	return "unknown"
}

// pathAndQuery: a request target as sent -> its path and query: a fragment
// (a raw '#' on) dropped, an absolute-form target reduced to its path and
// query whatever its scheme and authority, an empty path "/". Nothing is
// decoded.
func pathAndQuery(target string) (path, query string) {
	t, _, _ := strings.Cut(target, "#")
	if !strings.HasPrefix(t, "/") {
		if rest, ok := afterScheme(t); ok {
			if at := strings.IndexAny(rest, "/?"); at >= 0 {
				t = rest[at:]
			} else {
				t = ""
			}
		}
	}
	path, query, _ = strings.Cut(t, "?")
	if path == "" {
		path = "/"
	}
	return path, query
}

// afterScheme: t without its "scheme://" (RFC 3986: a letter, then letters,
// digits, '+', '-', '.'), if it starts with one.
func afterScheme(t string) (string, bool) {
	for i := 0; i < len(t); i++ {
		c := t[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		switch {
		case letter:
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return strings.CutPrefix(t[i+1:], "//")
		default:
			return "", false
		}
	}
	return "", false
}
