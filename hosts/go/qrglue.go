// Package qrglue makes QR codes (PNG, SVG, a module matrix, text) with the
// qrglue generator written once in Rust, here on its raw path: the plain
// wasm module qrglue.raw.wasm, embedded in this package, run by wazero (pure
// Go, no cgo), with the glue written by hand against guest/raw/ABI.md.
//
// Every path of every qrglue host (Rust, Node, Python, Go) gives the same
// bytes for the same input, and the same *QrError (kind and message) for the
// same bad input. Options are functional: each call without one uses the
// contract's defaults (level low, 200 pixels, quiet zone 4, black on white,
// the automatic symbol).
//
//	png, err := qrglue.PNG("https://example.com", qrglue.WithECLevel(qrglue.Medium))
//	var qrErr *qrglue.QrError
//	if errors.As(err, &qrErr) { fmt.Println(qrErr.Kind, qrErr.Message) }
//
// The package functions share one Generator (Default), safe for concurrent use.
package qrglue

// PNG is Default().PNG.
func PNG(text string, opts ...Option) ([]byte, error) {
	g, err := Default()
	if err != nil {
		return nil, err
	}
	return g.PNG(text, opts...)
}

// PNGBytes is Default().PNGBytes.
func PNGBytes(data []byte, opts ...Option) ([]byte, error) {
	g, err := Default()
	if err != nil {
		return nil, err
	}
	return g.PNGBytes(data, opts...)
}

// SVG is Default().SVG.
func SVG(text string, opts ...SVGOption) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.SVG(text, opts...)
}

// SVGBytes is Default().SVGBytes.
func SVGBytes(data []byte, opts ...SVGOption) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.SVGBytes(data, opts...)
}

// MatrixOf is Default().Matrix (Matrix is the type it returns).
func MatrixOf(text string, opts ...Option) (*Matrix, error) {
	g, err := Default()
	if err != nil {
		return nil, err
	}
	return g.Matrix(text, opts...)
}

// MatrixOfBytes is Default().MatrixBytes.
func MatrixOfBytes(data []byte, opts ...Option) (*Matrix, error) {
	g, err := Default()
	if err != nil {
		return nil, err
	}
	return g.MatrixBytes(data, opts...)
}

// Text is Default().Text.
func Text(text string, opts ...TextOption) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.Text(text, opts...)
}

// TextBytes is Default().TextBytes.
func TextBytes(data []byte, opts ...TextOption) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.TextBytes(data, opts...)
}

// PNGDataURL is Default().PNGDataURL.
func PNGDataURL(text string, opts ...Option) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.PNGDataURL(text, opts...)
}

// SVGDataURL is Default().SVGDataURL.
func SVGDataURL(text string, opts ...SVGOption) (string, error) {
	g, err := Default()
	if err != nil {
		return "", err
	}
	return g.SVGDataURL(text, opts...)
}
