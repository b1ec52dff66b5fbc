// The endpoint's query grammar and request-target rules (tests/http/README.md)
// are guest/http-query's: the one Rust crate every server uses. This server
// reaches it through the C library of hosts/c (qrglue_parse_query,
// qrglue_path_and_query, qrglue_method_class), linked in on every tier
// whatever path the tier measures; docs/contract.md ("One query grammar")
// says why. What is left here is the crossing: bytes in, Go values out.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../../c/include
#cgo LDFLAGS: ${SRCDIR}/../../../target/addon/libqrglue_capi.a -lm -ldl -lpthread
#include "qrglue.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"qrglue.dev/qrglue"
)

// httpMessage: one of guest/http-query's fixed messages.
func httpMessage(which C.uint32_t) string {
	var n C.size_t
	return C.GoStringN((*C.char)(unsafe.Pointer(C.qrglue_http_message(which, &n))), C.int(n))
}

var (
	unknownMethodMessage = httpMessage(C.QRGLUE_HTTP_UNKNOWN_METHOD)
	noHostMessage        = httpMessage(C.QRGLUE_HTTP_NO_HOST)
)

// httpError is a refusal: the status and the contract's JSON body.
type httpError struct {
	status  int
	kind    string
	message string
}

func (e *httpError) Error() string { return e.kind + ": " + e.message }

// bytesOf: a string's bytes for a C call that reads them and keeps nothing
// (cgo lets a call borrow Go memory that holds no Go pointers).
func bytesOf(s string) *C.uint8_t { return (*C.uint8_t)(unsafe.Pointer(unsafe.StringData(s))) }

// statusKinds: qrglue_parse_query's refusal statuses (hosts/c/include/qrglue.h).
var statusKinds = map[C.uint32_t]string{
	1: "empty-text", 2: "invalid-text", 4: "invalid-options",
	C.QRGLUE_STATUS_BAD_QUERY: "bad-query", C.QRGLUE_STATUS_TEXT_TOO_LONG: "text-too-long",
}

// optional is an option the query gives, or not (Set false: the generator's default).
type optional[T any] struct {
	Value T
	Set   bool
}

// request is a query that passed: the text ("" is empty-text, for the tier's
// generator to refuse) and the options as the C ABI's QrglueOptions carries
// them: each at a value (the core's default if not given), except scale, and
// the symbol options, which are only the ones given.
type request struct {
	Text               string
	ECLevel            uint32 // 0..=3: low, medium, quartile, high
	MinSize, QuietZone uint32
	Scale              optional[uint32]
	Dark, Light        uint32 // 0xRRGGBBAA
	Symbol             []symbolOption
}

// symbolOption is a symbol option the query gave (a flag set): its WIT name
// and value, a bool (true) or a uint32, as qrglue.NamedOption takes it.
type symbolOption struct {
	Name  string
	Value any
}

// symbol: the symbol options that symbol_flags says are given, in the
// table's order (qrglue.SymbolFlags), each number from its word.
func symbol(o *C.QrglueOptions) []symbolOption {
	numbers := map[string]C.uint32_t{"version": o.version, "min-version": o.min_version, "mask": o.mask}
	var given []symbolOption
	for _, f := range qrglue.SymbolFlags {
		if uint32(o.symbol_flags)&f.Bit == 0 {
			continue
		}
		if !f.Number {
			given = append(given, symbolOption{f.Name, true})
		} else if n, ok := numbers[f.Name]; ok {
			given = append(given, symbolOption{f.Name, uint32(n)})
		} else {
			panic("qrglue_parse_query: no word for " + f.Name)
		}
	}
	return given
}

// option: the symbol option named `name` in r, if given.
func (r *request) option(name string) (any, bool) {
	for _, o := range r.Symbol {
		if o.Name == name {
			return o.Value, true
		}
	}
	return nil, false
}

// checkQuery: the raw query (after '?', or "") -> the request, or the
// grammar's refusal. alone: the tier has no qrglue generator (static,
// go-qrcode), so an empty text and the generator's option checks are refused
// here too.
func checkQuery(query string, alone bool) (*request, *httpError) {
	var flags C.uint32_t
	if alone {
		flags = C.QRGLUE_QUERY_ALONE
	}
	var o C.QrglueOptions
	result := C.qrglue_parse_query(bytesOf(query), C.size_t(len(query)), flags, &o)
	payload := C.GoStringN((*C.char)(unsafe.Pointer(result.payload)), C.int(result.payload_len))
	C.qrglue_result_free(result)
	if result.status != C.QRGLUE_STATUS_OK {
		kind, ok := statusKinds[result.status]
		if !ok {
			panic(fmt.Sprintf("qrglue_parse_query: status %d: %s", result.status, payload))
		}
		return nil, &httpError{400, kind, payload}
	}
	return &request{
		Text: payload, ECLevel: uint32(o.ec_level), MinSize: uint32(o.min_size), QuietZone: uint32(o.quiet_zone),
		Scale: optional[uint32]{uint32(o.scale), o.has_scale != 0}, Dark: uint32(o.dark), Light: uint32(o.light),
		Symbol: symbol(&o),
	}, nil
}

// methodClass: "served" (GET, HEAD), "not-allowed" (405) or "unknown" (400:
// methods are case-sensitive).
func methodClass(method string) string {
	switch C.qrglue_method_class(bytesOf(method), C.size_t(len(method))) {
	case C.QRGLUE_METHOD_SERVED:
		return "served"
	case C.QRGLUE_METHOD_NOT_ALLOWED:
		return "not-allowed"
	}
	return "unknown"
}

// pathAndQuery: a request target as sent -> its path and query (a fragment
// dropped, absolute-form reduced, nothing decoded).
func pathAndQuery(target string) (path, query string) {
	var t C.QrglueTarget
	if C.qrglue_path_and_query(bytesOf(target), C.size_t(len(target)), &t) != 0 {
		panic("qrglue_path_and_query refused a Go string")
	}
	path = "/" // a path_len of 0 is the empty path
	if t.path_len > 0 {
		path = target[int(t.path_start):][:int(t.path_len)]
	}
	return path, target[int(t.query_start):][:int(t.query_len)]
}
