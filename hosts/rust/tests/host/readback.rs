//! Every text reads back as itself in a QR reader, on every Rust path.
//!
//! The reader is zxing-cpp (the `zxing-cpp` crate, its C++ built from source)
//! and what is compared is its decoded *text*, what a person's phone shows:
//! a symbol that declares Shift-JIS Kanji for UTF-8 bytes decodes to the
//! right bytes (rqrr's `decode` in decode.rs) and the wrong text
//! (guest/core/UPSTREAM.md). Every path gives the same PNG (asserted), so
//! each distinct PNG is read once.

use proptest::prelude::*;
use qrglue_host::{EcLevel, Options, Path};
use qrglue_vectors::{Outcome, Text};

use crate::corpus::sha256_hex;

/// The text zxing-cpp shows for the one QR code in `png` (QR and Micro QR
/// codes only: a row of modules can also pass for a short ITF barcode).
fn reader_text(png: &[u8]) -> String {
    reader_text_of("", png)
}

/// [`reader_text`], naming `what` when no code is read.
fn reader_text_of(what: &str, png: &[u8]) -> String {
    read_one(what, png).text()
}

/// The bytes zxing-cpp decodes from the one QR code in `png`: what a binary
/// payload must read back as.
fn reader_bytes_of(what: &str, png: &[u8]) -> Vec<u8> {
    read_one(what, png).bytes()
}

/// The one QR or Micro QR code zxing-cpp reads in `png`.
fn read_one(what: &str, png: &[u8]) -> zxingcpp::Barcode {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).expect("a PNG the image crate reads").to_luma8();
    let view = zxingcpp::ImageView::from_slice(image.as_raw(), image.width(), image.height(), zxingcpp::ImageFormat::Lum).unwrap();
    let codes = zxingcpp::read()
        .formats([zxingcpp::BarcodeFormat::QRCode, zxingcpp::BarcodeFormat::MicroQRCode].as_slice())
        .from(view)
        .expect("zxing-cpp reads the image");
    assert_eq!(codes.len(), 1, "{what}: {} codes read", codes.len());
    let code = codes.into_iter().next().expect("one code");
    assert!(code.is_valid());
    code
}

/// Valid Unicode without control characters (a reader's text is for display).
fn readable(text: &str) -> bool {
    !text.chars().any(char::is_control)
}

#[test]
fn every_readable_corpus_text_reads_back_on_every_path() {
    let expected = qrglue_vectors::expected();
    let mut generators: Vec<_> = Path::ALL.into_iter().map(|path| (path, qrglue_host::generator(path).unwrap())).collect();
    let mut read = Vec::new();
    for case in qrglue_vectors::cases() {
        let Text::Utf8(text) = &case.text else { continue };
        let Some(Outcome::Image { png_sha256, .. }) = expected.get(&case.id) else { continue };
        // The 4096-pixel images are left to the smaller cases of the same
        // texts: decoding 16 MP adds seconds and reads no differently.
        if !readable(text) || case.options.min_size > 1024 {
            continue;
        }
        let pngs: Vec<Vec<u8>> = generators.iter_mut().map(|(_, generator)| generator.png(text, &case.options).unwrap()).collect();
        for ((path, _), png) in generators.iter().zip(&pngs) {
            assert_eq!(&sha256_hex(png), png_sha256, "{} on {path}", case.id);
        }
        assert_eq!(reader_text_of(&case.id, &pngs[0]), *text, "{}", case.id);
        read.push(case.id);
    }
    assert!(read.len() > 150, "only {} cases read", read.len());
    let micro = read.iter().filter(|id| id.starts_with("sym-micro-")).count();
    assert!(micro >= 10, "only {micro} Micro QR cases read");
    for id in [
        "script-zh-sentence",
        "script-ja-kanji",
        "script-ja-kana",
        "script-ja-quotes",
        "unicode-supplementary-planes",
        "sym-micro-m1-numeric",
    ] {
        assert!(read.iter().any(|r| r == id), "{id} was not read");
    }
}

#[test]
fn every_corpus_payload_reads_back_as_its_bytes_on_every_path() {
    let expected = qrglue_vectors::expected();
    let mut generators: Vec<_> = Path::ALL.into_iter().map(|path| (path, qrglue_host::generator(path).unwrap())).collect();
    let mut read = 0;
    for case in qrglue_vectors::cases() {
        let Text::Bytes(data) = &case.text else { continue };
        let Some(Outcome::Image { png_sha256, .. }) = expected.get(&case.id) else { continue };
        let pngs: Vec<Vec<u8>> = generators.iter_mut().map(|(_, generator)| generator.png_bytes(data, &case.options).unwrap()).collect();
        for ((path, _), png) in generators.iter().zip(&pngs) {
            assert_eq!(&sha256_hex(png), png_sha256, "{} on {path}", case.id);
        }
        assert_eq!(reader_bytes_of(&case.id, &pngs[0]), *data, "{}", case.id);
        read += 1;
    }
    assert!(read >= 10, "only {read} payload cases read");
}

/// Characters from the scripts a phone meets every day, and ASCII.
fn script_char() -> impl Strategy<Value = char> {
    let ranges: [(u32, u32); 16] = [
        (0x4E00, 0x9FFF),
        (0x3041, 0x3096),
        (0x30A1, 0x30FA),
        (0x3001, 0x3011),
        (0xFF01, 0xFF5E),
        (0xAC00, 0xD7A3),
        (0x0410, 0x044F),
        (0x03B1, 0x03C9),
        (0x0621, 0x063A),
        (0x05D0, 0x05EA),
        (0x0905, 0x0939),
        (0x0E01, 0x0E30),
        (0x00C0, 0x00FF),
        (0x1F600, 0x1F64F),
        (0x0030, 0x0039),
        (0x0061, 0x007A),
    ];
    proptest::sample::select(ranges.to_vec()).prop_flat_map(|(lo, hi)| (lo..=hi).prop_filter_map("a scalar value", char::from_u32))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn texts_from_many_scripts_read_back(chars in proptest::collection::vec(script_char(), 1..60), level in 0..4usize) {
        let text: String = chars.into_iter().collect();
        let ec_level = [EcLevel::Low, EcLevel::Medium, EcLevel::Quartile, EcLevel::High][level];
        let options = Options { ec_level, ..Options::default() };
        let png = qrglue_core::png(&text, &options).unwrap();
        prop_assert_eq!(reader_text(&png), text);
    }
}

/// The matrix every path returns is what its PNG shows (each module a block
/// of pixels inside the quiet zone), and its ascii text is the same modules:
/// a custom renderer drawing the matrix draws the code that reads back.
#[test]
fn the_matrix_and_the_text_are_the_pngs_modules_on_every_path() {
    let options = Options { ec_level: EcLevel::Medium, min_size: 100, quiet_zone: 2, ..Options::default() };
    for text in ["https://www.reddit.com/r/rustjerk/top/?t=all", "二维码 🦀", "0123456789"] {
        for path in Path::ALL {
            let mut generator = qrglue_host::generator(path).unwrap();
            let matrix = generator.matrix(text, &options).unwrap();
            let png = generator.png(text, &options).unwrap();
            let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_luma8();
            let across = matrix.width + 2 * options.quiet_zone;
            let module = image.width() / across;
            assert_eq!(image.width(), module * across, "{path}: {text}");
            let ascii = generator.text(text, &options, qrglue_host::TextStyle::Ascii).unwrap();
            let lines: Vec<&str> = ascii.lines().collect();
            for y in 0..matrix.width {
                for x in 0..matrix.width {
                    let dark = matrix.is_dark(x, y);
                    let (px, py) = ((x + options.quiet_zone) * module, (y + options.quiet_zone) * module);
                    assert_eq!(image.get_pixel(px, py).0[0] == 0, dark, "{path}: {text}: module ({x}, {y})");
                    let (cx, cy) = (2 * (x + options.quiet_zone) as usize, (y + options.quiet_zone) as usize);
                    assert_eq!(&lines[cy][cx..cx + 2], if dark { "##" } else { "  " }, "{path}: {text}: ({x}, {y})");
                }
            }
            assert_eq!(reader_text(&png), text);
        }
    }
}

/// Colours and scale, as a person would pick them, still read back on every
/// path: a two-entry palette (with transparency) is what a reader decodes.
#[test]
fn coloured_and_scaled_codes_read_back_on_every_path() {
    use qrglue_host::Rgba;
    let hex = |text: &str| Rgba::from_hex(text).unwrap();
    let text = "https://www.reddit.com/r/rustjerk/top/?t=all";
    for (dark, light, scale) in [("#336699", "#eeeeee", Some(5)), ("#000", "#ffffff00", None), ("#800000c0", "#fffbe6", Some(3))] {
        let options = Options { dark: hex(dark), light: hex(light), scale, ..Options::default() };
        for path in Path::ALL {
            let png = qrglue_host::generator(path).unwrap().png(text, &options).unwrap();
            let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_rgba8();
            if let Some(scale) = scale {
                assert_eq!(image.width(), 37 * scale, "{path}");
            }
            // The quiet zone's corner is light; the finder's corner module dark.
            let module = image.width() / 37;
            let [l, d] = [(1, 1), (4, 4)].map(|(x, y)| image.get_pixel(x * module + module / 2, y * module + module / 2).0);
            let rgba = |c: Rgba| [c.r, c.g, c.b, c.a];
            assert_eq!((l, d), (rgba(options.light), rgba(options.dark)), "{path} {dark} on {light}");
            // The reader is given the colours without their alpha (zxing-cpp reads grey levels).
            let over_white = image::DynamicImage::ImageRgba8(image).to_rgb8();
            let mut flat = Vec::new();
            image::DynamicImage::ImageRgb8(over_white).write_to(&mut std::io::Cursor::new(&mut flat), image::ImageFormat::Png).unwrap();
            assert_eq!(reader_text(&flat), text, "{path} {dark} on {light}");
        }
    }
}
