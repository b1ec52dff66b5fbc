package qrglue

import (
	"errors"
	"fmt"
)

// Kind is one of the contract's error kinds (WIT `qr-error`), spelled as
// every host spells them.
type Kind string

// The error kinds, in WIT declaration order. The contract checks them in
// another order (invalid-text, empty-text, data-too-long, invalid-options):
// with two mistakes at once, every path reports the first of those.
const (
	EmptyText      Kind = "empty-text"
	InvalidText    Kind = "invalid-text"
	DataTooLong    Kind = "data-too-long"
	InvalidOptions Kind = "invalid-options"
)

// QrError is the contract's answer to bad input: no code was produced. Its
// Kind and Message are the same, for the same input, on every path of every
// host. Use errors.As to read them.
type QrError struct {
	Kind    Kind
	Message string
}

// Error returns Message.
func (e *QrError) Error() string { return e.Message }

// TrapError says the guest trapped (a wasm trap, which the contract's
// inputs never cause: a bug, or the trap probe). The instance that trapped
// was retired; the next call runs on a fresh one.
type TrapError struct {
	// Err is the engine's trap error.
	Err error
}

// Error names the trap and says the instance was retired.
func (e *TrapError) Error() string {
	return fmt.Sprintf("qrglue: the guest trapped; the instance was retired: %v", e.Err)
}

// Unwrap returns Err, the engine's error, for errors.Is and errors.As.
func (e *TrapError) Unwrap() error { return e.Err }

// ErrClosed is returned by a Generator's calls after Close.
var ErrClosed = errors.New("qrglue: the generator is closed")

// The contract's constants, defaults and messages are generated into
// options_gen.go from the one option table (guest/core/src/contract.rs).

// rawStatusKinds maps the raw ABI's result status (guest/raw/ABI.md) to a kind.
var rawStatusKinds = map[uint32]Kind{1: EmptyText, 2: InvalidText, 3: DataTooLong, 4: InvalidOptions}

func emptyText() error   { return &QrError{EmptyText, emptyTextMessage} }
func dataTooLong() error { return &QrError{DataTooLong, dataTooLongMessage} }
func invalidOptions(format string, args ...any) error {
	return &QrError{InvalidOptions, fmt.Sprintf(format, args...)}
}

// ErrNoGuest is returned by the probes of the guest (Noop, Consume, Produce,
// Trap, MemoryPages, PNGRepeat) on the native path, which has none.
var ErrNoGuest = errors.New("qrglue: the native path has no wasm guest to probe")

// ErrNativeUnavailable is NewNativeGenerator's error in a build without the
// native path (cgo and the build tag qrglue_native, with the C library built).
var ErrNativeUnavailable = errors.New("qrglue: this build has no native path: build with cgo and -tags qrglue_native " +
	"after `just build-capi` (hosts/go/README.md)")

// ErrNativePanic wraps what the C library says when the Rust core panicked
// inside it (a bug): the panic was caught there and never crossed into Go.
var ErrNativePanic = errors.New("qrglue: the native library panicked")
