package qrglue

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// The plug-in path: qrglue.extism.wasm (guest/extism/README.md), where a
// plug-in framework (Extism) moves the bytes that raw.go's glue moves by
// hand. Each generating call is one call with one input, the raw ABI's
// option words (settings.abi, the same lowering as raw.go) little-endian
// ahead of the payload, and one output, the raw ABI's payload. The
// framework lives in its own module (qrglue.dev/qrglue/extism), so this
// package keeps its dependencies: it only defines what it asks of one.

// PluginEngine makes instances of qrglue.extism.wasm (compiled once per
// process by the engine).
type PluginEngine interface {
	Instantiate() (PluginInstance, error)
}

// PluginInstance is one plug-in instance, entered by one goroutine at a time.
type PluginInstance interface {
	// Call runs an export on input. rc is the export's return code; err is
	// the error the plug-in set (its message), or a failure of the call
	// itself (a trap, an unknown export).
	Call(name string, input []byte) (rc uint32, output []byte, err error)
	Close() error
}

// ErrNoPluginProbe is returned by the probes qrglue.extism.wasm does not
// export (Trap, MemoryPages: the framework owns the instance's memory).
var ErrNoPluginProbe = errors.New("qrglue: the Extism plug-in has no such probe")

// NewGeneratorOnPlugin is NewGenerator on the plug-in path: the same
// options, outputs and errors, the same pool, the Extism guest.
func NewGeneratorOnPlugin(engine PluginEngine, maxIdle int) (*Generator, error) {
	return newGenerator(nil, engine, maxIdle)
}

func newPluginInstance(engine PluginEngine) (*instance, error) {
	plug, err := engine.Instantiate()
	if err != nil {
		return nil, err
	}
	return &instance{plug: plug}, nil
}

// pluginInput is the words, little-endian, then each part's bytes.
func pluginInput(words []uint32, parts ...[]byte) []byte {
	size := 4 * len(words)
	for _, p := range parts {
		size += len(p)
	}
	out := make([]byte, 4*len(words), size)
	for i, w := range words {
		binary.LittleEndian.PutUint32(out[4*i:], w)
	}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// payloadBytes is the input's bytes (the text's, or the payload's).
func (in input) payloadBytes() []byte {
	if in.payload {
		return in.data
	}
	return []byte(in.text)
}

// callPlugin runs an export and maps its failures (guest/extism/README.md):
// a return code 1..=4 with the error "<kind>: <message>" is that contract
// error; anything else (a trap, malformed input, an unknown code) retires
// the instance as a trap does on the raw path.
func (in *instance) callPlugin(name string, input []byte) ([]byte, error) {
	rc, out, err := in.plug.Call(name, input)
	if err == nil {
		if rc != 0 {
			return nil, &TrapError{Err: fmt.Errorf("%s returned %d with no error set", name, rc)}
		}
		return out, nil
	}
	if kind, known := rawStatusKinds[rc]; known {
		if message, ok := strings.CutPrefix(err.Error(), string(kind)+": "); ok {
			return nil, &QrError{Kind: kind, Message: message}
		}
	}
	return nil, &TrapError{Err: err}
}

// runPlugin is instance.run on the plug-in: the export for the op, the
// options as words, then the export's own words and bytes.
func (in *instance) runPlugin(o op, given input, args [11]uint32, s *settings) ([]byte, error) {
	data := given.payloadBytes()
	pick := func(text, bytes string) string {
		if given.payload {
			return bytes
		}
		return text
	}
	switch o {
	case opPNG:
		return in.callPlugin(pick("qr_png", "qr_png_bytes"), pluginInput(args[:], data))
	case opSVG:
		flags, titleLen, strs := s.svgABI()
		words := append(args[:], flags, titleLen, uint32(len(strs)))
		return in.callPlugin(pick("qr_svg", "qr_svg_bytes"), pluginInput(words, []byte(strs), data))
	case opMatrix:
		return in.callPlugin(pick("qr_matrix", "qr_matrix_bytes"), pluginInput(args[:], data))
	case opText:
		return in.callPlugin(pick("qr_text", "qr_text_bytes"), pluginInput(append(args[:], uint32(s.style)), data))
	}
	return nil, fmt.Errorf("qrglue: unknown operation %d", o)
}

// The probes on the plug-in (generator.go's Noop, Consume, Produce, PNGRepeat).

func (in *instance) pluginNoop() error {
	_, err := in.callPlugin("qr_noop", nil)
	return err
}

func (in *instance) pluginConsume(data []byte) (uint32, error) {
	out, err := in.callPlugin("qr_consume", data)
	if err == nil && len(out) != 4 {
		err = fmt.Errorf("qrglue: qr_consume returned %d bytes, not 4", len(out))
	}
	if err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(out), nil
}

func (in *instance) pluginProduce(n uint32) ([]byte, error) {
	return in.callPlugin("qr_produce", pluginInput([]uint32{n}))
}

func (in *instance) pluginPNGRepeat(given input, args []uint32) ([]byte, error) {
	return in.callPlugin("qr_png_repeat", pluginInput(args, given.payloadBytes()))
}
