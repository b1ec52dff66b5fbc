package main

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/boombuler/barcode"
	"github.com/boombuler/barcode/qr"
	"github.com/skip2/go-qrcode"
)

// Go's own QR encoders, measured in the same rounds as qrglue's paths, as
// node-qrcode and segno are in Node's and Python's benches: each called the
// way its README shows, at EC level L and a 200-pixel image (qrglue's
// defaults: level L, min-size 200, quiet zone 4). Their PNGs are their own
// (other encoders, other bytes), so the report compares times, not digests.
//
//   - go-qrcode (github.com/skip2/go-qrcode): qrcode.Encode(text, Low, 200):
//     its 4-module border, modules scaled to exactly 200 px, a 2-colour
//     palette, BestCompression. Its text and matrix: ToSmallString(false)
//     (half blocks, as qrglue's text) and Bitmap().
//   - barcode (github.com/boombuler/barcode): qr.Encode(text, L, Auto),
//     barcode.Scale to 200 x 200 (an integer scale, centred: it draws no
//     quiet zone of its own), png.Encode.
func peerSeries(cases map[string]string, reference string) []*series {
	text := func(id string) *string { return &id }
	var all []*series
	for i := 1; i <= 10; i++ {
		id := fmt.Sprintf("ref-%02d", i)
		t := cases[id]
		all = append(all,
			&series{path: "go-qrcode", op: "png", textID: text(id), call: func() (any, error) { return qrcode.Encode(t, qrcode.Low, 200) }},
			&series{path: "barcode", op: "png", textID: text(id), call: func() (any, error) { return barcodePNG(t) }})
	}
	ref := cases[reference]
	return append(all,
		&series{path: "go-qrcode", op: "text", textID: text(reference), call: func() (any, error) {
			q, err := qrcode.New(ref, qrcode.Low)
			if err != nil {
				return nil, err
			}
			return q.ToSmallString(false), nil
		}},
		&series{path: "go-qrcode", op: "matrix", textID: text(reference), call: func() (any, error) {
			q, err := qrcode.New(ref, qrcode.Low)
			if err != nil {
				return nil, err
			}
			return q.Bitmap(), nil
		}})
}

func barcodePNG(text string) ([]byte, error) {
	code, err := qr.Encode(text, qr.L, qr.Auto)
	if err != nil {
		return nil, err
	}
	if code, err = barcode.Scale(code, 200, 200); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := png.Encode(&out, code); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
