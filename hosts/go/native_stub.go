//go:build !(cgo && qrglue_native)

package qrglue

// NewNativeGenerator returns ErrNativeUnavailable: this build has no native
// path (see native.go).
func NewNativeGenerator() (*Generator, error) { return nil, ErrNativeUnavailable }

func nativeRun(op, input, [11]uint32, *settings) ([]byte, error) { return nil, ErrNativeUnavailable }
