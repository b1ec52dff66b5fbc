module qrglue.dev/qrglue/wasmtime

go 1.25.0

require qrglue.dev/qrglue v0.0.0

require (
	github.com/bytecodealliance/wasmtime-go/v44 v44.0.0
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/sys v0.44.0 // indirect
)

replace qrglue.dev/qrglue => ../
