//! The PNG writer's deflate (guest/core/src/deflate.rs) against the previous
//! writer's (zlib-rs, kept as `png_stages::render_png_zlib_rs`): every corpus
//! image and the images at the bounds of every option must decode, with two
//! independent inflaters, to exactly the pixels of the zlib-rs PNG of the
//! same matrix, and stay within 3 % of its size.
//!
//! Decoder 1 is the `png` crate (fdeflate inside). Decoder 2 is this file's
//! own chunk reader, zlib-rs's inflate (a port of zlib, which checks the
//! Adler-32) and an unfilter written here. Python's Pillow (libz) reads every
//! corpus PNG back on the Python path (hosts/python/tests).
//!
//! `fixtures/previous_png.json` holds the PNG digests and sizes blessed
//! before this writer (tests/vectors/expected.json at its parent commit):
//! the oracle must still produce exactly those bytes, which ties "the same
//! pixels as zlib-rs's PNG" to "the same pixels as the PNGs replaced".

use std::collections::BTreeMap;

use qrglue_core::png_stages::render_png_zlib_rs;
use qrglue_core::{Options, QrMatrix, Rgba, Symbol, render_png};
use qrglue_vectors::Text;

/// What a PNG decodes to: its header fields, palette and transparency, and
/// the unfiltered scanlines.
#[derive(Debug, PartialEq, Eq)]
struct Image {
    width: u32,
    height: u32,
    color_type: u8,
    bit_depth: u8,
    palette: Option<Vec<u8>>,
    trns: Option<Vec<u8>>,
    pixels: Vec<u8>,
}

/// Decoder 1: the `png` crate.
fn decode_png_crate(bytes: &[u8]) -> Image {
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let mut reader = decoder.read_info().expect("png crate reads the header");
    let mut pixels = vec![0u8; reader.output_buffer_size().expect("buffer size")];
    let frame = reader.next_frame(&mut pixels).expect("png crate decodes the image");
    pixels.truncate(frame.buffer_size());
    let info = reader.info();
    Image {
        width: info.width,
        height: info.height,
        color_type: info.color_type as u8,
        bit_depth: info.bit_depth as u8,
        palette: info.palette.as_ref().map(|p| p.to_vec()),
        trns: info.trns.as_ref().map(|t| t.to_vec()),
        pixels,
    }
}

/// Decoder 2: chunks read here (CRCs checked), IDAT inflated by zlib-rs,
/// scanlines unfiltered here (None and Up: the only filters either writer
/// uses; any other is an error).
fn decode_independently(bytes: &[u8]) -> Image {
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "signature");
    let mut at = 8;
    let mut header = None;
    let (mut palette, mut trns, mut idat) = (None, None, Vec::new());
    let mut ended = false;
    while at < bytes.len() {
        let len = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        let kind = &bytes[at + 4..at + 8];
        let body = &bytes[at + 8..at + 8 + len];
        let crc = u32::from_be_bytes(bytes[at + 8 + len..at + 12 + len].try_into().unwrap());
        assert_eq!(crc, crc32(&bytes[at + 4..at + 8 + len]), "CRC of {}", String::from_utf8_lossy(kind));
        match kind {
            b"IHDR" => header = Some(body.to_vec()),
            b"PLTE" => palette = Some(body.to_vec()),
            b"tRNS" => trns = Some(body.to_vec()),
            b"IDAT" => idat.extend_from_slice(body),
            b"IEND" => ended = true,
            other => panic!("unexpected chunk {}", String::from_utf8_lossy(other)),
        }
        at += 12 + len;
    }
    assert!(ended && at == bytes.len(), "IEND is the last chunk");
    let header = header.expect("IHDR");
    let width = u32::from_be_bytes(header[0..4].try_into().unwrap());
    let height = u32::from_be_bytes(header[4..8].try_into().unwrap());
    let (bit_depth, color_type) = (header[8], header[9]);
    assert_eq!(bit_depth, 1);
    let row_bytes = (width as usize).div_ceil(8);
    let line = row_bytes + 1;
    let mut raw = vec![0u8; line * height as usize + 1];
    let (inflated, code) = zlib_rs::decompress_slice(&mut raw, &idat, zlib_rs::InflateConfig::default());
    assert_eq!(code, zlib_rs::ReturnCode::Ok, "zlib-rs inflates the IDAT (Adler-32 checked)");
    assert_eq!(inflated.len(), line * height as usize, "inflated size");
    let mut pixels = vec![0u8; row_bytes * height as usize];
    for y in 0..height as usize {
        let scanline = &inflated[y * line..(y + 1) * line];
        for x in 0..row_bytes {
            let above = if y == 0 { 0 } else { pixels[(y - 1) * row_bytes + x] };
            pixels[y * row_bytes + x] = match scanline[0] {
                0 => scanline[1 + x],
                2 => scanline[1 + x].wrapping_add(above),
                other => panic!("filter type {other}"),
            };
        }
    }
    Image { width, height, color_type, bit_depth, palette, trns, pixels }
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// Checks one image: both decoders give the oracle's pixels; returns the
/// (new, oracle) sizes.
fn check(label: &str, matrix: &QrMatrix, options: &Options) -> (usize, usize, Vec<u8>) {
    let new = render_png(matrix, options);
    let old = render_png_zlib_rs(matrix, options);
    let want = decode_png_crate(&old);
    assert_eq!(decode_independently(&old), want, "{label}: the two decoders disagree on the oracle's PNG");
    assert_eq!(decode_png_crate(&new), want, "{label}: png crate: pixels differ from zlib-rs's PNG");
    assert_eq!(decode_independently(&new), want, "{label}: zlib-rs inflate: pixels differ from zlib-rs's PNG");
    (new.len(), old.len(), old)
}

fn sha256_hex(bytes: &[u8]) -> String {
    qrglue_vectors::sha256_hex(bytes)
}

#[test]
fn every_corpus_png_has_the_previous_pixels_at_most_3_percent_larger() {
    let previous: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(include_str!("fixtures/previous_png.json")).expect("previous_png.json");
    let mut growth = Vec::new();
    let mut checked = 0;
    for case in qrglue_vectors::cases() {
        let matrix = match &case.text {
            Text::Utf8(text) => qrglue_core::matrix(text, &case.options),
            Text::Bytes(data) => qrglue_core::matrix_bytes(data, &case.options),
            Text::LoneSurrogate => continue,
        };
        let Ok(matrix) = matrix else { continue };
        let (new_len, old_len, old) = check(&case.id, &matrix, &case.options);
        let was = &previous[&case.id];
        assert_eq!(sha256_hex(&old), was["png_sha256"], "{}: zlib-rs no longer writes the PNG blessed before", case.id);
        growth.push((new_len as f64 / old_len as f64 - 1.0, case.id.clone(), old_len, new_len));
        checked += 1;
    }
    assert_eq!(checked, previous.len(), "every image case of the corpus, and only those, is in previous_png.json");
    growth.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (g, id, old, new) in growth.iter().filter(|g| g.0 > 0.03) {
        println!("over 3 %: {id} {old} -> {new} B ({:+.2} %)", g * 100.0);
    }
    let (min, median, max) = (&growth[0], &growth[growth.len() / 2], &growth[growth.len() - 1]);
    let total_old: usize = growth.iter().map(|g| g.2).sum();
    let total_new: usize = growth.iter().map(|g| g.3).sum();
    println!(
        "{checked} corpus PNGs: size change min {:+.2} % ({}), median {:+.2} % ({}), max {:+.2} % ({}); total {total_old} -> {total_new} B",
        min.0 * 100.0,
        min.1,
        median.0 * 100.0,
        median.1,
        max.0 * 100.0,
        max.1
    );
    assert!(max.0 <= 0.03, "{} grew {:.2} % ({} -> {} B): over 3 %", max.1, max.0 * 100.0, max.2, max.3);
}

#[test]
fn the_reference_png_is_at_most_400_bytes() {
    // The reference URL of the benchmark report (tests/bench/report.py).
    let case = qrglue_vectors::cases().into_iter().find(|c| c.id == "ref-02").expect("ref-02");
    let Text::Utf8(text) = &case.text else { panic!("ref-02 is a text") };
    let png = qrglue_core::png(text, &case.options).unwrap();
    println!("reference PNG: {} B", png.len());
    assert!(png.len() <= 400, "reference PNG is {} B", png.len());
}

/// The images at the bounds of every option: smallest and largest symbol,
/// quiet zone 0 and the maximum, scale 1 and the maximum, min_size at its
/// maximum (modules of hundreds of pixels, rows of ~520 bytes, module rows
/// of ~190 KB: far beyond one 32 KiB window), and the palette forms.
#[test]
fn bounds_of_every_option_decode_to_the_oracles_pixels() {
    let v40 = Symbol { version: Some(40), ..Symbol::AUTOMATIC };
    let m1 = Symbol { micro: true, version: Some(1), ..Symbol::AUTOMATIC };
    let v1 = Symbol { version: Some(1), ..Symbol::AUTOMATIC };
    let base = Options::default();
    let colored = Options { dark: Rgba { r: 0x33, g: 0x66, b: 0x99, a: 255 }, light: Rgba { r: 255, g: 255, b: 255, a: 0 }, ..base };
    let cases = [
        ("v1 scale 1 quiet 0", Options { scale: Some(1), quiet_zone: 0, symbol: v1, ..base }),
        ("m1 scale 1 quiet 0", Options { scale: Some(1), quiet_zone: 0, symbol: m1, ..base }),
        ("m1 min_size max", Options { min_size: qrglue_core::MAX_MIN_SIZE, quiet_zone: 0, symbol: m1, ..base }),
        (
            "v1 min_size max quiet max",
            Options { min_size: qrglue_core::MAX_MIN_SIZE, quiet_zone: qrglue_core::MAX_QUIET_ZONE, symbol: v1, ..base },
        ),
        ("v40 scale 1", Options { scale: Some(1), symbol: v40, ..base }),
        (
            "v40 scale max quiet max",
            Options { scale: Some(qrglue_core::MAX_SCALE), quiet_zone: qrglue_core::MAX_QUIET_ZONE, symbol: v40, ..base },
        ),
        ("v40 min_size max", Options { min_size: qrglue_core::MAX_MIN_SIZE, symbol: v40, ..base }),
        ("v40 scale 9 colored", Options { scale: Some(9), symbol: v40, ..colored }),
        ("v1 scale 7 colored", Options { scale: Some(7), symbol: v1, ..colored }),
    ];
    for (label, options) in cases {
        // The longest text each symbol holds at EC low is not needed: any
        // text gives a code; M1 holds 5 digits, version 1 17 bytes.
        let text = if options.symbol.micro {
            "12345"
        } else if options.symbol.version == Some(1) {
            "HELLO WORLD"
        } else {
            "https://example.com/bounds"
        };
        let matrix = qrglue_core::matrix(text, &options).expect(label);
        let (new_len, old_len, _) = check(label, &matrix, &options);
        println!("{label}: {old_len} -> {new_len} B");
    }
}
