package qrglue

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
)

// Generator makes QR codes on the raw path: module instances of
// qrglue.raw.wasm on an Engine (wazero unless NewGeneratorOn gives another),
// compiled once per process. It is safe for
// concurrent use: each call takes an idle instance from its pool (or
// instantiates one), uses it alone and gives it back; no instance is ever
// entered by two goroutines at once. At most maxIdle instances wait in the
// pool; one more is closed when it comes back.
//
// Failures: a *QrError is the contract's answer and leaves the instance as it
// was. Any other failure inside a call (a trap, a glue error) may have
// stopped the guest half-way, so that instance is closed, never reused, and
// the next call runs on another.
type Generator struct {
	// native: calls go to the Rust core linked in through cgo (NewNativeGenerator), not to wasm instances.
	native bool
	engine Engine
	// plugin: calls go to instances of the Extism guest (plugin.go), not of the raw module.
	plugin  PluginEngine
	idle    chan *instance
	made    atomic.Int64
	retired atomic.Int64
	mu      sync.RWMutex // held for reading by calls, for writing by Close
	closed  bool
}

// NewGenerator returns a Generator whose pool keeps up to maxIdle idle
// instances (GOMAXPROCS when maxIdle < 1). It compiles the module on the
// process's first use and instantiates one instance, so that an error in
// loading is returned here.
func NewGenerator(maxIdle int) (*Generator, error) {
	return NewGeneratorOn(wazeroEngine{}, maxIdle)
}

// NewGeneratorOn is NewGenerator on another Engine: the same glue, the same
// pool, another WebAssembly runtime.
func NewGeneratorOn(engine Engine, maxIdle int) (*Generator, error) {
	return newGenerator(engine, nil, maxIdle)
}

func newGenerator(engine Engine, plugin PluginEngine, maxIdle int) (*Generator, error) {
	if maxIdle < 1 {
		maxIdle = runtime.GOMAXPROCS(0)
	}
	g := &Generator{engine: engine, plugin: plugin, idle: make(chan *instance, maxIdle)}
	in, err := g.newInstance()
	if err != nil {
		return nil, err
	}
	g.idle <- in
	return g, nil
}

func (g *Generator) newInstance() (*instance, error) {
	newOne := func() (*instance, error) { return newInstance(g.engine) }
	if g.plugin != nil {
		newOne = func() (*instance, error) { return newPluginInstance(g.plugin) }
	}
	in, err := newOne()
	if err == nil {
		g.made.Add(1)
	}
	return in, err
}

// Instances is how many instances this Generator has made so far.
func (g *Generator) Instances() int { return int(g.made.Load()) }

// Retired is how many of them were closed after a failure (a trap).
func (g *Generator) Retired() int { return int(g.retired.Load()) }

// Close closes every idle instance; later calls return ErrClosed. Calls
// already running finish first.
func (g *Generator) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		close(g.idle)
		for in := range g.idle {
			in.close()
		}
	}
	return nil
}

// with runs f on an instance of its own.
func (g *Generator) with(f func(*instance) error) (err error) {
	g.mu.RLock()
	defer g.mu.RUnlock()
	if g.closed {
		return ErrClosed
	}
	if g.native {
		return ErrNoGuest
	}
	var in *instance
	select {
	case in = <-g.idle:
	default:
		if in, err = g.newInstance(); err != nil {
			return err
		}
	}
	healthy := false
	defer func() {
		var qrErr *QrError
		if healthy && (err == nil || errors.As(err, &qrErr)) {
			select {
			case g.idle <- in:
				return
			default: // the pool is full
			}
		} else {
			g.retired.Add(1)
		}
		in.close()
	}()
	err = f(in)
	healthy = true // f returned (no panic): err says whether the instance is sound
	return err
}

// prepared is a call's checked input: its options lowered, colours parsed.
type prepared struct {
	s    settings
	args [11]uint32
}

// prepare applies the options and parses the colours. A colour that does
// not parse is the host's error (the ABI carries 0xRRGGBBAA): refused here,
// after the input's own checks and before any of the guest's
// (docs/contract.md, "Which errors a host raises"); the guest is never
// asked to validate. (`text` is unused: the signature stays for the callers.)
func (g *Generator) prepare(s settings, text string) (*prepared, error) {
	dark, darkOK := parseColor(s.dark)
	light, lightOK := parseColor(s.light)
	if darkOK && lightOK {
		return &prepared{s: s, args: s.abi(dark, light)}, nil
	}
	if !darkOK {
		return nil, invalidOptions(colorTemplate, "dark", rustDebug(s.dark))
	}
	return nil, invalidOptions(colorTemplate, "light", rustDebug(s.light))
}

// op is a generating call, whichever path runs it.
type op int

const (
	opPNG op = iota
	opSVG
	opMatrix
	opText
)

// run makes one generating call on this Generator's path: on an instance
// of its own (raw), or in the C library (native). args are the options as
// the ABIs take them; s gives the SVG options and the text style.
func (g *Generator) run(o op, given input, args [11]uint32, s *settings) ([]byte, error) {
	if g.native {
		g.mu.RLock()
		defer g.mu.RUnlock()
		if g.closed {
			return nil, ErrClosed
		}
		return nativeRun(o, given, args, s)
	}
	var out []byte
	err := g.with(func(in *instance) (err error) {
		out, err = in.run(o, given, args, s)
		return err
	})
	return out, err
}

// run is Generator.run on this instance: the export for the op and the
// input, with the raw ABI's arguments.
func (in *instance) run(o op, given input, args [11]uint32, s *settings) ([]byte, error) {
	if in.plug != nil {
		return in.runPlugin(o, given, args, s)
	}
	switch o {
	case opPNG:
		return in.generate(given.pick(exportPNG, exportPNGBytes), given, args[:])
	case opSVG:
		flags, titleLen, strings := s.svgABI()
		// Both buffers are the guest's from the call on, whatever the outcome.
		stringsPtr, stringsLen, err := in.lower(strings)
		if err != nil {
			return nil, err
		}
		return in.generate(given.pick(exportSVG, exportSVGBytes), given, append(args[:], flags, titleLen, stringsPtr, stringsLen))
	case opMatrix:
		return in.generate(given.pick(exportMatrix, exportMatrixBytes), given, args[:])
	case opText:
		return in.generate(given.pick(exportText, exportTextBytes), given, append(args[:], uint32(s.style)))
	}
	return nil, fmt.Errorf("qrglue: unknown operation %d", o)
}

// input is what a call encodes: a text, or a binary payload (the guest's
// *_bytes exports), checked for what the boundary cannot carry.
type input struct {
	text    string
	data    []byte
	payload bool
	// standIn is the text prepare's check of the options runs on: the text
	// itself, or for a payload whose own checks passed, "0".
	standIn string
}

// textInput refuses, before any byte enters the guest, a text longer than
// any QR code holds; its invalid-text (the contract's first check) first.
func textInput(text string) (input, error) {
	if len(text) > MaxTextBytes {
		if err := textFromUTF8(text); err != nil {
			return input{}, err
		}
		return input{}, dataTooLong()
	}
	return input{text: text, standIn: text}, nil
}

// payloadInput is textInput for a binary payload (never invalid-text). A
// nil slice is the empty payload: empty-text, from the guest itself.
func payloadInput(data []byte) (input, error) {
	switch {
	case len(data) > MaxTextBytes:
		return input{}, dataTooLong()
	case len(data) == 0:
		return input{data: data, payload: true}, nil
	}
	return input{data: data, payload: true, standIn: "0"}, nil
}

// pick is the text export or its *_bytes twin, for the input.
func (in input) pick(text, bytes Export) Export {
	if in.payload {
		return bytes
	}
	return text
}

func apply(opts []Option) settings {
	s := newSettings()
	for _, o := range opts {
		o.apply(&s)
	}
	return s
}

// PNG returns the QR code for text as PNG bytes: 1-bit grayscale for black on
// opaque white, else a two-colour palette (with tRNS when a colour is not
// opaque). Errors: *QrError (kind and message as on every path),
// *TrapError, ErrClosed.
func (g *Generator) PNG(text string, opts ...Option) ([]byte, error) {
	in, err := textInput(text)
	if err != nil {
		return nil, err
	}
	return g.pngCall(in, apply(opts))
}

// PNGBytes is PNG for a binary payload: its bytes as they are, never decoded
// (for UTF-8 bytes, the text's code). A nil or empty slice is empty-text.
func (g *Generator) PNGBytes(data []byte, opts ...Option) ([]byte, error) {
	in, err := payloadInput(data)
	if err != nil {
		return nil, err
	}
	return g.pngCall(in, apply(opts))
}

func (g *Generator) pngCall(given input, s settings) (out []byte, err error) {
	p, err := g.prepare(s, given.standIn)
	if err != nil {
		return nil, err
	}
	return g.run(opPNG, given, p.args, &p.s)
}

// SVG returns the QR code for text as an SVG document; it takes every Option
// and the SVG options (WithViewBoxOnly, WithTitle, WithClass), checked after
// the others. A fully transparent light colour draws no background.
func (g *Generator) SVG(text string, opts ...SVGOption) (string, error) {
	in, err := textInput(text)
	if err != nil {
		return "", err
	}
	return g.svgCall(in, opts)
}

// SVGBytes is SVG for a binary payload.
func (g *Generator) SVGBytes(data []byte, opts ...SVGOption) (string, error) {
	in, err := payloadInput(data)
	if err != nil {
		return "", err
	}
	return g.svgCall(in, opts)
}

func (g *Generator) svgCall(given input, opts []SVGOption) (string, error) {
	s := newSettings()
	for _, o := range opts {
		o.applySVG(&s)
	}
	p, err := g.prepare(s, given.standIn)
	if err != nil {
		return "", err
	}
	if refusal := oversizedSVGRefusal(&s); refusal != "" {
		// Never copied into the guest: the host's error, before any of the guest's.
		return "", invalidOptions("%s", refusal)
	}
	out, err := g.run(opSVG, given, p.args, &s)
	return string(out), err
}

// Matrix returns the module matrix for text, quiet zone not included, to
// draw the code yourself. Only the level and the symbol options shape it;
// the others are checked all the same.
func (g *Generator) Matrix(text string, opts ...Option) (*Matrix, error) {
	in, err := textInput(text)
	if err != nil {
		return nil, err
	}
	return g.matrixCall(in, apply(opts))
}

// MatrixBytes is Matrix for a binary payload.
func (g *Generator) MatrixBytes(data []byte, opts ...Option) (*Matrix, error) {
	in, err := payloadInput(data)
	if err != nil {
		return nil, err
	}
	return g.matrixCall(in, apply(opts))
}

func (g *Generator) matrixCall(given input, s settings) (*Matrix, error) {
	p, err := g.prepare(s, given.standIn)
	if err != nil {
		return nil, err
	}
	out, err := g.run(opMatrix, given, p.args, &p.s)
	if err != nil {
		return nil, err
	}
	return matrixFromPayload(out)
}

// Text returns the QR code for text as lines of text, quiet zone included,
// in the style WithStyle gives (HalfBlocks by default); the size and the
// colours are checked but unused.
func (g *Generator) Text(text string, opts ...TextOption) (string, error) {
	in, err := textInput(text)
	if err != nil {
		return "", err
	}
	return g.textCall(in, opts)
}

// TextBytes is Text for a binary payload.
func (g *Generator) TextBytes(data []byte, opts ...TextOption) (string, error) {
	in, err := payloadInput(data)
	if err != nil {
		return "", err
	}
	return g.textCall(in, opts)
}

func (g *Generator) textCall(given input, opts []TextOption) (string, error) {
	s := newSettings()
	for _, o := range opts {
		o.applyText(&s)
	}
	p, err := g.prepare(s, given.standIn)
	if err != nil {
		return "", err
	}
	out, err := g.run(opText, given, p.args, &s)
	return string(out), err
}

// PNGDataURL is PNG's bytes as a data:image/png;base64 URL.
func (g *Generator) PNGDataURL(text string, opts ...Option) (string, error) {
	png, err := g.PNG(text, opts...)
	if err != nil {
		return "", err
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}

// SVGDataURL is SVG's document (as UTF-8) in a data:image/svg+xml;base64 URL.
func (g *Generator) SVGDataURL(text string, opts ...SVGOption) (string, error) {
	svg, err := g.SVG(text, opts...)
	if err != nil {
		return "", err
	}
	return "data:image/svg+xml;base64," + base64.StdEncoding.EncodeToString([]byte(svg)), nil
}

// generate lowers the input, calls a generating export with it and args
// (the export takes the buffer, whatever the outcome) and reads the result.
func (in *instance) generate(fn Export, given input, args []uint32) ([]byte, error) {
	var ptr, length uint32
	var err error
	if given.payload {
		ptr, length, err = in.lowerBytes(given.data)
	} else {
		ptr, length, err = in.lower(given.text)
	}
	if err != nil {
		return nil, err
	}
	record, err := in.call(fn, append([]uint32{ptr, length}, args...)...)
	if err != nil {
		return nil, err
	}
	return in.result(record)
}

// Probes: for measuring the bridge and testing recovery, not for users (the
// WIT `probe` interface).

// PNGRepeat renders the PNG times times in the guest (at most
// MaxPNGRepeatTimes) and returns the last one's length; times 0 checks the
// text and options without rendering.
func (g *Generator) PNGRepeat(text string, times uint32, opts ...Option) (uint32, error) {
	given, err := textInput(text)
	if err != nil {
		return 0, err
	}
	if g.native {
		return 0, ErrNoGuest
	}
	p, err := g.prepare(apply(opts), text)
	if err != nil {
		return 0, err
	}
	var n uint32
	err = g.with(func(in *instance) error {
		generate := in.generate
		if in.plug != nil {
			generate = func(_ Export, given input, args []uint32) ([]byte, error) { return in.pluginPNGRepeat(given, args) }
		}
		out, err := generate(exportPNGRepeat, given, append(p.args[:], times))
		if err == nil {
			if len(out) != 4 {
				return fmt.Errorf("qrglue: qr_png_repeat returned %d bytes, not 4", len(out))
			}
			n = binary.LittleEndian.Uint32(out)
		}
		return err
	})
	return n, err
}

// Noop calls the guest's empty function: the fixed cost of a call.
func (g *Generator) Noop() error {
	return g.with(func(in *instance) error {
		if in.plug != nil {
			return in.pluginNoop()
		}
		_, err := in.call(exportNoop)
		return err
	})
}

// Consume copies data into the guest, which takes it and returns its length.
func (g *Generator) Consume(data []byte) (n uint32, err error) {
	err = g.with(func(in *instance) error {
		if in.plug != nil {
			n, err = in.pluginConsume(data)
			return err
		}
		ptr, length, err := in.lowerBytes(data)
		if err == nil {
			n, err = in.call(exportConsume, ptr, length)
		}
		return err
	})
	return n, err
}

// Produce copies n guest-made bytes out (byte i = i mod 251).
func (g *Generator) Produce(n uint32) (out []byte, err error) {
	err = g.with(func(in *instance) error {
		if in.plug != nil {
			out, err = in.pluginProduce(n)
			return err
		}
		record, err := in.call(exportProduce, n)
		if err == nil {
			out, err = in.result(record)
		}
		return err
	})
	return out, err
}

// Trap makes the guest trap: the result is a *TrapError, and the instance
// is retired.
func (g *Generator) Trap() error {
	return g.with(func(in *instance) error {
		if in.plug != nil {
			return ErrNoPluginProbe
		}
		_, err := in.call(exportTrap)
		return err
	})
}

// MemoryPages is the linear memory size, in 64 KiB pages, of the instance
// the call runs on (with one goroutine calling, the same instance each time).
func (g *Generator) MemoryPages() (n uint32, err error) {
	err = g.with(func(in *instance) error {
		if in.plug != nil {
			return ErrNoPluginProbe
		}
		n, err = in.call(exportMemoryPages)
		return err
	})
	return n, err
}

// The package-level functions run on one Generator per process, made on
// first use (its pool keeps up to GOMAXPROCS idle instances).
var defaultGenerator struct {
	once sync.Once
	g    *Generator
	err  error
}

// Default returns the process's shared Generator.
func Default() (*Generator, error) {
	defaultGenerator.once.Do(func() { defaultGenerator.g, defaultGenerator.err = NewGenerator(0) })
	return defaultGenerator.g, defaultGenerator.err
}

func cacheDir() string { return os.Getenv("QRGLUE_WAZERO_CACHE_DIR") }
