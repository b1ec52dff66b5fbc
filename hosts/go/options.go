package qrglue

import "strconv"

// ECLevel is the error-correction level (WIT `ec-level`); its value is the
// index the raw ABI passes. The zero value is Low, the contract's default.
// A value past High reaches the guest, which refuses it (invalid-options).
type ECLevel uint32

// The levels, in WIT order: about 7, 15, 25 and 30 % of the code can be lost.
const (
	Low ECLevel = iota
	Medium
	Quartile
	High
)

// String returns the level's WIT name ("low", "medium", "quartile", "high").
func (l ECLevel) String() string {
	if int(l) < len(ecLevelNames) {
		return ecLevelNames[l]
	}
	return "ECLevel(" + uitoa(uint32(l)) + ")"
}

// TextStyle is how Text draws the modules (WIT `text-style`). The zero value
// is HalfBlocks, the contract's default.
type TextStyle uint32

// The styles, in WIT order.
const (
	// HalfBlocks: ink on the dark modules (a light background, or a file).
	HalfBlocks TextStyle = iota
	// HalfBlocksInverted: ink on the light modules (a dark terminal).
	HalfBlocksInverted
	// ASCII: "##" per dark module.
	ASCII
)

// TextStyles lists every style, in WIT order.
var TextStyles = []TextStyle{HalfBlocks, HalfBlocksInverted, ASCII}

// String returns the style's WIT name ("half-blocks", "half-blocks-inverted", "ascii").
func (s TextStyle) String() string {
	if int(s) < len(textStyleNames) {
		return textStyleNames[s]
	}
	return "TextStyle(" + uitoa(uint32(s)) + ")"
}

// settings, newSettings and the With* options are generated (options_gen.go)
// from the contract's option table.

// Option is an option every call takes (PNG, SVG, Matrix, Text and their
// variants). The guest checks each one, in the contract's order.
type Option interface {
	SVGOption
	TextOption
	apply(*settings)
}

// SVGOption is an option of SVG and SVGBytes: any Option, or the SVG
// options (WithViewBoxOnly, WithTitle, WithClass).
type SVGOption interface{ applySVG(*settings) }

// TextOption is an option of Text and TextBytes: any Option, or WithStyle.
type TextOption interface{ applyText(*settings) }

type common func(*settings)

func (o common) apply(s *settings)     { o(s) }
func (o common) applySVG(s *settings)  { o(s) }
func (o common) applyText(s *settings) { o(s) }

type svgOnly func(*settings)

func (o svgOnly) applySVG(s *settings) { o(s) }

type textOnly func(*settings)

func (o textOnly) applyText(s *settings) { o(s) }

func uitoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
