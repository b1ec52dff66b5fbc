package qrglue

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// What the host checks itself: only what its boundary cannot carry into the
// guest. Everything else (ranges, equal colours, symbol options, the SVG
// strings' contents, UTF-8 of a text that fits) is the guest's to check, so
// its messages are the guest's own.

// textFromUTF8 is the guest's `text_from_utf8` (guest/core/src/lib.rs),
// message for message: a Go string may hold any bytes, and an encoded UTF-16
// surrogate (ED A0..BF xx, WTF-8's lone surrogate) gets the message every
// host gives a lone surrogate. Run here only for a text too long to enter
// the guest, whose invalid-text still comes before data-too-long.
func textFromUTF8(text string) error {
	at, ok := firstInvalidUTF8(text)
	if ok {
		return nil
	}
	if isEncodedSurrogate(text[at:]) {
		return &QrError{InvalidText, loneSurrogateMessage}
	}
	return &QrError{InvalidText, fmt.Sprintf(notUTF8Template, at)}
}

// parseColor is the core's Rgba::from_hex: '#' then 3, 4, 6 or 8 ASCII hex
// digits, either case, as 0xRRGGBBAA (#rgb(a) digits doubled, alpha ff if absent).
func parseColor(value string) (uint32, bool) {
	if len(value) < 1 || value[0] != '#' {
		return 0, false
	}
	digits := value[1:]
	switch len(digits) {
	case 3, 4, 6, 8:
	default:
		return 0, false
	}
	var rgba uint32
	for i := 0; i < len(digits); i++ {
		d, ok := hexDigit(digits[i])
		if !ok {
			return 0, false
		}
		if len(digits) <= 4 {
			rgba = rgba<<8 | d<<4 | d
		} else {
			rgba = rgba<<4 | d
		}
	}
	if len(digits) == 3 || len(digits) == 6 {
		rgba = rgba<<8 | 0xff
	}
	return rgba, true
}

func hexDigit(c byte) (uint32, bool) {
	switch {
	case '0' <= c && c <= '9':
		return uint32(c - '0'), true
	case 'a' <= c && c <= 'f':
		return uint32(c-'a') + 10, true
	case 'A' <= c && c <= 'F':
		return uint32(c-'A') + 10, true
	}
	return 0, false
}

// rustDebug quotes a string as Rust's `{:?}` does, which is how the Rust CLI
// and the guest show a colour or a class in a message: double quotes, `"`
// and `\` backslashed, NUL, tab, CR and LF as \0 \t \r \n, and \u{hex} for
// what Rust does not print as it is (controls, separators but the space,
// unassigned code points, combining marks). Exact for ASCII; for other
// characters it follows Go's Unicode tables, which may lag or lead Rust's.
// Bytes that are not UTF-8 (no Rust string has them) show as U+FFFD.
func rustDebug(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case 0:
			b.WriteString(`\0`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		case '\n':
			b.WriteString(`\n`)
		case '\\':
			b.WriteString(`\\`)
		case '"':
			b.WriteString(`\"`)
		default:
			if r == ' ' || (unicode.IsPrint(r) && !unicode.In(r, unicode.Mn, unicode.Me)) {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(&b, `\u{%x}`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// oversizedSVGRefusal is the host's error for a title or class over its
// bound, which is never copied into the guest (the title first, in the
// guest's words); "" when neither is over its bound.
func oversizedSVGRefusal(s *settings) string {
	if s.hasTitle && len(s.title) > svgTitleMaxBytes {
		return fmt.Sprintf(tooLongTemplate, "title", svgTitleMaxBytes, len(s.title))
	}
	if s.hasClass && len(s.class) > svgClassMaxBytes {
		return fmt.Sprintf(tooLongTemplate, "class", svgClassMaxBytes, len(s.class))
	}
	return ""
}

// firstInvalidUTF8 is Rust's Utf8Error::valid_up_to: the length of the
// longest valid prefix; ok when the whole string is valid.
func firstInvalidUTF8(s string) (at int, ok bool) {
	if utf8.ValidString(s) {
		return len(s), true
	}
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i, false
		}
		i += size
	}
	return len(s), true
}

func isEncodedSurrogate(s string) bool {
	return len(s) >= 3 && s[0] == 0xED && s[1] >= 0xA0 && s[1] <= 0xBF && s[2] >= 0x80 && s[2] <= 0xBF
}
