package dev.qrglue;

import java.util.Arrays;

/**
 * The modules of a code, quiet zone excluded: {@code width × width} bits packed row by row, most
 * significant bit first (WIT {@code qr-matrix}). The array is the record's own copy.
 *
 * @param width modules per side: 21 (version 1) to 177 (version 40), or 11 (M1) to 17 (M4) for Micro QR
 * @param modules {@code ceil(width * width / 8)} bytes; bit {@code i = y * width + x} is module (x, y),
 *     1 dark; unused bits of the last byte are 0
 */
public record QrMatrix(int width, byte[] modules) {
    /**
     * A matrix from its width and packed modules (the array is copied).
     *
     * @throws IllegalArgumentException if {@code width} is not positive or {@code modules} is not
     *     {@code ceil(width * width / 8)} bytes long
     */
    public QrMatrix {
        long bits = (long) width * width;
        if (width <= 0 || modules.length != (bits + 7) / 8) {
            throw new IllegalArgumentException(
                    "a " + width + "-wide matrix has " + (bits + 7) / 8 + " bytes of modules, not " + modules.length);
        }
        modules = modules.clone();
    }

    /**
     * The packed modules.
     *
     * @return a copy: changing it does not change the matrix
     */
    @Override
    public byte[] modules() {
        return modules.clone();
    }

    /**
     * Whether the module at column x, row y is dark.
     *
     * @param x the column, 0 to width - 1 (quiet zone not included)
     * @param y the row, 0 to width - 1
     * @return true for a dark module
     * @throws IndexOutOfBoundsException if (x, y) is outside the matrix
     */
    public boolean isDark(int x, int y) {
        if (x < 0 || y < 0 || x >= width || y >= width) {
            throw new IndexOutOfBoundsException("(" + x + ", " + y + ") is outside a " + width + "-wide matrix");
        }
        int bit = y * width + x;
        return (modules[bit >>> 3] & (0x80 >>> (bit & 7))) != 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof QrMatrix m && m.width == width && Arrays.equals(m.modules, modules);
    }

    @Override
    public int hashCode() {
        return 31 * width + Arrays.hashCode(modules);
    }

    @Override
    public String toString() {
        return "QrMatrix[width=" + width + "]";
    }
}
