// Package corpus reads the conformance corpus (tests/vectors, format in
// tests/conformance/README.md) and computes a case's outcome on the Go
// host: shared by the golden test and the conformance runner, so there is
// one loader and one mapping from WIT option names to options.
package corpus

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"unicode/utf16"

	"qrglue.dev/qrglue"
)

// Case is one corpus case as the Go API takes it.
type Case struct {
	ID string
	// Text is the case's text; a lone surrogate of the JSON is kept as
	// WTF-8 (ED A0..BF xx), which the guest refuses as every host does.
	Text string
	// Data is a binary payload (data_hex); Payload says which of the two.
	Data    []byte
	Payload bool
	Options []qrglue.Option
	SVG     []qrglue.SVGOption
}

// Dir is the corpus folder: $QRGLUE_VECTORS_DIR, else tests/vectors at the
// repository's root (found from this file's place in it).
func Dir() string {
	if dir := os.Getenv("QRGLUE_VECTORS_DIR"); dir != "" {
		return dir
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "tests", "vectors")
}

type rawCase struct {
	ID         string          `json:"id"`
	Text       json.RawMessage `json:"text"`
	TextRepeat *struct {
		Unit  json.RawMessage `json:"unit"`
		Count int             `json:"count"`
	} `json:"text_repeat"`
	DataHex *string                    `json:"data_hex"`
	Options map[string]json.RawMessage `json:"options"`
}

// Load reads dir/cases.json. An option it does not know is an error, not
// something to skip.
func Load(dir string) ([]Case, error) {
	raw, err := os.ReadFile(filepath.Join(dir, "cases.json"))
	if err != nil {
		return nil, err
	}
	var file struct {
		Cases []rawCase `json:"cases"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		return nil, err
	}
	cases := make([]Case, 0, len(file.Cases))
	for _, rc := range file.Cases {
		c, err := rc.parse()
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", rc.ID, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func (rc rawCase) parse() (Case, error) {
	c := Case{ID: rc.ID}
	switch {
	case rc.DataHex != nil:
		data, err := hex.DecodeString(*rc.DataHex)
		if err != nil {
			return c, err
		}
		c.Data, c.Payload = data, true
	case rc.TextRepeat != nil:
		unit, err := unquote(rc.TextRepeat.Unit)
		if err != nil {
			return c, err
		}
		c.Text = strings.Repeat(unit, rc.TextRepeat.Count)
	default:
		text, err := unquote(rc.Text)
		if err != nil {
			return c, err
		}
		c.Text = text
	}
	for name, value := range rc.Options {
		if err := c.option(name, value); err != nil {
			return c, fmt.Errorf("option %s: %w", name, err)
		}
	}
	return c, nil
}

var ecLevels = map[string]qrglue.ECLevel{"low": qrglue.Low, "medium": qrglue.Medium, "quartile": qrglue.Quartile, "high": qrglue.High}

func (c *Case) option(name string, value json.RawMessage) error {
	// The options every call takes, by the contract's table (qrglue.CLIFlags), parsed by kind.
	for _, f := range qrglue.CLIFlags {
		if f.Name != name || f.Command != "" {
			continue
		}
		var parsed any
		switch f.Kind {
		case "u32", "option-u32":
			n, err := strconv.ParseUint(string(value), 10, 32)
			if err != nil {
				return err
			}
			parsed = uint32(n)
		case "bool":
			var on bool
			if err := json.Unmarshal(value, &on); err != nil {
				return err
			}
			parsed = on
		case "ec-level":
			level, err := unquote(value)
			if err != nil {
				return err
			}
			ec, ok := ecLevels[level]
			if !ok {
				return fmt.Errorf("unknown level %q", level)
			}
			parsed = ec
		default:
			s, err := unquote(value)
			if err != nil {
				return err
			}
			parsed = s
		}
		c.Options = append(c.Options, qrglue.NamedOption(name, parsed))
		return nil
	}
	svgText := func(with func(string) qrglue.SVGOption) error {
		s, err := unquote(value)
		if err == nil {
			c.SVG = append(c.SVG, with(s))
		}
		return err
	}
	switch name {
	case "view-box-only":
		var on bool
		if err := json.Unmarshal(value, &on); err != nil {
			return err
		}
		c.SVG = append(c.SVG, qrglue.WithViewBoxOnly(on))
		return nil
	case "title":
		return svgText(qrglue.WithTitle)
	case "class":
		return svgText(qrglue.WithClass)
	}
	return errors.New("unknown option")
}

// unquote decodes a JSON string as encoding/json does, except that a lone
// surrogate escape (\ud800) becomes its WTF-8 bytes instead of U+FFFD: the
// corpus uses them to test invalid-text, and a Go string can carry them.
func unquote(raw json.RawMessage) (string, error) {
	s := string(raw)
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", fmt.Errorf("not a JSON string: %.40s", s)
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		if i+1 >= len(s) {
			return "", errors.New("a JSON string ends in a backslash")
		}
		switch s[i+1] {
		case '"', '\\', '/':
			b.WriteByte(s[i+1])
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := hex4(s[i+2:])
			if !ok {
				return "", errors.New("a bad \\u escape")
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if r < 0xDC00 && strings.HasPrefix(s[i:], `\u`) {
					if low, ok := hex4(s[i+2:]); ok && low >= 0xDC00 && low <= 0xDFFF {
						b.WriteRune(utf16.DecodeRune(r, low))
						i += 6
						continue
					}
				}
				// WTF-8: the surrogate's three bytes, as UTF-8 would encode it were it allowed.
				b.Write([]byte{0xE0 | byte(r>>12), 0x80 | byte(r>>6)&0x3F, 0x80 | byte(r)&0x3F})
				continue
			}
			b.WriteRune(r)
			continue
		default:
			return "", fmt.Errorf("a bad escape \\%c", s[i+1])
		}
		i += 2
	}
	out := b.String()
	return out, nil
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(n), err == nil
}

// Outcome is a case's outcome as tests/conformance/README.md defines it:
// the digests of every output, or the one error they all give.
type Outcome map[string]any

// Run computes a case's outcome on g: png, svg (with the case's SVG
// options), matrix and text in every style; if they do not all give the
// same error, the "outputs-disagree" marker.
func Run(g *qrglue.Generator, c *Case) Outcome {
	svgOptions := make([]qrglue.SVGOption, 0, len(c.Options)+len(c.SVG))
	textOptions := make([]qrglue.TextOption, 0, len(c.Options)+1)
	for _, o := range c.Options {
		svgOptions = append(svgOptions, o)
		textOptions = append(textOptions, o)
	}
	svgOptions = append(svgOptions, c.SVG...)
	var (
		png    []byte
		svg    string
		matrix *qrglue.Matrix
		errs   []error
	)
	texts := map[string]string{}
	if c.Payload {
		var err error
		png, err = g.PNGBytes(c.Data, c.Options...)
		errs = append(errs, err)
		svg, err = g.SVGBytes(c.Data, svgOptions...)
		errs = append(errs, err)
		matrix, err = g.MatrixBytes(c.Data, c.Options...)
		errs = append(errs, err)
		for _, style := range qrglue.TextStyles {
			texts[style.String()], err = g.TextBytes(c.Data, append(textOptions, qrglue.WithStyle(style))...)
			errs = append(errs, err)
		}
	} else {
		var err error
		png, err = g.PNG(c.Text, c.Options...)
		errs = append(errs, err)
		svg, err = g.SVG(c.Text, svgOptions...)
		errs = append(errs, err)
		matrix, err = g.Matrix(c.Text, c.Options...)
		errs = append(errs, err)
		for _, style := range qrglue.TextStyles {
			texts[style.String()], err = g.Text(c.Text, append(textOptions, qrglue.WithStyle(style))...)
			errs = append(errs, err)
		}
	}
	if errors.Join(errs...) == nil {
		textDigests := map[string]any{}
		for style, text := range texts {
			textDigests[style] = digest([]byte(text))
		}
		width := binary.LittleEndian.AppendUint32(nil, uint32(matrix.Width))
		return Outcome{"png_sha256": digest(png), "png_bytes": len(png), "svg_sha256": digest([]byte(svg)),
			"matrix_sha256": digest(append(width, matrix.Modules...)), "text_sha256": textDigests}
	}
	first := errorOutcome(errs[0])
	for _, err := range errs[1:] {
		if fmt.Sprint(errorOutcome(err)) != fmt.Sprint(first) {
			return Outcome{"error": "outputs-disagree"}
		}
	}
	return first
}

func errorOutcome(err error) Outcome {
	var qrErr *qrglue.QrError
	if errors.As(err, &qrErr) {
		return Outcome{"error": string(qrErr.Kind), "message": qrErr.Message}
	}
	if err == nil {
		return Outcome{"error": "no error"}
	}
	return Outcome{"error": fmt.Sprintf("unexpected %T: %v", err, err)}
}

func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
