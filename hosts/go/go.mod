module qrglue.dev/qrglue

go 1.25.0

require (
	github.com/boombuler/barcode v1.1.0
	github.com/skip2/go-qrcode v0.0.0-20200617195104-da1b6568686e
	github.com/tetratelabs/wazero v1.12.0
)

require golang.org/x/sys v0.44.0 // indirect
