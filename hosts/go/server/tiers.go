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
		return func(r *request) ([]byte, error) {
			if r.Text == "" {
				return nil, refuse("empty-text", emptyTextMessage)
			}
			if err := checkRanges(r); err != nil {
				return nil, err
			}
			return golden, nil
		}, nil
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

var libraryECLevels = map[string]qrglue.ECLevel{
	"low": qrglue.Low, "medium": qrglue.Medium, "quartile": qrglue.Quartile, "high": qrglue.High,
}

// libraryOptions: the options the query gave, as qrglue's; the others stay
// the library's defaults.
func libraryOptions(r *request) []qrglue.Option {
	var opts []qrglue.Option
	add := func(set bool, o func() qrglue.Option) {
		if set {
			opts = append(opts, o())
		}
	}
	add(r.ECLevel.Set, func() qrglue.Option { return qrglue.WithECLevel(libraryECLevels[r.ECLevel.Value]) })
	add(r.MinSize.Set, func() qrglue.Option { return qrglue.WithMinSize(r.MinSize.Value) })
	add(r.QuietZone.Set, func() qrglue.Option { return qrglue.WithQuietZone(r.QuietZone.Value) })
	add(r.Scale.Set, func() qrglue.Option { return qrglue.WithScale(r.Scale.Value) })
	add(r.Dark.Set, func() qrglue.Option { return qrglue.WithDark(r.Dark.Value) })
	add(r.Light.Set, func() qrglue.Option { return qrglue.WithLight(r.Light.Value) })
	add(r.Micro.Set, func() qrglue.Option { return qrglue.WithMicro(r.Micro.Value) })
	add(r.Version.Set, func() qrglue.Option { return qrglue.WithVersion(r.Version.Value) })
	add(r.MinVersion.Set, func() qrglue.Option { return qrglue.WithMinVersion(r.MinVersion.Value) })
	add(r.Mask.Set, func() qrglue.Option { return qrglue.WithMask(r.Mask.Value) })
	add(r.BoostEC.Set, func() qrglue.Option { return qrglue.WithBoostEC(r.BoostEC.Value) })
	add(r.ECI.Set, func() qrglue.Option { return qrglue.WithECI(r.ECI.Value) })
	return opts
}

// --- tier go-qrcode ------------------------------------------------------------

var goQRCodeLevels = map[string]qrcode.RecoveryLevel{
	"low": qrcode.Low, "medium": qrcode.Medium, "quartile": qrcode.High, "high": qrcode.Highest,
}

// goQRCode is tier 0: skip2/go-qrcode, the Go library the issue names. It
// answers every error as the contract says (the generator's checks restated
// by checkRanges), then 501 for an option go-qrcode does not have (micro,
// min-version, mask, boost-ec, eci: it picks its own mask and has no Micro
// QR, ECI or boost), in WIT field order, rather than drawing another code.
// go-qrcode encodes (mode, version, error correction, mask); the image is
// drawn from its Bitmap() as its own PNG() draws one (a two-colour palette,
// image/png at BestCompression), because PNG()'s size rule (a fixed width,
// modules scaled to it by nearest neighbour, a fixed 4-module border or none)
// cannot give the query's quiet zone or scale: here an integer scale (scale,
// or the smallest that reaches min-size), the quiet zone in modules.
func goQRCode(r *request) ([]byte, error) {
	if r.Text == "" {
		return nil, refuse("empty-text", emptyTextMessage)
	}
	if err := checkRanges(r); err != nil {
		return nil, err
	}
	for _, lack := range []struct {
		name  string
		given bool
	}{
		{"micro", or(r.Micro, false)}, {"min-version", r.MinVersion.Set}, {"mask", r.Mask.Set},
		{"boost-ec", or(r.BoostEC, false)}, {"eci", or(r.ECI, false)},
	} {
		if lack.given {
			return nil, &httpError{501, "not-implemented", "go-qrcode has no " + lack.name + " option"}
		}
	}
	level := goQRCodeLevels[or(r.ECLevel, "low")]
	var q *qrcode.QRCode
	var err error
	if r.Version.Set {
		q, err = qrcode.NewWithForcedVersion(r.Text, int(r.Version.Value), level)
	} else {
		q, err = qrcode.New(r.Text, level)
	}
	if err != nil {
		// The one way either fails on a checked query: the text does not fit
		// (the version given, or any version: above this endpoint's limit).
		return nil, refuse("data-too-long", dataTooLongMessage)
	}
	q.DisableBorder = true
	modules := q.Bitmap()
	zone := int(or(r.QuietZone, 4))
	side := len(modules) + 2*zone
	scale := int(or(r.Scale, 0))
	if !r.Scale.Set {
		scale = max(1, (int(or(r.MinSize, 200))+side-1)/side)
	}
	dark, light := rgba(or(r.Dark, "#000000ff")), rgba(or(r.Light, "#ffffffff"))
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

// rgba: '#rrggbbaa' (checkQuery's form) as a colour.
func rgba(s string) color.NRGBA {
	v, _ := strconv.ParseUint(s[1:], 16, 32)
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

var cliLevels = map[string]string{"low": "l", "medium": "m", "quartile": "q", "high": "h"}

// cliRefusal: the CLI's line for a refused input (its exit status 1).
var cliRefusal = regexp.MustCompile(`^qrglue: ([a-z-]+): (.*)\n?$`)

// runCLI spawns the Rust CLI for one request, as the Node and Python servers'
// tier cli does: the native path (a process per request; the CLI's default,
// the component in wasmtime, spends ~330 ms compiling), the text on standard
// input byte for byte (an argument cannot carry a NUL), each option only when
// the query gives it.
func runCLI(cli string, r *request) ([]byte, error) {
	argv := []string{"png", "-o", "-", "--path", "native", "--text-stdin"}
	num := func(flag string, o optional[uint32]) {
		if o.Set {
			argv = append(argv, flag, strconv.FormatUint(uint64(o.Value), 10))
		}
	}
	str := func(flag string, o optional[string]) {
		if o.Set {
			argv = append(argv, flag, o.Value)
		}
	}
	flag := func(name string, o optional[bool]) {
		if or(o, false) {
			argv = append(argv, name)
		}
	}
	if r.ECLevel.Set {
		argv = append(argv, "--ec-level", cliLevels[r.ECLevel.Value])
	}
	num("--min-size", r.MinSize)
	num("--quiet-zone", r.QuietZone)
	num("--scale", r.Scale)
	str("--dark", r.Dark) // '#rrggbbaa'
	str("--light", r.Light)
	flag("--micro", r.Micro)
	num("--symbol-version", r.Version)
	num("--min-version", r.MinVersion)
	num("--mask", r.Mask)
	flag("--boost-ec", r.BoostEC)
	flag("--eci", r.ECI)
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
			return nil, refuse(m[1], m[2])
		}
	}
	return nil, fmt.Errorf("qrglue CLI: %w: %s", err, strings.TrimSpace(stderr.String()))
}
