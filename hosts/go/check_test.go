package qrglue

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// The host's own checks restate the guest's for inputs too large to copy in;
// here they are held to the guest's answers for the same mistakes in inputs
// small enough to send.

var badUTF8 = []string{
	"\xff", "a\xfe", "ab\xc3", "é\xc3(", "\xed\xa0\x80", "ok\xed\xbf\xbfok", "\xed\x9f\xbf\xed\xa0\x80",
	"\xf4\x90\x80\x80", "\xc0\xaf", "\xe2\x82", "🦀\xf0\x9f\xa6", "\xed\xa0", "x\xed\xa0\x80\xed\xb0\x80",
}

func TestTextFromUTF8MatchesTheGuest(t *testing.T) {
	g, err := NewGenerator(1)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, text := range badUTF8 {
		_, guest := g.PNG(text) // short: the guest checks it
		host := textFromUTF8(text)
		if guest == nil || host == nil || guest.Error() != host.Error() {
			t.Errorf("%q: guest %v, host %v", text, guest, host)
		}
		var qrErr *QrError
		if !errors.As(host, &qrErr) || qrErr.Kind != InvalidText {
			t.Errorf("%q: host gives %v, not invalid-text", text, host)
		}
	}
	if err := textFromUTF8("héllo 🦀 \uFFFD"); err != nil {
		t.Errorf("valid UTF-8 refused: %v", err)
	}
}

func TestSVGRefusalMatchesTheGuest(t *testing.T) {
	g, err := NewGenerator(1)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	titles := append([]string{"", "ok", "a\x00b", "tab\tcr\rlf\n", "\x1f", "é\x08", "\uFFFE", "\uFFFF", "\U0010FFFF",
		strings.Repeat("é", 512)}, badUTF8...)
	classes := append([]string{"", "a", "a b", "a  b", " a", "a ", "a-b_c9", "a.b", "é", "a\x00", "\"q\"\\",
		"\u0301x", "x\u200d", "\ufeff", "\u00a0", "\u2028", "\x1b[0m", "🦀", "\U000E0001", "\u0378",
		strings.Repeat("c", 256)}, badUTF8...)
	for _, title := range titles {
		for _, class := range []string{"qr", classes[len(classes)/2]} {
			compareSVG(t, g, title, class)
		}
	}
	for _, class := range classes {
		compareSVG(t, g, "title", class)
	}
}

func compareSVG(t *testing.T, g *Generator, title, class string) {
	t.Helper()
	s := newSettings()
	s.hasTitle, s.title, s.hasClass, s.class = true, title, true, class
	host := svgRefusal(&s)
	_, err := g.SVG("hi", WithTitle(title), WithClass(class))
	guest := ""
	if err != nil {
		guest = err.Error()
	}
	if host != guest {
		t.Errorf("title %q, class %q:\nguest %q\n host %q", title, class, guest, host)
	}
}

func TestParseColor(t *testing.T) {
	for value, want := range map[string]uint32{
		"#000": 0x000000ff, "#fFf": 0xffffffff, "#1234": 0x11223344, "#0a0b0c": 0x0a0b0cff, "#00008080": 0x00008080,
	} {
		if got, ok := parseColor(value); !ok || got != want {
			t.Errorf("parseColor(%q) = %08x, %v; want %08x", value, got, ok, want)
		}
	}
	for _, bad := range []string{"", "#", "000", "#00", "#00000", "#0000000", "#000000000", "#ggg", " #000", "#000\n", "#０００"} {
		if _, ok := parseColor(bad); ok {
			t.Errorf("parseColor(%q) accepted", bad)
		}
	}
	// The guest's answer for equal colours shows the parsed value: the two readings agree.
	g, err := NewGenerator(1)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []string{"#abc", "#ABCD", "#a1b2c3", "#a1b2c3d4"} {
		rgba, _ := parseColor(c)
		_, err := g.PNG("x", WithDark(c), WithLight(c))
		if want := fmt.Sprintf("dark and light must be different colours, both are #%08x", rgba); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", c, err, want)
		}
	}
}

// The test's oracle for the guest's reading and validation of the SVG
// strings (guest/raw/src/lib.rs, SvgOptions::validate): the host checks
// none of it (docs/contract.md), so it lives here, held to the guest's answers.

// svgRefusal is the guest's reading and validation of the SVG strings, for
// a title or class over its bound (the tests hold it to the guest's answers
// for strings within their bounds); "" when both pass.
func svgRefusal(s *settings) string {
	for _, option := range []struct {
		name, value string
		given       bool
	}{{"title", s.title, s.hasTitle}, {"class", s.class, s.hasClass}} {
		if at, ok := firstInvalidUTF8(option.value); option.given && !ok {
			if isEncodedSurrogate(option.value[at:]) {
				return fmt.Sprintf(optionLoneSurrogateTemplate, option.name)
			}
			return fmt.Sprintf(optionNotTextTemplate, option.name, at)
		}
	}
	if s.hasTitle {
		if len(s.title) > svgTitleMaxBytes {
			return fmt.Sprintf(tooLongTemplate, "title", svgTitleMaxBytes, len(s.title))
		}
		for i, r := range s.title {
			if !isXMLChar(r) {
				return fmt.Sprintf(notXMLCharTemplate, "title", r, i)
			}
		}
	}
	if s.hasClass && len(s.class) > svgClassMaxBytes {
		return fmt.Sprintf(tooLongTemplate, "class", svgClassMaxBytes, len(s.class))
	}
	if s.hasClass && !isClassNames(s.class) {
		return fmt.Sprintf(classTemplate, rustDebug(s.class))
	}
	return ""
}

// isClassNames: CSS class names (ASCII letters, digits, - and _) separated by
// single spaces, 1..=256 bytes.
func isClassNames(class string) bool {
	if len(class) > svgClassMaxBytes {
		return false
	}
	for _, name := range strings.Split(class, " ") {
		if name == "" {
			return false
		}
		for i := 0; i < len(name); i++ {
			c := name[i]
			if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return false
			}
		}
	}
	return true
}

// isXMLChar is XML 1.0's Char production for a character UTF-8 can carry.
func isXMLChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || (r >= 0x20 && r != 0xFFFE && r != 0xFFFF)
}
