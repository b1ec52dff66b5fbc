//! Stage 2a: matrix -> 1-bit grayscale PNG.
//!
//! Why not `image`'s PNG encoder: it writes 8-bit pixels and feeds the
//! compressor row by row (~150-270 us and ~800 B for the reference URL). A QR
//! image is two colours in square blocks, so:
//! - 1 bit per pixel (8x less data to filter and compress);
//! - filter None on a row that differs from the row above, Up on a row that
//!   repeats it (an Up row of a repeat is all zeros, which deflate folds into
//!   one back-reference);
//! - the whole filtered image is compressed in one call (zlib-rs), and the
//!   container (signature, IHDR, IDAT, IEND with CRCs) is written by the `png`
//!   crate's chunk writer.
//!
//! Deflate is zlib-rs (pure Rust), level 4 with a 4 KiB window and memory
//! level 6: measured on the reference URL (README, "PNG compression"), it
//! gives 337 B of IDAT in ~13 us where miniz_oxide takes ~75-85 us for the
//! same size (it allocates and clears ~300 KB of tables per call) and zlib-rs
//! level 3 is 410 B in total, over the 400 B target. A 4 KiB window still
//! covers 8 rows of the widest image (4180 px = 523 B a row): repeats of a
//! row are Up-filtered zeros, matched at distance 1 anyway. zlib-rs hashes
//! without CPU-specific instructions, so native and wasm output are
//! identical (the golden tests check it on every path).

use crate::{Options, QrMatrix, deflate};

/// PNG filter type bytes (PNG spec, section 9.2).
const FILTER_NONE: u8 = 0;
const FILTER_UP: u8 = 2;

/// The previous writer's zlib-rs settings, kept for [`zlib_rs_deflate`]:
/// level 4, 4 KiB window, memory level 6.
const DEFLATE_LEVEL: i32 = 4;
const DEFLATE_WINDOW_BITS: i32 = 12;
const DEFLATE_MEM_LEVEL: i32 = 6;

/// Renders `matrix` with `options`' module size and quiet zone.
pub fn render_png(matrix: &QrMatrix, options: &Options) -> Vec<u8> {
    let rows = render_rows(matrix, options);
    let filtered = filter(&rows);
    let idat = deflate(&filtered);
    write_container(&rows, &idat, options)
}

/// The PNG of [`render_png`] with the previous writer's deflate (zlib-rs):
/// the oracle the tests compare pixels with, never on the hot path.
pub fn render_png_zlib_rs(matrix: &QrMatrix, options: &Options) -> Vec<u8> {
    let rows = render_rows(matrix, options);
    let filtered = filter(&rows);
    let idat = zlib_rs_deflate(&filtered.data);
    write_container(&rows, &idat, options)
}

/// Stage 1 of the PNG: one packed 1-bit pixel row per module row (quiet
/// zone included), before any repeat or filter.
pub struct PixelRows {
    /// Image width and height in pixels.
    pub side: u32,
    /// Pixels per module.
    pub scale: usize,
    /// Bytes per packed pixel row.
    pub row_bytes: usize,
    /// `modules_across` rows of `row_bytes`.
    pub rows: Vec<u8>,
}

/// Stage 2: the scanlines as deflate sees them, each module row's first
/// scanline filtered None (or Up when it repeats the module row above),
/// its `scale - 1` repeats Up (the filter byte, then zeros).
pub struct Filtered {
    /// `row_bytes + 1`: a scanline with its filter byte.
    pub line: usize,
    /// `scale * line`: one module row's scanlines.
    pub block: usize,
    /// Every scanline with its filter byte: blocks of `block` bytes, one per
    /// module row, what deflate compresses.
    pub data: Vec<u8>,
}

/// Stage 1: every module row packed once.
pub fn render_rows(matrix: &QrMatrix, options: &Options) -> PixelRows {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let across = options.modules_across(n) as usize;
    let scale = options.module_pixels(n) as usize;
    let side = across * scale;
    let row_bytes = side.div_ceil(8);
    let mut rows = vec![0u8; row_bytes * across];
    let packer = RowPacker::new(scale);
    for (module_y, row) in rows.chunks_exact_mut(row_bytes).enumerate() {
        let code_row = module_y.checked_sub(quiet).filter(|&y| y < n).map(|y| matrix.row(y));
        packer.pack(code_row, quiet, across, row);
    }
    PixelRows { side: side as u32, scale, row_bytes, rows }
}

/// Stage 2: the scanlines, prefixed by their filter bytes, in one zeroed
/// buffer (an Up scanline of a repeat is its filter byte then zeros, already
/// there), written by index.
pub fn filter(rows: &PixelRows) -> Filtered {
    let (scale, row_bytes) = (rows.scale, rows.row_bytes);
    let line = row_bytes + 1;
    let across = rows.rows.len() / row_bytes;
    let mut data = vec![0u8; line * across * scale];
    let mut previous: Option<&[u8]> = None;
    for (row, block) in rows.rows.chunks_exact(row_bytes).zip(data.chunks_exact_mut(line * scale)) {
        // The first pixel row of a module row repeats the row above only when
        // two module rows are equal (quiet zone, or equal code rows); the
        // other `scale - 1` pixel rows always repeat it.
        if previous == Some(row) {
            block[0] = FILTER_UP;
        } else {
            block[0] = FILTER_NONE;
            block[1..line].copy_from_slice(row);
        }
        for scanline in block.chunks_exact_mut(line).skip(1) {
            scanline[0] = FILTER_UP;
        }
        previous = Some(row);
    }
    Filtered { line, block: line * scale, data }
}

/// Stage 3: the zlib stream of the filtered image ([`deflate`]).
pub fn deflate(filtered: &Filtered) -> Vec<u8> {
    deflate::zlib_image(&filtered.data, filtered.line, filtered.block)
}

/// The previous writer's deflate: `data` in one zlib-rs call.
pub fn zlib_rs_deflate(data: &[u8]) -> Vec<u8> {
    let mut config = zlib_rs::DeflateConfig::new(DEFLATE_LEVEL);
    config.window_bits = DEFLATE_WINDOW_BITS;
    config.mem_level = DEFLATE_MEM_LEVEL;
    let mut out = vec![0u8; zlib_rs::compress_bound(data.len())];
    let (compressed, code) = zlib_rs::compress_slice(&mut out, data, config);
    // compress_bound is the documented worst case, and the config is valid:
    // anything but Ok is a bug.
    assert_eq!(code, zlib_rs::ReturnCode::Ok, "zlib-rs deflate into a compress_bound buffer");
    let written = compressed.len();
    out.truncate(written);
    out
}

/// Packs a module row into 1-bit pixels, MSB first, light = 1: a table maps
/// each byte of 8 modules to its `8 * scale` pixel bits (scale <= 8, the
/// default sizes), so a row costs one lookup per 8 modules; wider modules
/// (>= 9 pixels, at most 20) are pushed one module at a time.
struct RowPacker {
    scale: usize,
    /// Light-is-1 pixel bits of 8 modules (bit 7 of the index = first module).
    table: Vec<u64>,
}

impl RowPacker {
    fn new(scale: usize) -> RowPacker {
        let table = if scale <= 8 {
            let ones = (1u64 << scale) - 1;
            // Built from a 16-entry table of 4 modules: 272 shifts, not 2048.
            let mut nibble = [0u64; 16];
            for (i, bits) in nibble.iter_mut().enumerate() {
                for m in 0..4 {
                    if i & (8 >> m) == 0 {
                        *bits |= ones << ((3 - m) * scale);
                    }
                }
            }
            (0..256).map(|i| nibble[i >> 4] << (4 * scale) | nibble[i & 15]).collect()
        } else {
            Vec::new()
        };
        RowPacker { scale, table }
    }

    fn pack(&self, code_row: Option<&[bool]>, quiet: usize, across: usize, row: &mut [u8]) {
        let scale = self.scale;
        let mut bits = BitPacker::new(row);
        match code_row {
            None => bits.push(true, across * scale),
            Some(modules) => {
                bits.push(true, quiet * scale);
                if self.table.is_empty() {
                    for &dark in modules {
                        bits.push(!dark, scale);
                    }
                } else {
                    let mut chunks = modules.chunks_exact(8);
                    for chunk in &mut chunks {
                        let index = chunk.iter().fold(0usize, |acc, &dark| acc << 1 | usize::from(dark));
                        bits.push_bits(self.table[index], 8 * scale as u32);
                    }
                    for &dark in chunks.remainder() {
                        bits.push(!dark, scale);
                    }
                }
                bits.push(true, quiet * scale);
            }
        }
        bits.finish();
    }
}

/// Packs runs of equal bits into a byte slice, MSB first, through a 128-bit
/// accumulator (at most 7 bits pending between calls, so 64 more fit): one
/// shift per run or table entry instead of one operation per pixel.
struct BitPacker<'a> {
    out: &'a mut [u8],
    at: usize,
    acc: u128,
    len: u32,
}

impl<'a> BitPacker<'a> {
    fn new(out: &'a mut [u8]) -> Self {
        BitPacker { out, at: 0, acc: 0, len: 0 }
    }

    /// Appends `count` copies of `bit`.
    fn push(&mut self, bit: bool, mut count: usize) {
        while count > 0 {
            // Keep at most 63 bits pending so the shift below is defined.
            let take = count.min(56) as u32;
            self.push_bits(if bit { (1u64 << take) - 1 } else { 0 }, take);
            count -= take as usize;
        }
    }

    /// Appends the low `count` (<= 64) bits of `value`, most significant first.
    fn push_bits(&mut self, value: u64, count: u32) {
        self.acc = (self.acc << count) | u128::from(value);
        self.len += count;
        // Four bytes a store while they fit in the row, then byte by byte.
        while self.len >= 32 && self.at + 4 <= self.out.len() {
            self.len -= 32;
            self.out[self.at..self.at + 4].copy_from_slice(&((self.acc >> self.len) as u32).to_be_bytes());
            self.at += 4;
        }
        while self.len >= 8 {
            self.len -= 8;
            self.out[self.at] = (self.acc >> self.len) as u8;
            self.at += 1;
        }
    }

    /// Flushes the last partial byte, padded with 0 bits; the slice must be
    /// exactly full then.
    fn finish(mut self) {
        if self.len > 0 {
            self.out[self.at] = (self.acc << (8 - self.len)) as u8;
            self.at += 1;
        }
        debug_assert_eq!(self.at, self.out.len(), "a packed row fills its slice exactly");
    }
}

/// The PNG around `idat`. Black on opaque white is 1-bit grayscale (the
/// golden bytes); other colours keep the same 1-bit pixels (0 dark, 1 light)
/// as indexes into a two-entry palette, with a `tRNS` chunk when either
/// colour is not opaque: the pixels, their compression and so the speed are
/// the same, and the file grows by 18 B (PLTE) and 14 B (tRNS).
pub fn write_container(rows: &PixelRows, idat: &[u8], options: &Options) -> Vec<u8> {
    let side = rows.side;
    // signature 8 + IHDR 25 + IDAT 12 + data + IEND 12 (+ PLTE 18 + tRNS 14)
    let mut out = Vec::with_capacity(89 + idat.len());
    let mut encoder = png::Encoder::new(&mut out, side, side);
    if options.is_black_on_white() {
        encoder.set_color(png::ColorType::Grayscale);
    } else {
        let (dark, light) = (options.dark, options.light);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_palette(vec![dark.r, dark.g, dark.b, light.r, light.g, light.b]);
        if dark.a < 255 || light.a < 255 {
            encoder.set_trns(vec![dark.a, light.a]);
        }
    }
    encoder.set_depth(png::BitDepth::One);
    // Writing to a Vec cannot fail, and side (<= 4096 + 2 * 16 modules
    // of < 4096 px) is far below PNG's 2^31 limit: errors here are bugs.
    let mut writer = encoder.write_header().expect("PNG header into a Vec");
    writer.write_chunk(png::chunk::IDAT, idat).expect("PNG IDAT into a Vec");
    writer.finish().expect("PNG IEND into a Vec");
    out
}

#[cfg(test)]
mod tests {
    use super::BitPacker;

    #[test]
    fn bit_packer_packs_runs_msb_first_and_pads_with_zeros() {
        let mut out = [0xAAu8; 2];
        let mut bits = BitPacker::new(&mut out);
        bits.push(false, 3);
        bits.push(true, 10);
        bits.finish();
        assert_eq!(out, [0b0001_1111, 0b1111_1000]);

        let mut out = [0xAAu8; 26];
        let mut bits = BitPacker::new(&mut out);
        bits.push(true, 200);
        bits.push(false, 1);
        bits.push(true, 1);
        bits.finish();
        assert!(out[..25].iter().all(|&b| b == 0xFF));
        assert_eq!(out[25], 0b0100_0000);
    }
}
