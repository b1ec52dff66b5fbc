//go:build cgo && qrglue_native

package qrglue

// The native path: qrglue-core compiled for this machine, linked in as the
// static C library of hosts/c (its header, hosts/c/include/qrglue.h, is
// cbindgen's), called through cgo. No wasm, no instance: the library keeps
// no state between calls, so any number of goroutines call it at once. A
// Rust panic is caught inside the library (its status QRGLUE_STATUS_PANIC),
// never unwinds into Go: it comes back as an error wrapping ErrNativePanic.

/*
#cgo CFLAGS: -I${SRCDIR}/../c/include
#cgo LDFLAGS: ${SRCDIR}/../../target/addon/libqrglue_capi.a -lm -ldl -lpthread
#include "qrglue.h"
*/
import "C"

import (
	"fmt"
	"runtime"
	"unsafe"
)

// nativeCAPIVersion is the C ABI this glue is written against.
const nativeCAPIVersion = 1

// NewNativeGenerator returns a Generator on the native path. Its calls take
// the same options and give the same bytes and errors as the raw path; the
// probes of the guest return ErrNoGuest.
func NewNativeGenerator() (*Generator, error) {
	if v := C.qrglue_capi_version(); v != nativeCAPIVersion {
		return nil, fmt.Errorf("qrglue: the C library speaks C ABI %d, this glue speaks %d", v, nativeCAPIVersion)
	}
	return &Generator{native: true, idle: make(chan *instance)}, nil
}

// nativeRun makes one call into the C library. The input and the SVG
// strings are read where they are (pinned for the call); the result's
// payload is copied into Go memory, then freed by the library.
func nativeRun(o op, given input, args [11]uint32, s *settings) ([]byte, error) {
	var pinner runtime.Pinner
	defer pinner.Unpin()
	var data *C.uint8_t
	var length C.size_t
	if given.payload {
		if len(given.data) > 0 {
			data, length = (*C.uint8_t)(unsafe.Pointer(&given.data[0])), C.size_t(len(given.data))
		}
	} else if len(given.text) > 0 {
		data, length = (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(given.text))), C.size_t(len(given.text))
	}
	options := C.QrglueOptions{
		ec_level: C.uint32_t(args[0]), min_size: C.uint32_t(args[1]), quiet_zone: C.uint32_t(args[2]),
		has_scale: C.uint32_t(args[3]), scale: C.uint32_t(args[4]), dark: C.uint32_t(args[5]), light: C.uint32_t(args[6]),
		symbol_flags: C.uint32_t(args[7]), version: C.uint32_t(args[8]), min_version: C.uint32_t(args[9]),
		mask: C.uint32_t(args[10]),
	}
	var result C.QrglueResult
	switch o {
	case opPNG:
		if given.payload {
			result = C.qrglue_png_bytes(data, length, &options)
		} else {
			result = C.qrglue_png(data, length, &options)
		}
	case opSVG:
		flags, _, _ := s.svgABI()
		svg := C.QrglueSvgOptions{flags: C.uint32_t(flags)}
		if len(s.title) > 0 {
			title := unsafe.StringData(s.title)
			pinner.Pin(title) // the struct passed to C holds this pointer
			svg.title, svg.title_len = (*C.uint8_t)(unsafe.Pointer(title)), C.size_t(len(s.title))
		}
		if len(s.class) > 0 {
			class := unsafe.StringData(s.class)
			pinner.Pin(class)
			svg.class_name, svg.class_len = (*C.uint8_t)(unsafe.Pointer(class)), C.size_t(len(s.class))
		}
		if given.payload {
			result = C.qrglue_svg_bytes(data, length, &options, &svg)
		} else {
			result = C.qrglue_svg(data, length, &options, &svg)
		}
	case opMatrix:
		if given.payload {
			result = C.qrglue_matrix_bytes(data, length, &options)
		} else {
			result = C.qrglue_matrix(data, length, &options)
		}
	case opText:
		if given.payload {
			result = C.qrglue_text_bytes(data, length, &options, C.uint32_t(s.style))
		} else {
			result = C.qrglue_text(data, length, &options, C.uint32_t(s.style))
		}
	default:
		return nil, fmt.Errorf("qrglue: unknown operation %d", o)
	}
	return nativeResult(result)
}

// nativeResult copies a result's payload out, frees it in the library, and
// gives the payload or the error its status says.
func nativeResult(result C.QrglueResult) ([]byte, error) {
	var payload []byte
	if result.payload_len > 0 {
		payload = C.GoBytes(unsafe.Pointer(result.payload), C.int(result.payload_len))
	}
	status := uint32(result.status)
	C.qrglue_result_free(result)
	switch {
	case status == 0:
		return payload, nil
	case status == C.QRGLUE_STATUS_PANIC:
		return nil, fmt.Errorf("%w: %s", ErrNativePanic, payload)
	}
	kind, known := rawStatusKinds[status]
	if !known {
		return nil, fmt.Errorf("qrglue: unknown status %d from the C library", status)
	}
	return nil, &QrError{Kind: kind, Message: string(payload)}
}

// nativePanicProbe calls the C library's panic probe (tests).
func nativePanicProbe() error {
	_, err := nativeResult(C.qrglue_panic_probe())
	return err
}
