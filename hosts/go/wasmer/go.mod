module qrglue.dev/qrglue/wasmer

go 1.25.0

require qrglue.dev/qrglue v0.0.0

require (
	github.com/tetratelabs/wazero v1.12.0 // indirect
	github.com/wasmerio/wasmer-go v1.0.4
	golang.org/x/sys v0.44.0 // indirect
)

replace qrglue.dev/qrglue => ../
