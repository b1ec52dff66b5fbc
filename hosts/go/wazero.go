package qrglue

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// wazeroEngine is the default Engine: wazero (pure Go, no cgo), its compiler
// where it has one (amd64, arm64), else its interpreter.
type wazeroEngine struct{}

// wazeroCompiled is the process's one wazero runtime and the module compiled
// once in it: every instance of every Generator is instantiated from it, so
// an extra instance costs an instantiation, never a compile.
var wazeroCompiled struct {
	once     sync.Once
	runtime  wazero.Runtime
	compiled wazero.CompiledModule
	err      error
}

func compiledModule() (wazero.Runtime, wazero.CompiledModule, error) {
	wazeroCompiled.once.Do(func() {
		ctx := context.Background()
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
			wazeroCompiled.err = fmt.Errorf("qrglue: cannot load qrglue.raw.wasm: %w", err)
			return
		}
		wazeroCompiled.runtime, wazeroCompiled.compiled = runtime, compiled
	})
	return wazeroCompiled.runtime, wazeroCompiled.compiled, wazeroCompiled.err
}

func checkSignatures(compiled wazero.CompiledModule) error {
	exports := compiled.ExportedFunctions()
	for _, e := range RawExports() {
		def, ok := exports[e.Name()]
		if !ok {
			return fmt.Errorf("export %s is missing", e.Name())
		}
		params, results := def.ParamTypes(), def.ResultTypes()
		wantParams, wantResults := e.Signature()
		if len(params) != wantParams || len(results) != wantResults || !allI32(params) || !allI32(results) {
			return fmt.Errorf("export %s has %d params and %d results, the glue expects %d and %d i32s",
				e.Name(), len(params), len(results), wantParams, wantResults)
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

// wazeroInstance is one wazero module instance: its memory, its exports, and
// one stack for CallWithStack (no allocation per call).
type wazeroInstance struct {
	module api.Module
	memory api.Memory
	funcs  [exportCount]api.Function
	stack  [17]uint64
	ctx    context.Context
}

func (wazeroEngine) Instantiate() (Instance, error) {
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
	in := &wazeroInstance{module: module, memory: module.ExportedMemory("memory"), ctx: ctx}
	for _, e := range RawExports() {
		in.funcs[e] = module.ExportedFunction(e.Name())
	}
	return in, nil
}

func (in *wazeroInstance) Call(fn Export, args ...uint32) (uint32, error) {
	stack := in.stack[:max(len(args), 1)]
	for i, a := range args {
		stack[i] = api.EncodeU32(a)
	}
	if err := in.funcs[fn].CallWithStack(in.ctx, stack); err != nil {
		return 0, err
	}
	return api.DecodeU32(stack[0]), nil
}

func (in *wazeroInstance) Write(ptr uint32, data []byte) bool { return in.memory.Write(ptr, data) }

func (in *wazeroInstance) WriteString(ptr uint32, data string) bool {
	return in.memory.WriteString(ptr, data)
}

func (in *wazeroInstance) Read(ptr, length uint32) ([]byte, bool) { return in.memory.Read(ptr, length) }

func (in *wazeroInstance) Close() error { return in.module.Close(in.ctx) }

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
