package dev.qrglue;

import java.util.Arrays;

/**
 * The modules of a code, quiet zone excluded: {@code width × width} bits packed row by row, most
 * significant bit first (WIT {@code qr-matrix}). The array is the record's own copy.
 */
public record QrMatrix(int width, byte[] modules) {
    public QrMatrix {
        long bits = (long) width * width;
        if (width <= 0 || modules.length != (bits + 7) / 8) {
            throw new IllegalArgumentException(
                    "a " + width + "-wide matrix has " + (bits + 7) / 8 + " bytes of modules, not " + modules.length);
        }
        modules = modules.clone();
    }

    @Override
    public byte[] modules() {
        return modules.clone();
    }

    /** Whether the module at column x, row y is dark. */
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
