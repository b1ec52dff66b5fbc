//go:build cgo && qrglue_native

package qrglue

// NativePanicProbe is the C library's panic probe, for native_test.go.
var NativePanicProbe = nativePanicProbe
