package qrglue

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The constants this package restates are the contract's: held equal to
// target/contract.json, which `just contract` generates from
// guest/core/src/contract.rs (`just test-go` makes it first).
func TestConstantsMatchTheContract(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "target", "contract.json"))
	if err != nil {
		t.Fatalf("%v (run `just contract`)", err)
	}
	var c struct {
		ECLevels     []string          `json:"ec_levels"`
		TextStyles   []string          `json:"text_styles"`
		Defaults     map[string]any    `json:"defaults"`
		Bounds       map[string][2]int `json:"bounds"`
		MaxTextBytes int               `json:"max_text_bytes"`
		MaxRepeat    int               `json:"max_png_repeat_times"`
		ErrorKinds   []string          `json:"error_kinds"`
		Messages     map[string]string `json:"messages"`
		RawABI       struct {
			Version     int               `json:"version"`
			RecordBytes int               `json:"record_bytes"`
			StatusCodes map[string]uint32 `json:"status_codes"`
			SymbolFlags map[string]int    `json:"symbol_flags"`
			SVGFlags    map[string]int    `json:"svg_flags"`
		} `json:"raw_abi"`
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: this package has %v, the contract %v", what, got, want)
		}
	}
	check("ec levels", ecLevelNames[:], c.ECLevels)
	check("text styles", textStyleNames[:], c.TextStyles)
	check("default ec-level", Low.String(), c.Defaults["ec-level"])
	check("default text-style", HalfBlocks.String(), c.Defaults["text-style"])
	check("default min-size", float64(DefaultMinSize), c.Defaults["min-size"])
	check("default quiet-zone", float64(DefaultQuietZone), c.Defaults["quiet-zone"])
	check("default dark", DefaultDark, c.Defaults["dark"])
	check("default light", DefaultLight, c.Defaults["light"])
	check("title bound", svgTitleMaxBytes, c.Bounds["svg-title-bytes"][1])
	check("class bound", svgClassMaxBytes, c.Bounds["svg-class-bytes"][1])
	check("max text bytes", MaxTextBytes, c.MaxTextBytes)
	check("max png-repeat times", MaxPNGRepeatTimes, c.MaxRepeat)
	check("error kinds", []string{string(EmptyText), string(InvalidText), string(DataTooLong), string(InvalidOptions)}, c.ErrorKinds)
	for kind, code := range c.RawABI.StatusCodes {
		check("raw status "+kind, string(rawStatusKinds[code]), kind)
	}
	check("raw ABI version", rawABIVersion, c.RawABI.Version)
	check("raw record bytes", rawRecordBytes, c.RawABI.RecordBytes)
	check("symbol flags", map[string]int{"micro": symbolMicro, "boost-ec": symbolBoostEC, "has-version": symbolHasVersion,
		"has-min-version": symbolHasMinVersion, "has-mask": symbolHasMask, "eci": symbolECI}, c.RawABI.SymbolFlags)
	check("svg flags", map[string]int{"view-box-only": svgViewBoxOnly, "has-title": svgHasTitle, "has-class": svgHasClass},
		c.RawABI.SVGFlags)

	// Messages: this package's format strings, filled in, against the
	// contract's templates filled in with the same values.
	fill := func(template string, pairs ...string) string {
		return strings.NewReplacer(pairs...).Replace(template)
	}
	m := c.Messages
	check("empty-text", emptyTextMessage, m["empty-text"])
	check("data-too-long", dataTooLongMessage, m["data-too-long"])
	check("lone-surrogate", loneSurrogateMessage, m["lone-surrogate"])
	check("not-utf8", fmt.Sprintf(notUTF8Template, 7), fill(m["not-utf8"], "{index}", "7"))
	check("color", fmt.Sprintf(colorTemplate, "dark", `"x"`), fill(m["color"], "{option}", "dark", "{value}", `"x"`))
	check("too-long", fmt.Sprintf(tooLongTemplate, "title", 1024, 2000),
		fill(m["too-long"], "{option}", "title", "{max}", "1024", "{value}", "2000"))
	check("not-xml-char", fmt.Sprintf(notXMLCharTemplate, "title", 7, 3),
		fill(m["not-xml-char"], "{option}", "title", "{char}", "U+0007", "{index}", "3"))
	check("class", fmt.Sprintf(classTemplate, `"a"`), fill(m["class"], "{value}", `"a"`))
	check("option-not-text", fmt.Sprintf(optionNotTextTemplate, "class", 2),
		fill(m["option-not-text"], "{option}", "class", "{index}", "2"))
	check("option-lone-surrogate", fmt.Sprintf(optionLoneSurrogateTemplate, "title"),
		fill(m["option-lone-surrogate"], "{option}", "title"))
}
