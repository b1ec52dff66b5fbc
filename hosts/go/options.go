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

func (s TextStyle) String() string {
	if int(s) < len(textStyleNames) {
		return textStyleNames[s]
	}
	return "TextStyle(" + uitoa(uint32(s)) + ")"
}

// settings is every option of a call; newSettings gives the contract's
// defaults, which the options change.
type settings struct {
	ec                    ECLevel
	minSize, quietZone    uint32
	hasScale              bool
	scale                 uint32
	dark, light           string
	micro, boostEC, eci   bool
	hasVersion, hasMinVer bool
	hasMask               bool
	version, minVer, mask uint32
	viewBoxOnly           bool
	hasTitle, hasClass    bool
	title, class          string
	style                 TextStyle
}

func newSettings() settings {
	return settings{minSize: DefaultMinSize, quietZone: DefaultQuietZone, dark: DefaultDark, light: DefaultLight}
}

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

// WithECLevel sets the error-correction level (default Low).
func WithECLevel(level ECLevel) Option { return common(func(s *settings) { s.ec = level }) }

// WithMinSize sets the minimum image width in pixels, 1..=4096 (default 200).
func WithMinSize(pixels uint32) Option { return common(func(s *settings) { s.minSize = pixels }) }

// WithQuietZone sets the margin in modules, 0..=16 (default 4).
func WithQuietZone(modules uint32) Option { return common(func(s *settings) { s.quietZone = modules }) }

// WithScale sets the pixels per module, 1..=20; it sizes the image instead
// of the minimum size (default: none).
func WithScale(pixels uint32) Option {
	return common(func(s *settings) { s.hasScale, s.scale = true, pixels })
}

// WithDark sets the dark modules' colour: #rgb, #rgba, #rrggbb or #rrggbbaa
// (default #000000ff).
func WithDark(color string) Option { return common(func(s *settings) { s.dark = color }) }

// WithLight sets the light modules' and quiet zone's colour (default
// #ffffffff; #ffffff00 is transparent). It must differ from the dark one.
func WithLight(color string) Option { return common(func(s *settings) { s.light = color }) }

// WithMicro asks for a Micro QR code (M1..M4), for short texts.
func WithMicro(on bool) Option { return common(func(s *settings) { s.micro = on }) }

// WithVersion asks for exactly this version: 1..=40, 1..=4 with Micro.
func WithVersion(version uint32) Option {
	return common(func(s *settings) { s.hasVersion, s.version = true, version })
}

// WithMinVersion asks for at least this version (same bounds; not with WithVersion).
func WithMinVersion(version uint32) Option {
	return common(func(s *settings) { s.hasMinVer, s.minVer = true, version })
}

// WithMask asks for this mask pattern: 0..=7, 0..=3 with Micro (default: the best).
func WithMask(mask uint32) Option {
	return common(func(s *settings) { s.hasMask, s.mask = true, mask })
}

// WithBoostEC raises the error-correction level as far as the version still
// holds the text.
func WithBoostEC(on bool) Option { return common(func(s *settings) { s.boostEC = on }) }

// WithECI precedes the data with ECI designator 26 (UTF-8), so that readers
// decode its bytes as UTF-8 (12 bits more; not with Micro).
func WithECI(on bool) Option { return common(func(s *settings) { s.eci = on }) }

// WithViewBoxOnly leaves out the SVG's width and height: the document scales
// to the box it is placed in.
func WithViewBoxOnly(on bool) SVGOption { return svgOnly(func(s *settings) { s.viewBoxOnly = on }) }

// WithTitle adds a <title>, the code's accessible name: at most 1024 UTF-8
// bytes of characters XML 1.0 can carry; escaped.
func WithTitle(title string) SVGOption {
	return svgOnly(func(s *settings) { s.hasTitle, s.title = true, title })
}

// WithClass sets the <svg> element's class: CSS class names (ASCII letters,
// digits, - and _) separated by single spaces, 1..=256 bytes.
func WithClass(class string) SVGOption {
	return svgOnly(func(s *settings) { s.hasClass, s.class = true, class })
}

// WithStyle sets how Text draws the modules (default HalfBlocks).
func WithStyle(style TextStyle) TextOption { return textOnly(func(s *settings) { s.style = style }) }

func uitoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
