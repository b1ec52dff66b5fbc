package main

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/skip2/go-qrcode"

	"qrglue.dev/qrglue"
)

var errUnknownTier = errors.New("unknown tier")

const referenceText = "https://www.reddit.com/r/rustjerk/top/?t=all"

// alone: the tiers with no qrglue generator, for which the query's parser
// also refuses an empty text and runs the generator's option checks.
func alone(tier string) bool { return tier == "static" || tier == "go-qrcode" }

// loadTier: the tier's generator, made once at start.
func loadTier(tier string, workers int) (generator, error) {
	switch tier {
	case "raw":
		g, err := qrglue.NewGenerator(workers)
		if err != nil {
			return nil, err
		}
		// At most `workers` calls at once, so at most that many wazero
		// instances: more goroutines than threads would each take one (the
		// pool instantiates for a call that finds none idle, and closes what
		// is over its idle cap), for no more throughput.
		slots := make(chan struct{}, workers)
		return func(r *request) ([]byte, error) {
			slots <- struct{}{}
			defer func() { <-slots }()
			return g.PNG(r.Text, libraryOptions(r)...)
		}, nil
	case "native":
		// The Rust core through cgo: no state, so goroutines call it at once.
		g, err := qrglue.NewNativeGenerator()
		if err != nil {
			return nil, fmt.Errorf("%w (build the server with -tags qrglue_native: just build-http-go)", err)
		}
		return func(r *request) ([]byte, error) { return g.PNG(r.Text, libraryOptions(r)...) }, nil
	case "static":
		golden, err := qrglue.PNG(referenceText)
		if err != nil {
			return nil, err
		}
		// The query's parser has refused what the generator would (alone).
		return func(*request) ([]byte, error) { return golden, nil }, nil
	case "go-qrcode":
		return goQRCode, nil
	case "cli":
		cli, err := cliPath()
		if err != nil {
			return nil, err
		}
		return func(r *request) ([]byte, error) { return runCLI(cli, r) }, nil
	}
	return nil, errUnknownTier
}

// hexColor: 0xRRGGBBAA as '#rrggbbaa', the form the library and the CLI take.
func hexColor(c uint32) string { return fmt.Sprintf("#%08x", c) }

// libraryOptions: the request's options as qrglue's (the defaults the parser
// filled in are the library's own).
func libraryOptions(r *request) []qrglue.Option {
	opts := []qrglue.Option{
		qrglue.WithECLevel(qrglue.ECLevel(r.ECLevel)), qrglue.WithMinSize(r.MinSize), qrglue.WithQuietZone(r.QuietZone),
		qrglue.WithDark(hexColor(r.Dark)), qrglue.WithLight(hexColor(r.Light)),
	}
	if r.Scale.Set {
		opts = append(opts, qrglue.WithScale(r.Scale.Value))
	}
	for _, o := range r.Symbol {
		opts = append(opts, qrglue.NamedOption(o.Name, o.Value))
	}
	return opts
}

// --- tier go-qrcode ------------------------------------------------------------

// goQRCodeLevels: go-qrcode's levels, by QrglueOptions.ec_level (low, medium, quartile, high).
var goQRCodeLevels = [4]qrcode.RecoveryLevel{qrcode.Low, qrcode.Medium, qrcode.High, qrcode.Highest}

// goQRCode is tier 0: skip2/go-qrcode, the Go library the issue names. It
// answers every error as the contract says (the generator's checks run by
// the query's parser, alone), then 501 for a symbol option go-qrcode does not
// have (every one but version: it picks its own mask and has no Micro QR, ECI
// or boost), in WIT field order, rather than drawing another code.
// go-qrcode encodes (mode, version, error correction, mask); the image is
// drawn from its Bitmap() as its own PNG() draws one (a two-colour palette,
// image/png at BestCompression), because PNG()'s size rule (a fixed width,
// modules scaled to it by nearest neighbour, a fixed 4-module border or none)
// cannot give the query's quiet zone or scale: here an integer scale (scale,
// or the smallest that reaches min-size), the quiet zone in modules.
func goQRCode(r *request) ([]byte, error) {
	// Any symbol option but version (the table's, in its order): a new one is refused until this tier learns it.
	for _, o := range r.Symbol {
		if o.Name != "version" {
			return nil, &httpError{501, "not-implemented", "go-qrcode has no " + o.Name + " option"}
		}
	}
	level := goQRCodeLevels[r.ECLevel]
	var q *qrcode.QRCode
	var err error
	if version, ok := r.option("version"); ok {
		q, err = qrcode.NewWithForcedVersion(r.Text, int(version.(uint32)), level)
	} else {
		q, err = qrcode.New(r.Text, level)
	}
	if err != nil {
		// The one way either fails on a checked query: the text does not fit
		// (the version given, or any version: above this endpoint's limit).
		// go-qrcode has no words for the limit hit (in bits); the library's
		// own data-too-long for the same text and options names it.
		if _, libraryErr := qrglue.PNG(r.Text, libraryOptions(r)...); libraryErr != nil {
			return nil, libraryErr
		}
		return nil, fmt.Errorf("go-qrcode refused a text the library fits: %w", err)
	}
	q.DisableBorder = true
	modules := q.Bitmap()
	zone := int(r.QuietZone)
	side := len(modules) + 2*zone
	scale := int(r.Scale.Value)
	if !r.Scale.Set {
		scale = max(1, (int(r.MinSize)+side-1)/side)
	}
	dark, light := rgba(r.Dark), rgba(r.Light)
	img := image.NewPaletted(image.Rect(0, 0, side*scale, side*scale), color.Palette{light, dark})
	for y, row := range modules {
		for x, on := range row {
			if !on {
				continue
			}
			for py := (zone + y) * scale; py < (zone+y+1)*scale; py++ {
				start := img.PixOffset((zone+x)*scale, py)
				for i := range scale {
					img.Pix[start+i] = 1
				}
			}
		}
	}
	var out bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// rgba: 0xRRGGBBAA as a colour.
func rgba(v uint32) color.NRGBA {
	return color.NRGBA{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}
}

// --- tier cli ----------------------------------------------------------------

// cliPath: $QRGLUE_CLI, or the Rust CLI of `just _build-rust-bins`
// (target/host/qrglue from the repository's root; this program is
// hosts/go/bin/qrglue-server). Not checked here: a CLI that cannot be spawned
// is each request's 500, as on the other servers.
func cliPath() (string, error) {
	if cli := os.Getenv("QRGLUE_CLI"); cli != "" {
		return cli, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	return filepath.Join(filepath.Dir(self), "..", "..", "..", "target", "host", "qrglue"), nil
}

// cliRefusal: the CLI's line for a refused input (its exit status 1).
var cliRefusal = regexp.MustCompile(`^qrglue: ([a-z-]+): (.*)\n?$`)

// runCLI spawns the Rust CLI for one request, as the Node and Python servers'
// tier cli does: the native path (a process per request; the CLI's default,
// the component in wasmtime, spends ~330 ms compiling), the text on standard
// input byte for byte (an argument cannot carry a NUL), every option (the
// parser's defaults are the CLI's), the four with no default when given.
func runCLI(cli string, r *request) ([]byte, error) {
	argv := []string{"png", "-o", "-", "--path", "native", "--text-stdin"}
	u := func(v uint32) string { return strconv.FormatUint(uint64(v), 10) }
	argv = append(argv, "--ec-level", qrglue.ECLevel(r.ECLevel).String(), "--min-size", u(r.MinSize), "--quiet-zone", u(r.QuietZone),
		"--dark", hexColor(r.Dark), "--light", hexColor(r.Light))
	if r.Scale.Set {
		argv = append(argv, "--scale", u(r.Scale.Value))
	}
	// The symbol options given, by the CLI's flag table: a bool is its flag, a number its flag and value.
	for _, o := range r.Symbol {
		for _, f := range qrglue.CLIFlags {
			if f.Name != o.Name {
				continue
			}
			if n, ok := o.Value.(uint32); ok {
				argv = append(argv, "--"+f.Flag, u(n))
			} else {
				argv = append(argv, "--"+f.Flag)
			}
		}
	}
	cmd := exec.Command(cli, argv...)
	cmd.Stdin = strings.NewReader(r.Text)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		if m := cliRefusal.FindStringSubmatch(stderr.String()); m != nil {
			return nil, &httpError{400, m[1], m[2]}
		}
	}
	return nil, fmt.Errorf("qrglue CLI: %w: %s", err, strings.TrimSpace(stderr.String()))
}
