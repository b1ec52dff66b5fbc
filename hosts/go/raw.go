package qrglue

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// The raw path: qrglue.raw.wasm (guest/raw/ABI.md) on wazero, glue by hand.
// `just build-go` copies target/wasm/qrglue.raw.wasm next to this file (a
// build output, git-ignored), and go:embed puts it in the binary.

//go:embed qrglue.raw.wasm
var rawWasm []byte

// rawABIVersion is the ABI this glue is written against.
const rawABIVersion = 7

// rawRecordBytes is the result record's size: {status, payload_ptr, payload_len}.
const rawRecordBytes = 12

// The bits of symbol_flags and svg_flags (guest/raw/ABI.md).
const (
	symbolMicro         = 1
	symbolBoostEC       = 2
	symbolHasVersion    = 4
	symbolHasMinVersion = 8
	symbolHasMask       = 16
	symbolECI           = 32

	svgViewBoxOnly = 1
	svgHasTitle    = 2
	svgHasClass    = 4
)

// rawSignatures: every export the glue calls, as (i32 params, i32 results),
// checked once per process, so that a call never passes the wrong count.
var rawSignatures = map[string][2]int{
	"qr_abi_version": {0, 1}, "qr_alloc": {1, 1}, "qr_free": {1, 1},
	"qr_png": {13, 1}, "qr_svg": {17, 1}, "qr_matrix": {13, 1}, "qr_text": {14, 1},
	"qr_png_bytes": {13, 1}, "qr_svg_bytes": {17, 1}, "qr_matrix_bytes": {13, 1}, "qr_text_bytes": {14, 1},
	"qr_png_repeat": {14, 1}, "qr_noop": {0, 0}, "qr_consume": {2, 1}, "qr_produce": {1, 1},
	"qr_trap": {0, 0}, "qr_memory_pages": {0, 1},
}

// engine is the process's one wazero runtime and the module compiled once in
// it: every instance of every Generator is instantiated from it, so an extra
// instance costs an instantiation, never a compile.
var engine struct {
	once     sync.Once
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

func compiledModule() (wazero.Runtime, wazero.CompiledModule, error) {
	engine.once.Do(func() {
		ctx := context.Background()
		// The compiler where wazero has one (amd64, arm64), else its interpreter.
		runtime := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().
			WithCompilationCache(compilationCache()).
			// The module's own maximum (1024 pages, 64 MiB), stated here too.
			WithMemoryLimitPages(1024))
		compiled, err := runtime.CompileModule(ctx, rawWasm)
		if err == nil {
			err = checkSignatures(compiled)
		}
		if err != nil {
			_ = runtime.Close(ctx)
			engine.err = fmt.Errorf("qrglue: cannot load qrglue.raw.wasm: %w", err)
			return
		}
		engine.runtime, engine.compiled = runtime, compiled
	})
	return engine.runtime, engine.compiled, engine.err
}

func checkSignatures(compiled wazero.CompiledModule) error {
	exports := compiled.ExportedFunctions()
	for name, want := range rawSignatures {
		def, ok := exports[name]
		if !ok {
			return fmt.Errorf("export %s is missing", name)
		}
		params, results := def.ParamTypes(), def.ResultTypes()
		if len(params) != want[0] || len(results) != want[1] || !allI32(params) || !allI32(results) {
			return fmt.Errorf("export %s has %d params and %d results, the glue expects %d and %d i32s",
				name, len(params), len(results), want[0], want[1])
		}
	}
	if _, ok := compiled.ExportedMemories()["memory"]; !ok {
		return errors.New("export memory is missing")
	}
	return nil
}

func allI32(types []api.ValueType) bool {
	for _, t := range types {
		if t != api.ValueTypeI32 {
			return false
		}
	}
	return true
}

// instance is one module instance: its memory, its exports, and one stack
// for CallWithStack (no allocation per call). Never used by two goroutines
// at once: the Generator's pool hands it to one call at a time.
type instance struct {
	module api.Module
	memory api.Memory
	alloc, free, png, svg, matrix, text, pngBytes, svgBytes, matrixBytes, textBytes,
	pngRepeat, noop, consume, produce, trap, memoryPages api.Function
	stack [17]uint64
	ctx   context.Context
}

func newInstance() (*instance, error) {
	runtime, compiled, err := compiledModule()
	if err != nil {
		return nil, err
	}
	ctx := context.Background()
	// No name: any number of anonymous instances of the one compiled module.
	module, err := runtime.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName(""))
	if err != nil {
		return nil, fmt.Errorf("qrglue: cannot instantiate qrglue.raw.wasm: %w", err)
	}
	in := &instance{module: module, memory: module.ExportedMemory("memory"), ctx: ctx}
	for name, fn := range map[string]*api.Function{
		"qr_alloc": &in.alloc, "qr_free": &in.free, "qr_png": &in.png, "qr_svg": &in.svg,
		"qr_matrix": &in.matrix, "qr_text": &in.text, "qr_png_bytes": &in.pngBytes, "qr_svg_bytes": &in.svgBytes,
		"qr_matrix_bytes": &in.matrixBytes, "qr_text_bytes": &in.textBytes, "qr_png_repeat": &in.pngRepeat,
		"qr_noop": &in.noop, "qr_consume": &in.consume, "qr_produce": &in.produce, "qr_trap": &in.trap,
		"qr_memory_pages": &in.memoryPages,
	} {
		*fn = module.ExportedFunction(name)
	}
	version, err := in.call(module.ExportedFunction("qr_abi_version"))
	if err == nil && version != rawABIVersion {
		err = fmt.Errorf("qrglue: qrglue.raw.wasm speaks ABI %d, this glue speaks %d", version, rawABIVersion)
	}
	if err != nil {
		in.close()
		return nil, err
	}
	return in, nil
}

func (in *instance) close() { _ = in.module.Close(in.ctx) }

// call runs an export with u32 arguments and returns its u32 result (0 for
// a function without one). A trap comes back as *TrapError.
func (in *instance) call(fn api.Function, args ...uint32) (uint32, error) {
	stack := in.stack[:max(len(args), 1)]
	for i, a := range args {
		stack[i] = api.EncodeU32(a)
	}
	if err := fn.CallWithStack(in.ctx, stack); err != nil {
		return 0, &TrapError{Err: err}
	}
	return api.DecodeU32(stack[0]), nil
}

// lower copies data into a fresh guest buffer, which the next generating
// call owns (and frees, whatever the outcome). The empty input is (0, 0).
func (in *instance) lower(data string) (ptr, length uint32, err error) {
	if len(data) == 0 {
		return 0, 0, nil
	}
	ptr, err = in.call(in.alloc, uint32(len(data)))
	if err != nil {
		return 0, 0, err
	}
	if ptr == 0 {
		return 0, 0, fmt.Errorf("qrglue: qr_alloc(%d) failed in the guest", len(data))
	}
	// Memory is re-read by every access: an allocation may have grown it.
	if !in.memory.WriteString(ptr, data) {
		return 0, 0, errors.New("qrglue: the guest returned a buffer outside its memory")
	}
	return ptr, uint32(len(data)), nil
}

// lowerBytes is lower for a []byte, copied once (no string conversion).
func (in *instance) lowerBytes(data []byte) (ptr, length uint32, err error) {
	if len(data) == 0 {
		return 0, 0, nil
	}
	ptr, err = in.call(in.alloc, uint32(len(data)))
	if err != nil {
		return 0, 0, err
	}
	if ptr == 0 {
		return 0, 0, fmt.Errorf("qrglue: qr_alloc(%d) failed in the guest", len(data))
	}
	if !in.memory.Write(ptr, data) {
		return 0, 0, errors.New("qrglue: the guest returned a buffer outside its memory")
	}
	return ptr, uint32(len(data)), nil
}

// result reads a result record, copies its payload out (never a view into
// memory: the next call may reuse or grow it), frees the record, and gives
// the payload or the guest's QrError.
func (in *instance) result(record uint32) ([]byte, error) {
	status, ok1 := in.memory.ReadUint32Le(record)
	payloadPtr, ok2 := in.memory.ReadUint32Le(record + 4)
	payloadLen, ok3 := in.memory.ReadUint32Le(record + 8)
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("qrglue: the guest returned a record outside its memory")
	}
	var payload []byte
	if payloadLen > 0 {
		view, ok := in.memory.Read(payloadPtr, payloadLen)
		if !ok {
			return nil, errors.New("qrglue: the guest returned a payload outside its memory")
		}
		payload = append([]byte(nil), view...)
	}
	if _, err := in.call(in.free, record); err != nil {
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
	var flags uint32
	for _, bit := range []struct {
		on  bool
		bit uint32
	}{{s.micro, symbolMicro}, {s.boostEC, symbolBoostEC}, {s.hasVersion, symbolHasVersion},
		{s.hasMinVer, symbolHasMinVersion}, {s.hasMask, symbolHasMask}, {s.eci, symbolECI}} {
		if bit.on {
			flags |= bit.bit
		}
	}
	return [11]uint32{uint32(s.ec), s.minSize, s.quietZone, boolU32(s.hasScale), s.scale, dark, light,
		flags, s.version, s.minVer, s.mask}
}

// svgABI is svg_flags, title_len and the one buffer of both strings (the
// title's bytes, then the class's), as ABI 6 passes them.
func (s *settings) svgABI() (flags uint32, titleLen uint32, strings string) {
	flags = boolU32(s.viewBoxOnly)*svgViewBoxOnly | boolU32(s.hasTitle)*svgHasTitle | boolU32(s.hasClass)*svgHasClass
	return flags, uint32(len(s.title)), s.title + s.class
}

func boolU32(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

// compilationCache is where wazero keeps compiled code: in this process's
// memory, or on disk under $QRGLUE_WAZERO_CACHE_DIR when set (later
// processes then skip the compile: the cold start).
func compilationCache() wazero.CompilationCache {
	if dir := cacheDir(); dir != "" {
		if cache, err := wazero.NewCompilationCacheWithDir(dir); err == nil {
			return cache
		}
	}
	return wazero.NewCompilationCache()
}
