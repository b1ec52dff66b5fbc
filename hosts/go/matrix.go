package qrglue

import (
	"encoding/binary"
	"fmt"
)

// Matrix is a code's modules, for drawing it yourself; the quiet zone is not
// included (WIT `qr-matrix`). Width is the modules per side (21..=177, or
// 11..=17 for Micro QR); Modules holds Width*Width bits, row-major, most
// significant bit first: module (x, y) is dark when bit y*Width+x is set.
type Matrix struct {
	Width   int
	Modules []byte
}

// IsDark says whether the module at column x, row y (0-based) is dark; false
// outside the matrix.
func (m *Matrix) IsDark(x, y int) bool {
	if x < 0 || y < 0 || x >= m.Width || y >= m.Width {
		return false
	}
	i := y*m.Width + x
	return m.Modules[i>>3]>>(7-(i&7))&1 == 1
}

// Rows returns every row, top to bottom (true is dark).
func (m *Matrix) Rows() [][]bool {
	rows := make([][]bool, m.Width)
	for y := range rows {
		rows[y] = make([]bool, m.Width)
		for x := range rows[y] {
			rows[y][x] = m.IsDark(x, y)
		}
	}
	return rows
}

// matrixFromPayload reads qr_matrix's payload: the width as a little-endian
// u32, then ceil(width*width/8) bytes of modules, no more, no less.
func matrixFromPayload(payload []byte) (*Matrix, error) {
	if len(payload) < 4 {
		return nil, fmt.Errorf("qrglue: qr_matrix returned %d bytes, less than its width", len(payload))
	}
	width := int(binary.LittleEndian.Uint32(payload))
	modules := payload[4:]
	if width > 177 || len(modules) != (width*width+7)/8 {
		return nil, fmt.Errorf("qrglue: qr_matrix returned a %dx%d matrix with %d bytes of modules", width, width, len(modules))
	}
	return &Matrix{Width: width, Modules: modules}, nil
}
