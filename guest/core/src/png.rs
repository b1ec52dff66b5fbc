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

use crate::{Options, QrMatrix};

/// PNG filter type bytes (PNG spec, section 9.2).
const FILTER_NONE: u8 = 0;
const FILTER_UP: u8 = 2;

/// zlib-rs settings: see the module comment for the measurement.
const DEFLATE_LEVEL: i32 = 4;
const DEFLATE_WINDOW_BITS: i32 = 12;
const DEFLATE_MEM_LEVEL: i32 = 6;

/// Renders `matrix` with `options`' module size and quiet zone.
pub fn render_png(matrix: &QrMatrix, options: &Options) -> Vec<u8> {
    let filtered = filtered_rows(matrix, options);
    let side = options.modules_across(matrix.width()) * options.module_pixels(matrix.width());
    let idat = deflate(&filtered);
    write_container(side, &idat, options)
}

/// The zlib stream of `data`, compressed in one call.
fn deflate(data: &[u8]) -> Vec<u8> {
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

/// The image's scanlines, each prefixed by its filter byte, ready to deflate.
/// Light pixels are 1 (white), dark are 0; padding bits at a row's end are 0.
///
/// Written into buffers sized up front, by index: no `Vec` growth check or
/// call in the loops. Cranelift (wasmtime) kept the earlier `Vec::push`
/// version's bit accumulator and buffer pointers on the stack, reloading them
/// on every push (guest-only png ~1.7 us over native in this function, perf
/// profile, README "Build profile"), and each Up row's `resize` was one
/// `memory.fill` libcall (~200 per png): the one zeroed buffer replaces them.
fn filtered_rows(matrix: &QrMatrix, options: &Options) -> Vec<u8> {
    let n = matrix.width();
    let quiet = options.quiet_zone as usize;
    let across = options.modules_across(n) as usize;
    let scale = options.module_pixels(n) as usize;
    let row_bytes = (across * scale).div_ceil(8);
    let line = row_bytes + 1;

    // Zeroed: an Up row of a repeat is its filter byte then zeros, already there.
    let mut out = vec![0u8; line * across * scale];
    let mut previous = vec![0u8; row_bytes];
    let mut row = vec![0u8; row_bytes];
    for (module_y, block) in out.chunks_exact_mut(line * scale).enumerate() {
        pack_module_row(matrix, quiet, scale, module_y, &mut row);
        // The first pixel row of a module row repeats the row above only when
        // two module rows are equal (quiet zone, or equal code rows); the
        // other `scale - 1` pixel rows always repeat it.
        let first_repeats = module_y > 0 && row == previous;
        for (pixel_row, scanline) in block.chunks_exact_mut(line).enumerate() {
            if pixel_row > 0 || first_repeats {
                scanline[0] = FILTER_UP;
            } else {
                scanline[0] = FILTER_NONE;
                scanline[1..].copy_from_slice(&row);
            }
        }
        std::mem::swap(&mut row, &mut previous);
    }
    out
}

/// Writes one module row (quiet zone included), each module `scale` pixels
/// wide, into `row` as 1-bit pixels, most significant bit first; fills all of
/// `row`, padding bits included.
fn pack_module_row(matrix: &QrMatrix, quiet: usize, scale: usize, module_y: usize, row: &mut [u8]) {
    let n = matrix.width();
    let mut bits = BitPacker::new(row);
    let code_row = module_y.checked_sub(quiet).filter(|&y| y < n).map(|y| matrix.row(y));
    match code_row {
        None => bits.push(true, (n + 2 * quiet) * scale),
        Some(modules) => {
            bits.push(true, quiet * scale);
            for &dark in modules {
                bits.push(!dark, scale);
            }
            bits.push(true, quiet * scale);
        }
    }
    bits.finish();
}

/// Packs runs of equal bits into a byte slice, MSB first, through a 64-bit
/// accumulator: one shift per module instead of one operation per pixel.
struct BitPacker<'a> {
    out: &'a mut [u8],
    at: usize,
    acc: u64,
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
            self.acc = (self.acc << take) | if bit { (1u64 << take) - 1 } else { 0 };
            self.len += take;
            count -= take as usize;
            while self.len >= 8 {
                self.len -= 8;
                self.out[self.at] = (self.acc >> self.len) as u8;
                self.at += 1;
            }
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
fn write_container(side: u32, idat: &[u8], options: &Options) -> Vec<u8> {
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
