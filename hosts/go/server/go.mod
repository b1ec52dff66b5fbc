module qrglue.dev/qrglue/server

go 1.25.0

require qrglue.dev/qrglue v0.0.0

require (
	github.com/skip2/go-qrcode v0.0.0-20200617195104-da1b6568686e
	github.com/tetratelabs/wazero v1.12.0 // indirect
	golang.org/x/sys v0.44.0
)

replace qrglue.dev/qrglue => ../
