// Package wasmtime runs qrglue's raw path on Wasmtime, through wasmtime-go
// (cgo; its module ships Wasmtime's prebuilt static library per platform):
// the same glue as the wazero path (qrglue.Engine), another engine.
//
// It is a module of its own (qrglue.dev/qrglue/wasmtime), so that the
// qrglue module, which needs no cgo, does not bring wasmtime-go's 237 MB
// of static libraries to every program that uses it.
package wasmtime

import (
	"errors"
	"fmt"
	"sync"

	wt "github.com/bytecodealliance/wasmtime-go/v44"

	"qrglue.dev/qrglue"
)

// NewGenerator is qrglue.NewGenerator on Wasmtime: a pool of up to maxIdle
// idle instances (GOMAXPROCS when maxIdle < 1), each in a Store of its own,
// all of one Module compiled once per process.
func NewGenerator(maxIdle int) (*qrglue.Generator, error) {
	return qrglue.NewGeneratorOn(engine{}, maxIdle)
}

// maxMemoryBytes: the module's own maximum (1024 pages, 64 MiB), stated to
// each Store's limiter too, as the wazero engine states it.
const maxMemoryBytes = 1024 * 65536

type engine struct{}

var compiled struct {
	once   sync.Once
	engine *wt.Engine
	module *wt.Module
	err    error
}

// compile makes the process's one Wasmtime Engine and compiles
// qrglue.raw.wasm once in it (Cranelift, the default), checking every
// export's signature.
func compile() (*wt.Engine, *wt.Module, error) {
	compiled.once.Do(func() {
		e := wt.NewEngine()
		module, err := wt.NewModule(e, qrglue.RawWasm())
		if err == nil {
			err = checkSignatures(module)
		}
		if err != nil {
			compiled.err = fmt.Errorf("qrglue: cannot load qrglue.raw.wasm in Wasmtime: %w", err)
			return
		}
		compiled.engine, compiled.module = e, module
	})
	return compiled.engine, compiled.module, compiled.err
}

func checkSignatures(module *wt.Module) error {
	types := map[string]*wt.ExternType{}
	for _, export := range module.Exports() {
		types[export.Name()] = export.Type()
	}
	for _, e := range qrglue.RawExports() {
		ty, ok := types[e.Name()]
		if !ok || ty.FuncType() == nil {
			return fmt.Errorf("export %s is missing", e.Name())
		}
		params, results := ty.FuncType().Params(), ty.FuncType().Results()
		wantParams, wantResults := e.Signature()
		if len(params) != wantParams || len(results) != wantResults || !allI32(params) || !allI32(results) {
			return fmt.Errorf("export %s has %d params and %d results, the glue expects %d and %d i32s",
				e.Name(), len(params), len(results), wantParams, wantResults)
		}
	}
	if ty, ok := types["memory"]; !ok || ty.MemoryType() == nil {
		return errors.New("export memory is missing")
	}
	return nil
}

func allI32(types []*wt.ValType) bool {
	for _, t := range types {
		if t.Kind() != wt.KindI32 {
			return false
		}
	}
	return true
}

// instance is one Store with one instance of the module: a Store is not
// safe for two goroutines at once, and the Generator's pool gives an
// instance to one call at a time.
type instance struct {
	store  *wt.Store
	memory *wt.Memory
	funcs  []*wt.Func
	args   []any
}

func (engine) Instantiate() (qrglue.Instance, error) {
	e, module, err := compile()
	if err != nil {
		return nil, err
	}
	store := wt.NewStore(e)
	store.Limiter(maxMemoryBytes, -1, -1, -1, -1)
	inst, err := wt.NewInstance(store, module, nil)
	if err != nil {
		store.Close()
		return nil, fmt.Errorf("qrglue: cannot instantiate qrglue.raw.wasm in Wasmtime: %w", err)
	}
	in := &instance{store: store, memory: inst.GetExport(store, "memory").Memory(), args: make([]any, 0, 17)}
	for _, export := range qrglue.RawExports() {
		in.funcs = append(in.funcs, inst.GetFunc(store, export.Name()))
	}
	return in, nil
}

// Call goes through wasmtime-go's Func.Call, which takes its arguments as
// interface values (int32 for an i32) and returns the result as one.
func (in *instance) Call(fn qrglue.Export, args ...uint32) (uint32, error) {
	in.args = in.args[:0]
	for _, a := range args {
		in.args = append(in.args, int32(a))
	}
	result, err := in.funcs[fn].Call(in.store, in.args...)
	if err != nil {
		return 0, err
	}
	if v, ok := result.(int32); ok {
		return uint32(v), nil
	}
	return 0, nil
}

// data is linear memory as a slice, taken anew on every access: a call may
// have grown (moved) it.
func (in *instance) data() []byte { return in.memory.UnsafeData(in.store) }

func (in *instance) Write(ptr uint32, data []byte) bool {
	memory := in.data()
	if uint64(ptr)+uint64(len(data)) > uint64(len(memory)) {
		return false
	}
	copy(memory[ptr:], data)
	return true
}

func (in *instance) WriteString(ptr uint32, data string) bool {
	memory := in.data()
	if uint64(ptr)+uint64(len(data)) > uint64(len(memory)) {
		return false
	}
	copy(memory[ptr:], data)
	return true
}

func (in *instance) Read(ptr, length uint32) ([]byte, bool) {
	memory := in.data()
	if uint64(ptr)+uint64(length) > uint64(len(memory)) {
		return nil, false
	}
	return memory[ptr : ptr+length], true
}

func (in *instance) Close() error {
	in.store.Close()
	return nil
}
