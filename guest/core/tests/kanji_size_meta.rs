//! Issue 38 part 1 in the core: Kanji mode on request, an exact pixel size,
//! and the matrix's metadata. The metadata is checked against rqrr, a reader
//! that reports the version, mask and EC level it sees (not our own
//! decoder); Kanji mode's read-back is zxing-cpp's, in the Python tests
//! (rqrr decodes Kanji segments as raw Shift-JIS bytes), and its matrices
//! are compared with segno's there too.

use qrglue_core::{EcLevel, Options, QrError, SegmentMode, Symbol, contract, encode_symbol};

fn kanji() -> Symbol {
    Symbol { kanji: true, ..Symbol::default() }
}

fn with(symbol: Symbol) -> Options {
    Options { symbol, ..Options::default() }
}

/// What rqrr reads from a PNG: (version, mask, EC level index in WIT order).
fn read_meta(png: &[u8]) -> (usize, u8, u16) {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1);
    let (meta, _) = grids[0].decode().expect("decodes");
    // rqrr's ecc_level is the format information's field: 1 L, 0 M, 3 Q, 2 H.
    (meta.version.0, meta.mask as u8, [1u16, 0, 3, 2][meta.ecc_level as usize])
}

#[test]
fn kanji_puts_cjk_runs_in_kanji_segments_and_ascii_as_before() {
    let m = encode_symbol("漢字", EcLevel::Low, &kanji()).unwrap();
    assert_eq!(m.info().modes, [SegmentMode::Kanji]);
    assert_eq!((m.info().version, m.width()), (1, 21));

    let m = encode_symbol("QR コード 2026 年", EcLevel::Low, &kanji()).unwrap();
    let modes = &m.info().modes;
    assert!(modes.contains(&SegmentMode::Kanji), "{modes:?}");
    // No Kanji run is ever merged into a byte segment: two Kanji runs here.
    assert_eq!(modes.iter().filter(|&&m| m == SegmentMode::Kanji).count(), 2, "{modes:?}");

    // The same text without kanji is all bytes (today's default).
    let m = encode_symbol("漢字", EcLevel::Low, &Symbol { min_version: Some(1), ..Symbol::default() }).unwrap();
    assert_eq!(m.info().modes, [SegmentMode::Byte]);
}

#[test]
fn kanji_makes_japanese_text_smaller() {
    let text = "日本語のテキストは漢字モードで一文字十三ビットになります。".repeat(3);
    let bytes = encode_symbol(&text, EcLevel::Medium, &Symbol { min_version: Some(1), ..Symbol::default() }).unwrap();
    let kanji = encode_symbol(&text, EcLevel::Medium, &kanji()).unwrap();
    assert!(kanji.info().version < bytes.info().version, "{} vs {}", kanji.info().version, bytes.info().version);
}

#[test]
fn kanji_names_a_character_shift_jis_cannot_hold() {
    for (text, c, at) in [("漢😀字", '😀', 3), ("a\u{2028}b", '\u{2028}', 1), ("café", 'é', 3), ("ｱ", 'ｱ', 0)] {
        let got = qrglue_core::png(text, &with(kanji()));
        assert_eq!(got, Err(QrError::InvalidOptions(contract::not_kanji(c, at))), "{text}");
    }
    assert!(qrglue_core::png("😀", &with(kanji())).unwrap_err().to_string().contains("U+1F600 at byte 0"));
    // A binary payload in Kanji mode must be UTF-8.
    assert_eq!(qrglue_core::png_bytes(b"ab\xff", &with(kanji())), Err(QrError::InvalidOptions(contract::kanji_not_text(2))));
    // A text's call and its UTF-8 bytes' call agree in Kanji mode too.
    let text = "漢字 ABC 123";
    assert_eq!(qrglue_core::png(text, &with(kanji())), qrglue_core::png_bytes(text.as_bytes(), &with(kanji())));
}

#[test]
fn kanji_in_micro_qr_needs_m3() {
    let m = encode_symbol("漢字", EcLevel::Low, &Symbol { micro: true, ..kanji() }).unwrap();
    assert!(m.info().micro);
    assert!(m.info().version >= 3);
    assert_eq!(m.info().modes, [SegmentMode::Kanji]);
}

#[test]
fn metadata_is_what_a_reader_sees() {
    let cases = [
        ("https://example.com/", Options::default()),
        ("hello", with(Symbol { boost_ec: true, ..Symbol::default() })),
        ("hello", with(Symbol { mask: Some(5), version: Some(3), ..Symbol::default() })),
        ("HELLO 123", Options { ec_level: EcLevel::Quartile, ..Options::default() }),
        // (No Kanji-mode case: rqrr's decoder refuses Kanji segments.)
    ];
    for (text, options) in cases {
        let m = qrglue_core::matrix(text, &options).unwrap();
        let (version, mask, level) = read_meta(&qrglue_core::png(text, &options).unwrap());
        let info = m.info();
        assert_eq!((info.version as usize, info.mask as u8, info.ec_level.index() as u16), (version, mask, level), "{text}");
    }
    // boost-ec reports the level it encoded, not the one asked for.
    let boosted = qrglue_core::matrix("hello", &with(Symbol { boost_ec: true, ..Symbol::default() })).unwrap();
    assert_eq!(boosted.info().ec_level, EcLevel::High);
    let m = qrglue_core::matrix("HELLO 123", &Options::default()).unwrap();
    assert_eq!(m.info().modes, [SegmentMode::Alphanumeric]);
    // Micro QR: its mask number and version as the format information has them.
    let micro = qrglue_core::matrix("12345", &with(Symbol { micro: true, mask: Some(2), ..Symbol::default() })).unwrap();
    assert_eq!((micro.info().micro, micro.info().version, micro.info().mask), (true, 1, 2));
    for mask in 0..4 {
        let fixed = qrglue_core::matrix("HELLO", &with(Symbol { micro: true, mask: Some(mask), ..Symbol::default() })).unwrap();
        let auto = qrglue_core::matrix("HELLO", &with(Symbol { micro: true, ..Symbol::default() })).unwrap();
        if fixed.packed_modules() == auto.packed_modules() {
            assert_eq!(auto.info().mask, mask);
        }
    }
}

/// Every pixel of an exact-size PNG is its module's colour under the
/// contract's rule (pixel p of size shows module p * across / size), and
/// the module widths that rule gives differ by at most one pixel.
#[test]
fn size_gives_exactly_that_many_pixels_with_widths_one_apart() {
    for (text, size, quiet) in [("hello", 300u32, 4u32), ("https://example.com/", 123, 0), ("漢字", 29, 4), ("x", 4096, 16)] {
        let options = Options { size: Some(size), quiet_zone: quiet, ..Options::default() };
        let png = qrglue_core::png(text, &options).unwrap();
        let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_luma8();
        assert_eq!(image.dimensions(), (size, size), "{text}");
        let m = qrglue_core::matrix(text, &options).unwrap();
        let across = m.width() + 2 * quiet as usize;
        // Every pixel is its module's colour under p * across / size.
        for y in 0..size as usize {
            for x in 0..size as usize {
                let (mx, my) = (x * across / size as usize, y * across / size as usize);
                let q = quiet as usize;
                let dark = (q..q + m.width()).contains(&mx) && (q..q + m.width()).contains(&my) && m.is_dark(mx - q, my - q);
                assert_eq!(image.get_pixel(x as u32, y as u32).0[0] == 0, dark, "{text} at {x},{y}");
            }
        }
        // Widths: floor or ceil of size / across.
        let widths: Vec<usize> = (0..across).map(|k| (0..size as usize).filter(|&p| p * across / size as usize == k).count()).collect();
        let (min, max) = (widths.iter().min().unwrap(), widths.iter().max().unwrap());
        assert!(max - min <= 1, "{widths:?}");
        // The SVG says the same size.
        let svg = qrglue_core::svg(text, &options).unwrap();
        assert!(svg.contains(&format!(r#"width="{size}" height="{size}""#)), "{svg}");
    }
}

#[test]
fn size_errors() {
    // A size under the modules across (21 + 8 = 29 for "hello"): every output says so.
    let small = Options { size: Some(28), ..Options::default() };
    let want = Err(QrError::InvalidOptions(contract::size_too_small(28, 29)));
    assert_eq!(qrglue_core::png("hello", &small).map(|_| ()), want);
    assert_eq!(qrglue_core::svg("hello", &small).map(|_| ()), want);
    assert_eq!(qrglue_core::matrix("hello", &small).map(|_| ()), want);
    assert_eq!(qrglue_core::text("hello", &small, Default::default()).map(|_| ()), want);
    assert!(qrglue_core::png("hello", &Options { size: Some(29), ..Options::default() }).is_ok());
    // With scale: the conflict, before either's bounds.
    let both = Options { size: Some(0), scale: Some(99), ..Options::default() };
    assert_eq!(qrglue_core::png("hello", &both), Err(QrError::InvalidOptions(contract::SIZE_SCALE_CONFLICT_MESSAGE.into())));
    for bad in [0, 4097] {
        let got = qrglue_core::png("hello", &Options { size: Some(bad), ..Options::default() });
        assert_eq!(got, Err(QrError::InvalidOptions(contract::out_of_range("size", 1, 4096, bad))));
    }
}
