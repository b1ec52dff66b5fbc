// Package extism runs qrglue through Extism's Go SDK (github.com/extism/go-sdk,
// on wazero): the plug-in guest/extism (qrglue.extism.wasm) behind the same
// Generator, options and errors as every Go path (qrglue.PluginEngine).
//
// A module of its own (qrglue.dev/qrglue/extism), like ../wasmtime: the SDK
// brings its observability stack (observe-sdk, OpenTelemetry's protobufs),
// which the qrglue module does not need.
package extism

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"sync"

	sdk "github.com/extism/go-sdk"
	"github.com/tetratelabs/wazero"

	"qrglue.dev/qrglue"
)

// `just build-go` copies target/wasm/qrglue.extism.wasm here (a build output,
// git-ignored).
//
//go:embed qrglue.extism.wasm
var pluginWasm []byte

// PluginWasm is qrglue.extism.wasm (embedded).
func PluginWasm() []byte { return pluginWasm }

// NewGenerator is qrglue.NewGenerator on the Extism plug-in: a pool of up to
// maxIdle idle plug-in instances (GOMAXPROCS when maxIdle < 1), all of one
// CompiledPlugin made once per process.
func NewGenerator(maxIdle int) (*qrglue.Generator, error) {
	return qrglue.NewGeneratorOnPlugin(engine{}, maxIdle)
}

// maxPages: the guest's own memory maximum (1024 pages, 64 MiB, set by
// .cargo/config.toml), stated to Extism too, as the other engines state it.
const maxPages = 1024

type engine struct{}

var compiled struct {
	once   sync.Once
	plugin *sdk.CompiledPlugin
	err    error
}

// Compile makes the process's CompiledPlugin (wazero's compiler, no WASI:
// the guest imports only Extism's kernel). Exported for the bench, which
// times it apart from the first call.
func Compile() (*sdk.CompiledPlugin, error) {
	compiled.once.Do(func() {
		manifest := sdk.Manifest{
			Wasm:   []sdk.Wasm{sdk.WasmData{Data: pluginWasm, Name: "qrglue"}},
			Memory: &sdk.ManifestMemory{MaxPages: maxPages},
		}
		config := sdk.PluginConfig{RuntimeConfig: wazero.NewRuntimeConfig(), EnableWasi: false}
		plugin, err := sdk.NewCompiledPlugin(context.Background(), manifest, config, nil)
		if err != nil {
			compiled.err = fmt.Errorf("qrglue: cannot load qrglue.extism.wasm in Extism: %w", err)
			return
		}
		compiled.plugin = plugin
	})
	return compiled.plugin, compiled.err
}

func (engine) Instantiate() (qrglue.PluginInstance, error) {
	plugin, err := Compile()
	if err != nil {
		return nil, err
	}
	p, err := plugin.Instance(context.Background(), sdk.PluginInstanceConfig{ModuleConfig: wazero.NewModuleConfig()})
	if err != nil {
		return nil, fmt.Errorf("qrglue: cannot instantiate qrglue.extism.wasm: %w", err)
	}
	return &instance{p: p}, nil
}

type instance struct{ p *sdk.Plugin }

func (in *instance) Call(name string, input []byte) (uint32, []byte, error) {
	rc, out, err := in.p.Call(name, input)
	if err != nil {
		return rc, nil, err
	}
	// The output is the SDK's copy out of the plug-in's memory already: the
	// glue keeps it as it is.
	return rc, out, nil
}

func (in *instance) Close() error {
	if in.p == nil {
		return errors.New("qrglue: instance closed twice")
	}
	err := in.p.Close(context.Background())
	in.p = nil
	return err
}
