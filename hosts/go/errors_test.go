package qrglue_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"qrglue.dev/qrglue"
)

const (
	emptyText   = "text is empty"
	dataTooLong = "text does not fit in any QR code: it is over 7089 bytes, the most one holds"
	// The guest's data-too-long names the limit hit, in bits (guest/core's message, carried as is).
	atVersion40Low = "text does not fit in a QR code at level low: it needs 24020 data bits, version 40 holds 23648"
	atVersion1Low  = "text does not fit in version 1 at level low: it needs 812 data bits, version 1 holds 152"
	surrogate      = "text contains a lone surrogate (not encodable as UTF-8)"
)

// Every generating call of a Generator, for a text, as one signature.
func everyCall(g *qrglue.Generator) map[string]func(string, ...qrglue.Option) error {
	svgOpts := func(opts []qrglue.Option) []qrglue.SVGOption {
		out := make([]qrglue.SVGOption, len(opts))
		for i, o := range opts {
			out[i] = o
		}
		return out
	}
	textOpts := func(opts []qrglue.Option) []qrglue.TextOption {
		out := make([]qrglue.TextOption, len(opts))
		for i, o := range opts {
			out[i] = o
		}
		return out
	}
	return map[string]func(string, ...qrglue.Option) error{
		"png":    func(s string, o ...qrglue.Option) error { _, err := g.PNG(s, o...); return err },
		"svg":    func(s string, o ...qrglue.Option) error { _, err := g.SVG(s, svgOpts(o)...); return err },
		"matrix": func(s string, o ...qrglue.Option) error { _, err := g.Matrix(s, o...); return err },
		"text":   func(s string, o ...qrglue.Option) error { _, err := g.Text(s, textOpts(o)...); return err },
		"png-bytes": func(s string, o ...qrglue.Option) error {
			_, err := g.PNGBytes([]byte(s), o...)
			return err
		},
		"svg-bytes": func(s string, o ...qrglue.Option) error {
			_, err := g.SVGBytes([]byte(s), svgOpts(o)...)
			return err
		},
		"matrix-bytes": func(s string, o ...qrglue.Option) error {
			_, err := g.MatrixBytes([]byte(s), o...)
			return err
		},
		"text-bytes": func(s string, o ...qrglue.Option) error {
			_, err := g.TextBytes([]byte(s), textOpts(o)...)
			return err
		},
	}
}

// The contract's order with two mistakes at once, on every call: the first
// of invalid-text, empty-text, data-too-long (by length), invalid-options
// (in WIT order: ec-level, min-size, quiet-zone, scale, colours, symbol
// options), then encoding.
func TestErrorOrder(t *testing.T) {
	onEveryPath(t, func(t *testing.T, g *qrglue.Generator) {
		long := strings.Repeat("a", qrglue.MaxTextBytes+1)
		for _, tc := range []struct {
			name, text string
			opts       []qrglue.Option
			kind       qrglue.Kind
			message    string
			textOnly   bool // a payload is never invalid-text
		}{
			{"surrogate before empty options", "\xed\xa0\x80", []qrglue.Option{qrglue.WithMinSize(0)}, qrglue.InvalidText, surrogate, true},
			{"invalid UTF-8", "ab\xffc", nil, qrglue.InvalidText, "text is not valid UTF-8 from byte 2", true},
			{"truncated UTF-8", "é\xc3", nil, qrglue.InvalidText, "text is not valid UTF-8 from byte 2", true},
			{"invalid UTF-8 before length", long + "\xff", nil, qrglue.InvalidText, "text is not valid UTF-8 from byte 7090", true},
			{"surrogate before length", "\xed\xbf\xbf" + long, nil, qrglue.InvalidText, surrogate, true},
			{"empty before options", "", []qrglue.Option{qrglue.WithMinSize(0)}, qrglue.EmptyText, emptyText, false},
			// A colour the ABI cannot carry is the host's error, before any of the guest's (docs/contract.md).
			{"a bad colour before empty", "", []qrglue.Option{qrglue.WithMinSize(0), qrglue.WithDark("nope")}, qrglue.InvalidOptions,
				`dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "nope"`, false},
			{"length before options", long, []qrglue.Option{qrglue.WithQuietZone(99)}, qrglue.DataTooLong, dataTooLong, false},
			{"ec-level index", "hi", []qrglue.Option{qrglue.WithECLevel(4), qrglue.WithMinSize(0)}, qrglue.InvalidOptions,
				"ec-level must be 0..=3 (low, medium, quartile, high), got 4", false},
			{"min-size before quiet-zone", "hi", []qrglue.Option{qrglue.WithMinSize(0), qrglue.WithQuietZone(17)}, qrglue.InvalidOptions,
				"min-size must be within 1..=4096, got 0", false},
			{"a bad colour before scale", "hi", []qrglue.Option{qrglue.WithScale(21), qrglue.WithDark("red")}, qrglue.InvalidOptions,
				`dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red"`, false},
			{"scale", "hi", []qrglue.Option{qrglue.WithScale(21)}, qrglue.InvalidOptions, "scale must be within 1..=20, got 21", false},
			{"a bad colour before quiet-zone", "hi", []qrglue.Option{qrglue.WithQuietZone(4294967295), qrglue.WithLight("x")}, qrglue.InvalidOptions,
				`light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "x"`, false},
			{"dark before light", "hi", []qrglue.Option{qrglue.WithDark("#12345"), qrglue.WithLight("white")}, qrglue.InvalidOptions,
				`dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "#12345"`, false},
			{"a bad colour before the symbol options", "hi", []qrglue.Option{qrglue.WithLight("#ggg"), qrglue.WithMask(99)}, qrglue.InvalidOptions,
				`light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "#ggg"`, false},
			{"a colour shown as Rust shows it", "hi", []qrglue.Option{qrglue.WithDark("\"a\\b\"\n\x00é")}, qrglue.InvalidOptions,
				`dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "\"a\\b\"\n\0é"`, false},
			{"same colours", "hi", []qrglue.Option{qrglue.WithDark("#fff"), qrglue.WithLight("#FFFFFFFF")}, qrglue.InvalidOptions,
				"dark and light must be different colours, both are #ffffffff", false},
			{"version and min-version", "hi", []qrglue.Option{qrglue.WithVersion(5), qrglue.WithMinVersion(5)}, qrglue.InvalidOptions,
				"version and min-version exclude each other: give one", false},
			{"micro at high", "1", []qrglue.Option{qrglue.WithMicro(true), qrglue.WithECLevel(qrglue.High)}, qrglue.InvalidOptions,
				"ec-level high is not available in Micro QR (M4 goes up to quartile)", false},
			{"micro with eci", "1", []qrglue.Option{qrglue.WithMicro(true), qrglue.WithECI(true)}, qrglue.InvalidOptions,
				"eci is not available in Micro QR (it has no ECI mode)", false},
			{"options before encoding", strings.Repeat("a", 3000), []qrglue.Option{qrglue.WithMask(8)}, qrglue.InvalidOptions,
				"mask must be within 0..=7, got 8", false},
			{"encoding last", strings.Repeat("a", 3000), nil, qrglue.DataTooLong, atVersion40Low, false},
			{"a fixed version", strings.Repeat("a", 100), []qrglue.Option{qrglue.WithVersion(1)}, qrglue.DataTooLong, atVersion1Low, false},
		} {
			for name, call := range everyCall(g) {
				if tc.textOnly && strings.HasSuffix(name, "-bytes") {
					continue
				}
				t.Run(tc.name+"/"+name, func(t *testing.T) {
					wantQrError(t, call(tc.text, tc.opts...), tc.kind, tc.message)
				})
			}
		}

	})
}

// A payload is never decoded: bytes that are no UTF-8 make a code, and a
// text's UTF-8 bytes make exactly the text's code.
func TestPayloads(t *testing.T) {
	onEveryPath(t, func(t *testing.T, g *qrglue.Generator) {
		binary := []byte{0xff, 0x00, 0xed, 0xa0, 0x80, 0xfe}
		png, err := g.PNGBytes(binary)
		if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG\r\n\x1a\n")) {
			t.Fatalf("PNGBytes(non-UTF-8) = %d bytes, %v", len(png), err)
		}
		const text = "héllo, wörld"
		fromText, err := g.PNG(text, qrglue.WithScale(3))
		if err != nil {
			t.Fatal(err)
		}
		fromBytes, err := g.PNGBytes([]byte(text), qrglue.WithScale(3))
		if err != nil || !bytes.Equal(fromText, fromBytes) {
			t.Fatalf("PNGBytes(UTF-8 of a text) differs from PNG(text): %v", err)
		}
		svgText, _ := g.SVG(text, qrglue.WithTitle("t"))
		svgBytes, err := g.SVGBytes([]byte(text), qrglue.WithTitle("t"))
		if err != nil || svgText != svgBytes || !strings.Contains(svgBytes, "<title>t</title>") {
			t.Fatalf("SVGBytes differs from SVG or has no title: %v", err)
		}
		// nil and empty slices are the empty payload, on every call.
		for _, empty := range [][]byte{nil, {}} {
			_, err := g.PNGBytes(empty)
			wantQrError(t, err, qrglue.EmptyText, emptyText)
			// The host's errors (a string over its bound, a colour) come before the guest's empty-text.
			_, err = g.SVGBytes(empty, qrglue.WithTitle(strings.Repeat("x", 5000)))
			wantQrError(t, err, qrglue.InvalidOptions, "title must be at most 1024 UTF-8 bytes, got 5000")
			_, err = g.MatrixBytes(empty, qrglue.WithDark("bad"))
			wantQrError(t, err, qrglue.InvalidOptions, `dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "bad"`)
			_, err = g.SVGBytes(empty, qrglue.WithTitle("\x07"))
			wantQrError(t, err, qrglue.EmptyText, emptyText)
			_, err = g.TextBytes(empty, qrglue.WithStyle(9))
			wantQrError(t, err, qrglue.EmptyText, emptyText)
		}

	})
}

// Inputs no code can hold are refused before they are copied into the
// guest: its memory does not grow, and no instance is made for them.
func TestHugeInputsStayOutOfTheGuest(t *testing.T) {
	g := newGenerator(t, 1)
	// A call first: the guest's heap takes its first pages on its first allocations.
	if _, err := g.SVG("hi", qrglue.WithTitle("t")); err != nil {
		t.Fatal(err)
	}
	before, err := g.MemoryPages()
	if err != nil {
		t.Fatal(err)
	}
	huge := strings.Repeat("7", 64<<20) // as large as the guest's whole memory
	_, err = g.PNG(huge)
	wantQrError(t, err, qrglue.DataTooLong, dataTooLong)
	_, err = g.SVG(huge + "\xed\xa0\x80")
	wantQrError(t, err, qrglue.InvalidText, surrogate)
	_, err = g.PNGBytes([]byte(huge))
	wantQrError(t, err, qrglue.DataTooLong, dataTooLong)
	_, err = g.SVG("hi", qrglue.WithTitle(huge))
	wantQrError(t, err, qrglue.InvalidOptions, "title must be at most 1024 UTF-8 bytes, got 67108864")
	after, err := g.MemoryPages()
	if err != nil {
		t.Fatal(err)
	}
	if after != before || g.Instances() != 1 {
		t.Fatalf("guest memory %d -> %d pages, %d instances: a huge input entered the guest", before, after, g.Instances())
	}
}

// The SVG options: the guest's own refusals, and the host's for strings past
// their bounds (never copied in), in their place: after every other option.
func TestSVGOptionRefusals(t *testing.T) {
	onEveryPath(t, func(t *testing.T, g *qrglue.Generator) {
		for _, tc := range []struct {
			name    string
			text    string
			opts    []qrglue.SVGOption
			kind    qrglue.Kind
			message string
		}{
			{"title NUL", "hi", []qrglue.SVGOption{qrglue.WithTitle("a\x00")}, qrglue.InvalidOptions,
				"title holds U+0000 at byte 1, which XML 1.0 cannot carry"},
			{"title not UTF-8", "hi", []qrglue.SVGOption{qrglue.WithTitle("ab\xff")}, qrglue.InvalidOptions,
				"title is not valid UTF-8 from byte 2"},
			{"class surrogate", "hi", []qrglue.SVGOption{qrglue.WithClass("\xed\xa0\x80")}, qrglue.InvalidOptions,
				"class contains a lone surrogate (not encodable as UTF-8)"},
			{"class empty", "hi", []qrglue.SVGOption{qrglue.WithClass("")}, qrglue.InvalidOptions,
				`class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got ""`},
			{"title too long", "hi", []qrglue.SVGOption{qrglue.WithTitle(strings.Repeat("é", 513))}, qrglue.InvalidOptions,
				"title must be at most 1024 UTF-8 bytes, got 1026"},
			{"long title: its length first (the host's)", "hi", []qrglue.SVGOption{qrglue.WithTitle(strings.Repeat("a", 2000) + "\xff")},
				qrglue.InvalidOptions, "title must be at most 1024 UTF-8 bytes, got 2001"},
			{"class too long", "hi", []qrglue.SVGOption{qrglue.WithClass(strings.Repeat("c", 257))}, qrglue.InvalidOptions,
				`class must be at most 256 UTF-8 bytes, got 257`},
			// A string over its bound is the host's error (never copied in): before any of the guest's.
			{"a long class before the title's check", "hi", []qrglue.SVGOption{qrglue.WithTitle("\x07"), qrglue.WithClass(strings.Repeat("c", 300))},
				qrglue.InvalidOptions, "class must be at most 256 UTF-8 bytes, got 300"},
			{"a long title before the options' checks", "hi", []qrglue.SVGOption{qrglue.WithTitle(strings.Repeat("t", 2000)), qrglue.WithMinSize(0)},
				qrglue.InvalidOptions, "title must be at most 1024 UTF-8 bytes, got 2000"},
			{"options before the title's check", "hi", []qrglue.SVGOption{qrglue.WithTitle("\x07"), qrglue.WithMinSize(0)},
				qrglue.InvalidOptions, "min-size must be within 1..=4096, got 0"},
			{"symbol options before the class's check", "hi", []qrglue.SVGOption{qrglue.WithClass("a  b"), qrglue.WithMask(9)},
				qrglue.InvalidOptions, "mask must be within 0..=7, got 9"},
			{"same colours before the title's check", "hi", []qrglue.SVGOption{qrglue.WithTitle("\x07"), qrglue.WithDark("#fff")},
				qrglue.InvalidOptions, "dark and light must be different colours, both are #ffffffff"},
			{"a long title before empty", "", []qrglue.SVGOption{qrglue.WithTitle(strings.Repeat("t", 2000))}, qrglue.InvalidOptions,
				"title must be at most 1024 UTF-8 bytes, got 2000"},
			{"empty before the title's check", "", []qrglue.SVGOption{qrglue.WithTitle("\x07")}, qrglue.EmptyText, emptyText},
			{"a long title before encoding", strings.Repeat("a", 3000), []qrglue.SVGOption{qrglue.WithTitle(strings.Repeat("t", 2000))},
				qrglue.InvalidOptions, "title must be at most 1024 UTF-8 bytes, got 2000"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				_, err := g.SVG(tc.text, tc.opts...)
				wantQrError(t, err, tc.kind, tc.message)
			})
		}
		// Within their bounds, both strings pass through: escaped title, class as given.
		svg, err := g.SVG("hi", qrglue.WithTitle(strings.Repeat("<", 1024)), qrglue.WithClass(strings.Repeat("c", 256)),
			qrglue.WithViewBoxOnly(true))
		if err != nil || !strings.Contains(svg, "<title>&lt;&lt;") || !strings.Contains(svg, `class="ccc`) || strings.Contains(svgTag(svg), "width=") {
			t.Fatalf("SVG with options at their bounds: %v\n%.300s", err, svg)
		}

	})
}

func TestTextStyleAndProbeBounds(t *testing.T) {
	g := newGenerator(t, 1)
	_, err := g.Text("hi", qrglue.WithStyle(3), qrglue.WithMinSize(0))
	wantQrError(t, err, qrglue.InvalidOptions, "min-size must be within 1..=4096, got 0")
	_, err = g.Text("hi", qrglue.WithStyle(3))
	wantQrError(t, err, qrglue.InvalidOptions, "text-style must be 0..=2 (half-blocks, half-blocks-inverted, ascii), got 3")
	_, err = g.PNGRepeat("hi", qrglue.MaxPNGRepeatTimes+1)
	wantQrError(t, err, qrglue.InvalidOptions, "times must be within 0..=50, got 51")
	n, err := g.PNGRepeat("https://github.com/pretzelhammer/rust-blog", 2)
	png, _ := g.PNG("https://github.com/pretzelhammer/rust-blog")
	if err != nil || int(n) != len(png) {
		t.Fatalf("PNGRepeat = %d, %v; the PNG has %d bytes", n, err, len(png))
	}
}

func TestDataURLsAndMatrix(t *testing.T) {
	onEveryPath(t, func(t *testing.T, g *qrglue.Generator) {
		png, _ := g.PNG("hello")
		url, err := g.PNGDataURL("hello")
		if err != nil || url != "data:image/png;base64,"+b64(png) {
			t.Fatalf("PNGDataURL: %v %.60s", err, url)
		}
		svg, _ := g.SVG("hello", qrglue.WithClass("qr"))
		url, err = g.SVGDataURL("hello", qrglue.WithClass("qr"))
		if err != nil || url != "data:image/svg+xml;base64,"+b64([]byte(svg)) {
			t.Fatalf("SVGDataURL: %v %.60s", err, url)
		}
		_, err = g.PNGDataURL("")
		wantQrError(t, err, qrglue.EmptyText, emptyText)

		m, err := g.Matrix("hello", qrglue.WithMicro(true))
		if err != nil {
			t.Fatal(err)
		}
		if m.Width < 11 || m.Width > 17 || len(m.Modules) != (m.Width*m.Width+7)/8 {
			t.Fatalf("a Micro QR matrix of width %d with %d bytes", m.Width, len(m.Modules))
		}
		// A finder pattern's corner is dark and the separator beside it light, in any code.
		rows := m.Rows()
		if !m.IsDark(0, 0) || m.IsDark(7, 0) || !rows[0][0] || rows[0][7] || m.IsDark(-1, 0) {
			t.Fatalf("finder pattern not where a QR code has it: %v", rows[0])
		}
		// The ASCII text draws exactly the matrix, quiet zone around it.
		text, err := g.Text("hello", qrglue.WithMicro(true), qrglue.WithStyle(qrglue.ASCII), qrglue.WithQuietZone(0))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		for y, line := range lines {
			for x := 0; x < m.Width; x++ {
				if (line[2*x:2*x+2] == "##") != m.IsDark(x, y) {
					t.Fatalf("text and matrix differ at (%d, %d)", x, y)
				}
			}
		}

	})
}

func TestClosedGenerator(t *testing.T) {
	g, err := qrglue.NewGenerator(1)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := g.PNG("hi"); !errors.Is(err, qrglue.ErrClosed) {
		t.Fatalf("PNG after Close: %v", err)
	}
}

// svgTag is the document's <svg ...> start tag.
func svgTag(svg string) string {
	start := strings.Index(svg, "<svg")
	return svg[start : start+strings.Index(svg[start:], ">")+1]
}
