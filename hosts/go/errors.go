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

func (e *QrError) Error() string { return e.Message }

// TrapError says the guest trapped (a wasm trap, which the contract's
// inputs never cause: a bug, or the trap probe). The instance that trapped
// was retired; the next call runs on a fresh one.
type TrapError struct {
	Err error
}

func (e *TrapError) Error() string {
	return fmt.Sprintf("qrglue: the guest trapped; the instance was retired: %v", e.Err)
}

func (e *TrapError) Unwrap() error { return e.Err }

// ErrClosed is returned by a Generator's calls after Close.
var ErrClosed = errors.New("qrglue: the generator is closed")

// The contract's constants and messages (guest/core/src/contract.rs), restated
// so this package stands alone; contract_test.go holds them equal to
// target/contract.json, so they cannot drift.
const (
	// MaxTextBytes: no QR code holds more (numeric, version 40-L); a longer
	// text or payload is data-too-long before any byte enters the guest.
	MaxTextBytes = 7089
	// MaxPNGRepeatTimes: the most renders one PNGRepeat probe call may ask for.
	MaxPNGRepeatTimes = 50

	DefaultMinSize   = 200
	DefaultQuietZone = 4
	DefaultDark      = "#000000ff"
	DefaultLight     = "#ffffffff"

	emptyTextMessage       = "text is empty"
	dataTooLongMessage     = "text does not fit in a QR code at this error-correction level"
	loneSurrogateMessage   = "text contains a lone surrogate (not encodable as UTF-8)"
	notUTF8Template        = "text is not valid UTF-8 from byte %d"
	colorTemplate          = "%s must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got %s"
	tooLongTemplate        = "%s must be at most %d UTF-8 bytes, got %d"
	notXMLCharTemplate     = "%s holds U+%04X at byte %d, which XML 1.0 cannot carry"
	classTemplate          = "class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got %s"
	optionNotTextTemplate  = "%s is not valid UTF-8 from byte %d"
	optionSurrogateMessage = "%s contains a lone surrogate (not encodable as UTF-8)"

	svgTitleMaxBytes = 1024
	svgClassMaxBytes = 256
)

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
