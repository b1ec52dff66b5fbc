//! The core's public behaviour: valid, small, readable PNGs; SVG shape; every
//! error kind; options at and past their bounds. Decoding uses independent
//! crates (`image` for PNG, `rqrr` for QR), never this crate's own code.

use qrglue_core::{EcLevel, ErrorKind, MAX_MIN_SIZE, MAX_QUIET_ZONE, MAX_SCALE, MAX_TEXT_BYTES, Options, QrError, Rgba, TextStyle};

const REFERENCE_URL: &str = "https://www.reddit.com/r/rustjerk/top/?t=all";

/// Decodes a PNG with `image` and reads the QR code in it with `rqrr`.
fn read_back(png: &[u8]) -> (u32, String) {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).expect("valid PNG").to_luma8();
    let width = image.width();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1, "exactly one QR code in the image");
    let (_meta, content) = grids[0].decode().expect("QR code decodes");
    (width, content)
}

#[test]
fn reference_url_png_is_small_valid_and_reads_back_exactly() {
    let png = qrglue_core::png(REFERENCE_URL, &Options::default()).unwrap();
    assert!(png.len() <= 400, "PNG is {} bytes, target <= 400", png.len());
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: 1-bit grayscale.
    assert_eq!(&png[12..16], b"IHDR");
    assert_eq!((png[24], png[25]), (1, 0), "bit depth 1, color type 0 (grayscale)");
    let (width, text) = read_back(&png);
    assert!(width >= 200, "width {width}");
    assert_eq!(width, 222, "29 modules + 2 * 4 quiet = 37, at 6 px each");
    assert_eq!(text, REFERENCE_URL);
}

#[test]
fn every_ec_level_and_unicode_text_reads_back() {
    for (text, ec_level) in [
        (REFERENCE_URL, EcLevel::High),
        ("二维码 🦀 Grüße, שלום, é", EcLevel::Medium),
        ("0123456789", EcLevel::Quartile),
        ("HELLO WORLD 42", EcLevel::Low),
    ] {
        let options = Options { ec_level, ..Options::default() };
        let png = qrglue_core::png(text, &options).unwrap();
        assert_eq!(read_back(&png).1, text, "{ec_level:?}");
    }
}

#[test]
fn svg_is_one_path_with_crisp_edges_and_the_same_geometry_as_the_png() {
    let options = Options::default();
    let svg = qrglue_core::svg(REFERENCE_URL, &options).unwrap();
    assert!(svg.starts_with("<?xml"));
    assert_eq!(svg.matches("<path").count(), 1);
    assert_eq!(svg.matches("<rect").count(), 1, "one background rectangle, no per-module rectangles");
    assert!(svg.contains(r#"shape-rendering="crispEdges""#));
    assert!(svg.contains(r#"width="222" height="222" viewBox="0 0 37 37""#));

    // Every dark module of the matrix is covered by exactly one run in the path.
    let matrix = qrglue_core::encode(REFERENCE_URL, options.ec_level).unwrap();
    let d = svg.split(r#" d=""#).nth(1).unwrap().split('"').next().unwrap();
    let mut covered = vec![false; matrix.width() * matrix.width()];
    for run in d.split('M').filter(|r| !r.is_empty()) {
        let (xy, rest) = run.split_once('h').unwrap();
        let (x, y) = xy.split_once(',').unwrap();
        let (x, y): (usize, usize) = (x.parse::<usize>().unwrap() - 4, y.parse::<usize>().unwrap() - 4);
        let len: usize = rest.split('v').next().unwrap().parse().unwrap();
        for dx in 0..len {
            assert!(!covered[y * matrix.width() + x + dx], "module covered twice");
            covered[y * matrix.width() + x + dx] = true;
        }
    }
    for y in 0..matrix.width() {
        for x in 0..matrix.width() {
            assert_eq!(covered[y * matrix.width() + x], matrix.is_dark(x, y), "module ({x}, {y})");
        }
    }
}

#[test]
fn empty_text_is_empty_text_before_anything_else() {
    let bad_options = Options { min_size: 0, ..Options::default() };
    for options in [Options::default(), bad_options] {
        assert_eq!(qrglue_core::png("", &options), Err(QrError::EmptyText));
        assert_eq!(qrglue_core::svg("", &options), Err(QrError::EmptyText));
    }
    assert_eq!(QrError::EmptyText.kind().as_str(), "empty-text");
}

#[test]
fn texts_past_capacity_are_data_too_long() {
    let numeric_max = "7".repeat(MAX_TEXT_BYTES);
    assert!(qrglue_core::png(&numeric_max, &Options::default()).is_ok(), "7089 digits fit version 40-L");
    let numeric_over = "7".repeat(MAX_TEXT_BYTES + 1);
    assert_eq!(qrglue_core::png(&numeric_over, &Options::default()), Err(QrError::over_max_text_bytes()));
    assert_eq!(QrError::over_max_text_bytes().to_string(), "text does not fit in any QR code: it is over 7089 bytes, the most one holds");
    // Over the byte bound, even with bad options: length is checked first.
    let bad_options = Options { quiet_zone: 99, ..Options::default() };
    assert_eq!(qrglue_core::png(&numeric_over, &bad_options), Err(QrError::over_max_text_bytes()));
    // Within the bound, the limit hit is named: version 40 at this level.
    let medium = Options { ec_level: EcLevel::Medium, ..Options::default() };
    let at_40_m = "text does not fit in a QR code at level medium: it needs 23648 data bits, version 40 holds 18672";
    assert_eq!(qrglue_core::png(&numeric_max, &medium), Err(QrError::DataTooLong(at_40_m.into())));
    // Byte mode: 2953 bytes fit at L, 2954 do not; 1273 fit at H, 1274 do not.
    let low = Options::default();
    let high = Options { ec_level: EcLevel::High, ..Options::default() };
    assert!(qrglue_core::png(&"a".repeat(2953), &low).is_ok());
    let at_40_l = "text does not fit in a QR code at level low: it needs 23652 data bits, version 40 holds 23648";
    assert_eq!(qrglue_core::png(&"a".repeat(2954), &low), Err(QrError::DataTooLong(at_40_l.into())));
    assert!(qrglue_core::png(&"a".repeat(1273), &high).is_ok());
    let at_40_h = "text does not fit in a QR code at level high: it needs 10212 data bits, version 40 holds 10208";
    assert_eq!(qrglue_core::svg(&"a".repeat(1274), &high), Err(QrError::DataTooLong(at_40_h.into())));
    // 50 MB is rejected by length, without encoding.
    let huge = "x".repeat(50_000_000);
    assert_eq!(qrglue_core::png(&huge, &low).unwrap_err().kind(), ErrorKind::DataTooLong);
}

#[test]
fn options_at_their_bounds_work_and_past_them_are_invalid_options() {
    let text = "bounds";
    for (min_size, quiet_zone) in [(1, 0), (MAX_MIN_SIZE, 0), (1, MAX_QUIET_ZONE), (MAX_MIN_SIZE, MAX_QUIET_ZONE)] {
        let options = Options { min_size, quiet_zone, ..Options::default() };
        let png = qrglue_core::png(text, &options).unwrap();
        let width = image::load_from_memory(&png).unwrap().width();
        assert!(width >= min_size, "{min_size}/{quiet_zone}: width {width}");
        assert_eq!(width % (21 + 2 * quiet_zone), 0, "whole pixels per module");
        if min_size == MAX_MIN_SIZE && quiet_zone > 0 {
            // At 1 px per module, or with no quiet zone, readers give up:
            // only the large, margined images are read back.
            assert_eq!(read_back(&png).1, text);
        }
        assert!(qrglue_core::svg(text, &options).is_ok());
    }
    for (min_size, quiet_zone, name) in [
        (0, 4, "min-size"),
        (MAX_MIN_SIZE + 1, 4, "min-size"),
        (u32::MAX, 4, "min-size"),
        (200, MAX_QUIET_ZONE + 1, "quiet-zone"),
        (200, u32::MAX, "quiet-zone"),
    ] {
        let options = Options { min_size, quiet_zone, ..Options::default() };
        for result in [qrglue_core::png(text, &options).map(|_| ()), qrglue_core::svg(text, &options).map(|_| ())] {
            let error = result.unwrap_err();
            assert_eq!(error.kind(), ErrorKind::InvalidOptions);
            assert!(error.to_string().starts_with(name), "{error}");
        }
    }
}

#[test]
fn invalid_utf8_is_invalid_text() {
    for bytes in [&b"\xff"[..], b"abc\xc3", b"\xed\xa0\x80" /* encoded lone surrogate */, b"\xc0\x80"] {
        let error = qrglue_core::text_from_utf8(bytes).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidText);
    }
    assert_eq!(qrglue_core::text_from_utf8("é\0x".as_bytes()), Ok("é\0x"));
}

#[test]
fn error_kinds_have_distinct_names_and_abi_codes() {
    let kinds = [ErrorKind::EmptyText, ErrorKind::InvalidText, ErrorKind::DataTooLong, ErrorKind::InvalidOptions];
    let names: Vec<_> = kinds.iter().map(|k| k.as_str()).collect();
    assert_eq!(names, ["empty-text", "invalid-text", "data-too-long", "invalid-options"]);
    let codes: Vec<_> = kinds.iter().map(|k| k.code()).collect();
    assert_eq!(codes, [1, 2, 3, 4]);
}

mod random_texts {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        // Seeded by proptest's fixed default config (deterministic per run
        // with PROPTEST_RNG_SEED); each case is decoded by rqrr, so keep it small.
        #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn any_text_reads_back(text in "\\PC{1,120}", ec in 0u32..4) {
            let options = Options { ec_level: EcLevel::from_index(ec).unwrap(), ..Options::default() };
            let png = qrglue_core::png(&text, &options).unwrap();
            prop_assert_eq!(read_back(&png).1, text);
        }
    }
}

#[test]
fn an_encoded_lone_surrogate_reads_as_every_host_reports_it() {
    use qrglue_core::contract::LONE_SURROGATE_MESSAGE;
    for bytes in [&b"\xed\xa0\x80"[..], b"ab\xed\xbf\xbfc"] {
        assert_eq!(qrglue_core::text_from_utf8(bytes).unwrap_err(), QrError::InvalidText(LONE_SURROGATE_MESSAGE.into()));
    }
    // Other invalid UTF-8 gets the contract's template, with where the valid
    // UTF-8 ends: a bad byte, a truncated sequence, an overlong form.
    for (bytes, index) in [(&b"ab\xff"[..], 2), (b"\xff", 0), (b"ab\xe2\x82", 2), (b"x\xc0\xaf", 1), (b"\xe2\x82\xacz\x80", 4)] {
        let error = qrglue_core::text_from_utf8(bytes).unwrap_err();
        let want = qrglue_core::contract::NOT_UTF8_TEMPLATE.replace("{index}", &index.to_string());
        assert_eq!(error, QrError::InvalidText(want), "{bytes:?}");
    }
}

#[test]
fn contract_codes_names_and_indexes_round_trip() {
    for kind in ErrorKind::ALL {
        assert_eq!(ErrorKind::from_code(kind.code()), Some(kind));
        assert_eq!(ErrorKind::from_name(kind.as_str()), Some(kind));
    }
    assert_eq!((ErrorKind::from_code(0), ErrorKind::from_code(5)), (None, None));
    for (i, level) in EcLevel::ALL.into_iter().enumerate() {
        assert_eq!(level.index(), i as u32);
        assert_eq!(EcLevel::from_index(level.index()), Some(level));
        assert_eq!(EcLevel::from_name(level.as_str()), Some(level));
    }
    assert_eq!((EcLevel::from_index(4), EcLevel::from_name("L")), (None, None));
    // The fixed messages are what the errors display, and the templates
    // are what the helpers fill in.
    use qrglue_core::contract::{self, OUT_OF_RANGE_TEMPLATE};
    assert_eq!(QrError::EmptyText.to_string(), contract::EMPTY_TEXT_MESSAGE);
    assert_eq!(QrError::over_max_text_bytes().to_string(), contract::DATA_TOO_LONG_MESSAGE);
    let filled = contract::DOES_NOT_FIT_TEMPLATE
        .replace("{symbol}", "version 3")
        .replace("{level}", "medium")
        .replace("{needed}", "400")
        .replace("{limit}", "version 3")
        .replace("{capacity}", "352");
    assert_eq!(contract::does_not_fit_version(EcLevel::Medium, 3, 352, 400), filled);
    let filled =
        OUT_OF_RANGE_TEMPLATE.replace("{option}", "min-size").replace("{min}", "1").replace("{max}", "4096").replace("{value}", "0");
    assert_eq!(contract::out_of_range("min-size", 1, 4096, 0), filled);
    assert_eq!(contract::bad_ec_level_index(7), contract::EC_LEVEL_INDEX_TEMPLATE.replace("{value}", "7"));
    assert_eq!(contract::bad_ec_level_name("\"x\""), contract::EC_LEVEL_NAME_TEMPLATE.replace("{value}", "\"x\""));
    assert_eq!(contract::bad_text_style_index(3), contract::TEXT_STYLE_INDEX_TEMPLATE.replace("{value}", "3"));
    assert_eq!(contract::bad_text_style_name("'x'"), contract::TEXT_STYLE_NAME_TEMPLATE.replace("{value}", "'x'"));
    for (i, style) in TextStyle::ALL.into_iter().enumerate() {
        assert_eq!(style.index(), i as u32);
        assert_eq!((TextStyle::from_index(style.index()), TextStyle::from_name(style.as_str())), (Some(style), Some(style)));
    }
    assert_eq!((TextStyle::from_index(3), TextStyle::from_name("ANSI")), (None, None));
    // The SVG options' templates, filled in by their functions.
    assert_eq!(
        contract::too_long("title", 1024, 1026),
        contract::TOO_LONG_TEMPLATE.replace("{option}", "title").replace("{max}", "1024").replace("{value}", "1026")
    );
    let not_xml = contract::NOT_XML_CHAR_TEMPLATE.replace("{option}", "title").replace("{char}", "U+0007").replace("{index}", "4");
    assert_eq!(contract::not_xml_char("title", '\u{7}', 4), not_xml);
    assert_eq!(contract::bad_class("a  b"), contract::CLASS_TEMPLATE.replace("{value}", "\"a  b\""));
    let not_text = contract::OPTION_NOT_TEXT_TEMPLATE.replace("{option}", "class").replace("{index}", "1");
    assert_eq!(contract::option_not_text("class", b"a\xff", 1), not_text);
    let surrogate = contract::OPTION_LONE_SURROGATE_TEMPLATE.replace("{option}", "title");
    assert_eq!(contract::option_not_text("title", b"a\xed\xa0\x80", 1), surrogate);
    let json = contract::to_json();
    assert!(
        json.contains(r#""max_text_bytes": 7089"#)
            && json.contains(r##""defaults": {"ec-level": "low", "min-size": 200, "quiet-zone": 4, "scale": null, "dark": "#000000ff", "light": "#ffffffff", "text-style": "half-blocks", "micro": false, "version": null, "min-version": null, "mask": null, "boost-ec": false, "eci": false, "view-box-only": false, "title": null, "class": null}"##)
            && json.contains(r#""text_styles": ["half-blocks", "half-blocks-inverted", "ascii"]"#),
        "{json}"
    );
}

/// The packed matrix, read bit by bit as the WIT comment says, is the matrix.
fn unpack(width: usize, modules: &[u8]) -> Vec<Vec<bool>> {
    (0..width).map(|y| (0..width).map(|x| (modules[(y * width + x) / 8] >> (7 - (y * width + x) % 8)) & 1 == 1).collect()).collect()
}

#[test]
fn the_matrix_packs_every_module_msb_first_and_is_the_pngs_pixels() {
    let options = Options::default();
    let matrix = qrglue_core::matrix(REFERENCE_URL, &options).unwrap();
    let packed = matrix.packed_modules();
    assert_eq!((matrix.width(), packed.len()), (29, (29 * 29usize).div_ceil(8)));
    // 841 bits: the last byte holds one module; its 7 unused bits are 0.
    assert_eq!(packed.last().unwrap() & 0x7f, 0);
    let rows = unpack(29, &packed);
    // The finder pattern's corners: dark at (0,0), (6,0), (0,6); light at (7,0), the separator.
    assert!(rows[0][0] && rows[0][6] && rows[6][0] && !rows[0][7]);
    // The PNG's pixel blocks (6 px a module, 4 modules of quiet zone) are the matrix.
    let png = qrglue_core::png(REFERENCE_URL, &options).unwrap();
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_luma8();
    for (y, row) in rows.iter().enumerate() {
        for (x, &dark) in row.iter().enumerate() {
            let pixel = image.get_pixel((x as u32 + 4) * 6 + 3, (y as u32 + 4) * 6 + 3).0[0];
            assert_eq!(pixel == 0, dark, "module ({x}, {y})");
        }
    }
}

#[test]
fn text_styles_draw_the_matrix_with_its_quiet_zone() {
    let options = Options { quiet_zone: 1, ..Options::default() };
    let rows = unpack(21, &qrglue_core::matrix("HELLO", &options).unwrap().packed_modules());
    // The grid with its quiet zone: 23 x 23, light around the code.
    let side = 23;
    let dark = |x: usize, y: usize| (1..22).contains(&x) && (1..22).contains(&y) && rows[y - 1][x - 1];

    let ascii = qrglue_core::text("HELLO", &options, TextStyle::Ascii).unwrap();
    let lines: Vec<&str> = ascii.split_terminator('\n').collect();
    assert!(ascii.ends_with('\n'));
    assert_eq!(lines.len(), side);
    for (y, line) in lines.iter().enumerate() {
        let want: String = (0..side).map(|x| if dark(x, y) { "##" } else { "  " }).collect();
        assert_eq!(*line, want, "ascii line {y}");
    }

    for (style, ink_is_dark) in [(TextStyle::HalfBlocks, true), (TextStyle::HalfBlocksInverted, false)] {
        let text = qrglue_core::text("HELLO", &options, style).unwrap();
        let lines: Vec<&str> = text.split_terminator('\n').collect();
        assert_eq!(lines.len(), 12, "{style:?}: 23 rows, two a line, the last line's bottom half past the grid");
        for (k, line) in lines.iter().enumerate() {
            let chars: Vec<char> = line.chars().collect();
            assert_eq!(chars.len(), side);
            for (x, c) in chars.into_iter().enumerate() {
                let (top, bottom) = match c {
                    '\u{2588}' => (true, true),
                    '\u{2580}' => (true, false),
                    '\u{2584}' => (false, true),
                    ' ' => (false, false),
                    other => panic!("{style:?}: unexpected {other:?}"),
                };
                let ink = |y: usize| y < side && dark(x, y) == ink_is_dark;
                assert_eq!((top, bottom), (ink(2 * k), ink(2 * k + 1)), "{style:?} line {k} column {x}");
            }
        }
    }
    // A quiet zone of 0 leaves the finder pattern at the very edge.
    let bare = qrglue_core::text("HELLO", &Options { quiet_zone: 0, ..options }, TextStyle::Ascii).unwrap();
    assert!(bare.starts_with("##############  "), "{bare}");
}

#[test]
fn matrix_and_text_fail_as_png_does_and_check_every_option() {
    let too_long = "9".repeat(MAX_TEXT_BYTES + 1);
    let bad_size = Options { min_size: 0, ..Options::default() };
    let bad_quiet = Options { quiet_zone: MAX_QUIET_ZONE + 1, ..Options::default() };
    let long_at_high = "a".repeat(2000);
    let high = Options { ec_level: EcLevel::High, ..Options::default() };
    for (text, options) in
        [("", Options::default()), (&too_long[..], Options::default()), ("x", bad_size), ("x", bad_quiet), (&long_at_high[..], high)]
    {
        let want = qrglue_core::png(text, &options).unwrap_err();
        assert_eq!(qrglue_core::matrix(text, &options).unwrap_err(), want);
        for style in TextStyle::ALL {
            assert_eq!(qrglue_core::text(text, &options, style).unwrap_err(), want);
        }
    }
}

#[test]
fn hex_colours_parse_as_css_writes_them_and_nothing_else() {
    let rgba = |r, g, b, a| Some(Rgba { r, g, b, a });
    assert_eq!(Rgba::from_hex("#000"), Some(Rgba::BLACK));
    assert_eq!(Rgba::from_hex("#FFFFFF"), Some(Rgba::WHITE));
    assert_eq!(Rgba::from_hex("#f80c"), rgba(0xff, 0x88, 0x00, 0xcc));
    assert_eq!(Rgba::from_hex("#12345678"), rgba(0x12, 0x34, 0x56, 0x78));
    assert_eq!(Rgba::from_hex("#aBcDeF"), rgba(0xab, 0xcd, 0xef, 0xff));
    for bad in ["", "#", "000", "#00", "#00000", "#0000000", "#000000000", "#ggg", "# 000", "#+12", "red", "#ff00ff\n", "＃fff", "#٣٣٣"]
    {
        assert_eq!(Rgba::from_hex(bad), None, "{bad:?}");
    }
    for color in [Rgba::BLACK, Rgba::WHITE, Rgba { r: 1, g: 2, b: 3, a: 4 }] {
        assert_eq!(Rgba::from_u32(color.to_u32()), color);
        assert_eq!(Rgba::from_hex(&color.to_hex()), Some(color));
    }
    assert_eq!(Rgba { r: 0x12, g: 0x34, b: 0x56, a: 0x78 }.to_u32(), 0x1234_5678);
}

#[test]
fn scale_sizes_the_image_and_is_bounded() {
    for scale in [1, 7, MAX_SCALE] {
        let options = Options { scale: Some(scale), min_size: 4096, ..Options::default() };
        let png = qrglue_core::png(REFERENCE_URL, &options).unwrap();
        let (width, text) = read_back_unless_tiny(&png, scale);
        assert_eq!(width, 37 * scale, "29 modules + 2 * 4 quiet, {scale} px each; min-size is not used");
        if let Some(text) = text {
            assert_eq!(text, REFERENCE_URL);
        }
        let svg = qrglue_core::svg(REFERENCE_URL, &options).unwrap();
        let side = 37 * scale;
        assert!(svg.contains(&format!(r#"width="{side}" height="{side}" viewBox="0 0 37 37""#)), "{scale}");
    }
    // The widest image scale allows is the widest min-size already could make.
    let longest = "9".repeat(MAX_TEXT_BYTES);
    let widest = Options { scale: Some(MAX_SCALE), quiet_zone: MAX_QUIET_ZONE, ..Options::default() };
    let png = qrglue_core::png(&longest, &widest).unwrap();
    let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap();
    assert_eq!(image.width(), (177 + 2 * MAX_QUIET_ZONE) * MAX_SCALE);
    for scale in [0, MAX_SCALE + 1, u32::MAX] {
        let error = qrglue_core::png("x", &Options { scale: Some(scale), ..Options::default() }).unwrap_err();
        assert_eq!(error, QrError::InvalidOptions(format!("scale must be within 1..={MAX_SCALE}, got {scale}")));
    }
    // Checked after min-size and quiet-zone.
    let both = Options { scale: Some(0), min_size: 0, ..Options::default() };
    assert_eq!(qrglue_core::png("x", &both).unwrap_err(), QrError::InvalidOptions("min-size must be within 1..=4096, got 0".into()));
}

/// rqrr needs a few pixels a module; below that only the size is checked.
fn read_back_unless_tiny(png: &[u8], scale: u32) -> (u32, Option<String>) {
    if scale < 3 {
        let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap();
        return (image.width(), None);
    }
    let (width, text) = read_back(png);
    (width, Some(text))
}

#[test]
fn colours_take_a_two_entry_palette_with_transparency_and_read_back() {
    let red = Rgba { r: 0xcc, g: 0, b: 0, a: 255 };
    let clear = Rgba { r: 255, g: 255, b: 255, a: 0 };
    let plain = qrglue_core::png(REFERENCE_URL, &Options::default()).unwrap();
    for (dark, light, transparent) in
        [(red, Rgba::WHITE, false), (Rgba::BLACK, clear, true), (Rgba { a: 128, ..red }, Rgba { r: 0, g: 0, b: 80, a: 255 }, true)]
    {
        let options = Options { dark, light, ..Options::default() };
        let png = qrglue_core::png(REFERENCE_URL, &options).unwrap();
        assert_eq!((png[24], png[25]), (1, 3), "bit depth 1, colour type 3 (palette)");
        assert_eq!(png.windows(4).any(|w| w == b"tRNS"), transparent);
        assert_eq!(png.len(), plain.len() + 18 + if transparent { 14 } else { 0 }, "the same pixels, plus PLTE (and tRNS)");
        let image = image::load_from_memory_with_format(&png, image::ImageFormat::Png).unwrap().to_rgba8();
        // (3, 3) is quiet zone; the finder's corner module at (4, 4) is dark.
        let at = |x: u32, y: u32| image.get_pixel(x * 6 + 3, y * 6 + 3).0;
        assert_eq!(at(3, 3), [light.r, light.g, light.b, light.a]);
        assert_eq!(at(4, 4), [dark.r, dark.g, dark.b, dark.a]);
    }
    // Dark red on white reads back like black on white.
    let red_on_white = qrglue_core::png(REFERENCE_URL, &Options { dark: red, ..Options::default() }).unwrap();
    assert_eq!(read_back(&red_on_white).1, REFERENCE_URL);

    let svg = qrglue_core::svg(REFERENCE_URL, &Options { dark: Rgba { a: 128, ..red }, light: clear, ..Options::default() }).unwrap();
    assert!(!svg.contains("<rect"), "a transparent background is no rectangle");
    assert!(svg.contains(r##"<path fill="#cc0000" fill-opacity="0.502" d="M"##), "{svg}");
    let svg = qrglue_core::svg(REFERENCE_URL, &Options { light: Rgba { r: 0, g: 0, b: 80, a: 255 }, ..Options::default() }).unwrap();
    assert!(svg.contains(r##"<rect width="37" height="37" fill="#000050"/><path fill="#000000" d="M"##), "{svg}");

    for same in [Rgba::BLACK, clear] {
        let error = qrglue_core::png("x", &Options { dark: same, light: same, ..Options::default() }).unwrap_err();
        assert_eq!(error, QrError::InvalidOptions(format!("dark and light must be different colours, both are {}", same.to_hex())));
    }
}
