package qrglue

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
)

// The raw path: qrglue.raw.wasm (guest/raw/ABI.md), glue by hand, on an
// Engine: wazero (wazero.go) unless another is plugged in.
// `just build-go` copies target/wasm/qrglue.raw.wasm next to this file (a
// build output, git-ignored), and go:embed puts it in the binary.

//go:embed qrglue.raw.wasm
var rawWasm []byte

// rawABIVersion, rawRecordBytes and the symbol_flags/svg_flags bits are in options_gen.go.

// Export is one function of qrglue.raw.wasm that the glue calls. An Engine
// resolves each of RawExports by its Name once per instance; Instance.Call
// then gets the Export, an index, on every call.
type Export int

// The exports, in one order: the index of an Engine's table.
const (
	exportABIVersion Export = iota
	exportAlloc
	exportFree
	exportPNG
	exportSVG
	exportMatrix
	exportText
	exportPNGBytes
	exportSVGBytes
	exportMatrixBytes
	exportTextBytes
	exportPNGRepeat
	exportNoop
	exportConsume
	exportProduce
	exportTrap
	exportMemoryPages
	exportCount
)

// rawExports: each export's name and its (i32 params, i32 results), checked
// once per process by the Engine, so that a call never passes the wrong count.
var rawExports = [exportCount]struct {
	name            string
	params, results int
}{
	{"qr_abi_version", 0, 1}, {"qr_alloc", 1, 1}, {"qr_free", 1, 1},
	{"qr_png", 13, 1}, {"qr_svg", 17, 1}, {"qr_matrix", 13, 1}, {"qr_text", 14, 1},
	{"qr_png_bytes", 13, 1}, {"qr_svg_bytes", 17, 1}, {"qr_matrix_bytes", 13, 1}, {"qr_text_bytes", 14, 1},
	{"qr_png_repeat", 14, 1}, {"qr_noop", 0, 0}, {"qr_consume", 2, 1}, {"qr_produce", 1, 1},
	{"qr_trap", 0, 0}, {"qr_memory_pages", 0, 1},
}

// Name is the export's name in the module.
func (e Export) Name() string { return rawExports[e].name }

// Signature is how many i32 parameters and i32 results the export has (every
// parameter and result of the raw ABI is an i32).
func (e Export) Signature() (params, results int) { return rawExports[e].params, rawExports[e].results }

// RawExports lists every export the glue calls, in index order.
func RawExports() []Export {
	all := make([]Export, exportCount)
	for i := range all {
		all[i] = Export(i)
	}
	return all
}

// RawWasm is qrglue.raw.wasm, the module every Engine runs (embedded).
func RawWasm() []byte { return rawWasm }

// Engine is a WebAssembly runtime that runs qrglue.raw.wasm for the glue
// (this file): wazero (NewGenerator), or another one plugged in with
// NewGeneratorOn (qrglue.dev/qrglue/wasmtime: Wasmtime through
// wasmtime-go). The glue is the same on every engine: only what it asks an
// instance (Instance) differs.
type Engine interface {
	// Instantiate makes a new instance of RawWasm(), compiled once per
	// process by the engine, with every export of RawExports() resolved and
	// its signature checked, and the memory export "memory".
	Instantiate() (Instance, error)
}

// Instance is one module instance, entered by one goroutine at a time (the
// Generator's pool sees to it).
type Instance interface {
	// Call runs an export with its i32 arguments, given as u32s, and returns
	// its result (0 for a function without one); a trap is an error (the
	// glue then retires the instance).
	Call(fn Export, args ...uint32) (uint32, error)
	// Write and WriteString copy bytes into linear memory at ptr; false
	// when they do not fit. Memory may have grown since the last call.
	Write(ptr uint32, data []byte) bool
	WriteString(ptr uint32, data string) bool
	// Read returns length bytes of linear memory at ptr, which may be a view
	// (the glue copies what it keeps before the next call); false when out
	// of bounds.
	Read(ptr, length uint32) ([]byte, bool)
	Close() error
}

// instance is the glue over one engine's Instance (guest/raw/ABI.md's
// "Glue per call"). Never used by two goroutines at once.
type instance struct {
	vm Instance
	// plug, instead of vm: an instance of the Extism guest (plugin.go).
	plug PluginInstance
}

func newInstance(engine Engine) (*instance, error) {
	vm, err := engine.Instantiate()
	if err != nil {
		return nil, err
	}
	in := &instance{vm: vm}
	version, err := in.call(exportABIVersion)
	if err == nil && version != rawABIVersion {
		err = fmt.Errorf("qrglue: qrglue.raw.wasm speaks ABI %d, this glue speaks %d", version, rawABIVersion)
	}
	if err != nil {
		in.close()
		return nil, err
	}
	return in, nil
}

func (in *instance) close() {
	if in.plug != nil {
		_ = in.plug.Close()
		return
	}
	_ = in.vm.Close()
}

// call runs an export with u32 arguments and returns its u32 result (0 for
// a function without one). A trap comes back as *TrapError.
func (in *instance) call(fn Export, args ...uint32) (uint32, error) {
	result, err := in.vm.Call(fn, args...)
	if err != nil {
		return 0, &TrapError{Err: err}
	}
	return result, nil
}

// lower copies data into a fresh guest buffer, which the next generating
// call owns (and frees, whatever the outcome). The empty input is (0, 0).
func (in *instance) lower(data string) (ptr, length uint32, err error) {
	if len(data) == 0 {
		return 0, 0, nil
	}
	ptr, err = in.call(exportAlloc, uint32(len(data)))
	if err != nil {
		return 0, 0, err
	}
	if ptr == 0 {
		return 0, 0, fmt.Errorf("qrglue: qr_alloc(%d) failed in the guest", len(data))
	}
	// Memory is re-read by every access: an allocation may have grown it.
	if !in.vm.WriteString(ptr, data) {
		return 0, 0, errors.New("qrglue: the guest returned a buffer outside its memory")
	}
	return ptr, uint32(len(data)), nil
}

// lowerBytes is lower for a []byte, copied once (no string conversion).
func (in *instance) lowerBytes(data []byte) (ptr, length uint32, err error) {
	if len(data) == 0 {
		return 0, 0, nil
	}
	ptr, err = in.call(exportAlloc, uint32(len(data)))
	if err != nil {
		return 0, 0, err
	}
	if ptr == 0 {
		return 0, 0, fmt.Errorf("qrglue: qr_alloc(%d) failed in the guest", len(data))
	}
	if !in.vm.Write(ptr, data) {
		return 0, 0, errors.New("qrglue: the guest returned a buffer outside its memory")
	}
	return ptr, uint32(len(data)), nil
}

// result reads a result record, copies its payload out (never a view into
// memory: the next call may reuse or grow it), frees the record, and gives
// the payload or the guest's QrError.
func (in *instance) result(record uint32) ([]byte, error) {
	fields, ok := in.vm.Read(record, rawRecordBytes)
	if !ok {
		return nil, errors.New("qrglue: the guest returned a record outside its memory")
	}
	status := binary.LittleEndian.Uint32(fields)
	payloadPtr := binary.LittleEndian.Uint32(fields[4:])
	payloadLen := binary.LittleEndian.Uint32(fields[8:])
	var payload []byte
	if payloadLen > 0 {
		view, ok := in.vm.Read(payloadPtr, payloadLen)
		if !ok {
			return nil, errors.New("qrglue: the guest returned a payload outside its memory")
		}
		payload = append([]byte(nil), view...)
	}
	if _, err := in.call(exportFree, record); err != nil {
		return nil, err
	}
	if status == 0 {
		return payload, nil
	}
	kind, known := rawStatusKinds[status]
	if !known {
		return nil, fmt.Errorf("qrglue: unknown status %d from the guest", status)
	}
	return nil, &QrError{Kind: kind, Message: string(payload)}
}

// options lowers the options as ABI 7 passes them after the text: ec_level,
// min_size, quiet_zone, has_scale, scale, dark, light, symbol_flags,
// version, min_version, mask. The colours were parsed by the caller.
func (s *settings) abi(dark, light uint32) [11]uint32 {
	return [11]uint32{uint32(s.ecLevel), s.minSize, s.quietZone, boolU32(s.hasScale), s.scale, dark, light,
		s.symbolFlags(), s.version, s.minVersion, s.mask}
}

// svgABI is svg_flags, title_len and the one buffer of both strings (the
// title's bytes, then the class's), as ABI 6 passes them.
func (s *settings) svgABI() (flags uint32, titleLen uint32, strings string) {
	flags = s.svgFlags()
	return flags, uint32(len(s.title)), s.title + s.class
}

func boolU32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}
