// Package wasmer runs qrglue's raw path on Wasmer, through wasmer-go (cgo;
// its module ships a prebuilt libwasmer per platform): the same glue as the
// wazero path (qrglue.Engine), another engine, with either of Wasmer's
// compilers, Cranelift or Singlepass.
//
// The libwasmer wasmer-go v1.0.4 ships (its newest release) is Wasmer
// 2.0, from 2021: it has no wasm SIMD, so this engine runs
// qrglue.raw-nosimd.wasm, the same guest built without simd128 (as wasm3
// and Chicory do), which it embeds. Today's Wasmer (7.x) has no Go
// binding that any registry here serves prebuilt; it is measured by hand
// in experiments/wasmer (docs/go.md).
//
// It is a module of its own (qrglue.dev/qrglue/wasmer), so that the qrglue
// module, which needs no cgo, does not bring wasmer-go's libraries to every
// program that uses it.
package wasmer

import (
	_ "embed"
	"errors"
	"fmt"
	"sync"

	wr "github.com/wasmerio/wasmer-go/wasmer"

	"qrglue.dev/qrglue"
)

// nosimdWasm is target/wasm/qrglue.raw-nosimd.wasm, copied beside this file
// by `just build-go` (git-ignored, as hosts/go/qrglue.raw.wasm is).
//
//go:embed qrglue.raw-nosimd.wasm
var nosimdWasm []byte

// Compiler is the Wasmer back end that compiles the module.
type Compiler int

const (
	// Cranelift optimises (Wasmer's default compiler).
	Cranelift Compiler = iota
	// Singlepass compiles in one pass, fast to compile, slower to run.
	Singlepass
)

// String is the compiler's name, as the conformance paths use it.
func (c Compiler) String() string {
	if c == Singlepass {
		return "singlepass"
	}
	return "cranelift"
}

// NewGenerator is qrglue.NewGenerator on Wasmer with compiler: a pool of up
// to maxIdle idle instances (GOMAXPROCS when maxIdle < 1), all of one Module
// compiled once per process and compiler.
func NewGenerator(compiler Compiler, maxIdle int) (*qrglue.Generator, error) {
	if compiler != Cranelift && compiler != Singlepass {
		return nil, fmt.Errorf("qrglue: unknown Wasmer compiler %d", int(compiler))
	}
	return qrglue.NewGeneratorOn(engine{compiler}, maxIdle)
}

// NosimdWasm is the module this engine runs: qrglue.raw-nosimd.wasm.
func NosimdWasm() []byte { return nosimdWasm }

type engine struct{ compiler Compiler }

// compiled holds each compiler's Store and Module, made on first use.
var compiled [2]struct {
	once   sync.Once
	module *wr.Module
	err    error
}

// compile makes the compiler's Store and compiles the module once in it,
// checking every export's signature. Wasmer's Store is safe to share: each
// instance the pool makes is independent of the others.
func compile(compiler Compiler) (*wr.Module, error) {
	c := &compiled[compiler]
	c.once.Do(func() {
		config := wr.NewConfig()
		if compiler == Singlepass {
			config = config.UseSinglepassCompiler()
		} else {
			config = config.UseCraneliftCompiler()
		}
		store := wr.NewStore(wr.NewEngineWithConfig(config))
		module, err := wr.NewModule(store, nosimdWasm)
		if err == nil {
			err = checkSignatures(module)
		}
		if err != nil {
			c.err = fmt.Errorf("qrglue: cannot load qrglue.raw-nosimd.wasm in Wasmer (%s): %w", compiler, err)
			return
		}
		c.module = module
	})
	return c.module, c.err
}

func checkSignatures(module *wr.Module) error {
	types := map[string]*wr.ExternType{}
	for _, export := range module.Exports() {
		types[export.Name()] = export.Type()
	}
	for _, e := range qrglue.RawExports() {
		ty, ok := types[e.Name()]
		if !ok || ty.Kind() != wr.FUNCTION {
			return fmt.Errorf("export %s is missing", e.Name())
		}
		fn := ty.IntoFunctionType()
		params, results := fn.Params(), fn.Results()
		wantParams, wantResults := e.Signature()
		if len(params) != wantParams || len(results) != wantResults || !allI32(params) || !allI32(results) {
			return fmt.Errorf("export %s has %d params and %d results, the glue expects %d and %d i32s",
				e.Name(), len(params), len(results), wantParams, wantResults)
		}
	}
	if ty, ok := types["memory"]; !ok || ty.Kind() != wr.MEMORY {
		return errors.New("export memory is missing")
	}
	return nil
}

func allI32(types []*wr.ValueType) bool {
	for _, t := range types {
		if t.Kind() != wr.I32 {
			return false
		}
	}
	return true
}

// instance is one instance of the module, used by one call at a time (the
// Generator's pool sees to it).
type instance struct {
	instance *wr.Instance
	memory   *wr.Memory
	funcs    []wr.NativeFunction
	args     []any
}

func (e engine) Instantiate() (qrglue.Instance, error) {
	module, err := compile(e.compiler)
	if err != nil {
		return nil, err
	}
	inst, err := wr.NewInstance(module, wr.NewImportObject())
	if err != nil {
		return nil, fmt.Errorf("qrglue: cannot instantiate qrglue.raw-nosimd.wasm in Wasmer: %w", err)
	}
	memory, err := inst.Exports.GetMemory("memory")
	if err != nil {
		inst.Close()
		return nil, err
	}
	in := &instance{instance: inst, memory: memory, args: make([]any, 0, 17)}
	for _, export := range qrglue.RawExports() {
		fn, err := inst.Exports.GetFunction(export.Name())
		if err != nil {
			inst.Close()
			return nil, err
		}
		in.funcs = append(in.funcs, fn)
	}
	return in, nil
}

// Call goes through wasmer-go's NativeFunction, which takes its arguments as
// interface values (int32 for an i32) and returns the result as one; a trap
// is its error.
func (in *instance) Call(fn qrglue.Export, args ...uint32) (uint32, error) {
	in.args = in.args[:0]
	for _, a := range args {
		in.args = append(in.args, int32(a))
	}
	result, err := in.funcs[fn](in.args...)
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
func (in *instance) data() []byte { return in.memory.Data() }

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

// Close frees the instance now rather than at the next garbage collection.
func (in *instance) Close() error {
	in.instance.Close()
	return nil
}
