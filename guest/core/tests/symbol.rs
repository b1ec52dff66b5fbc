//! The symbol options (contract 0.2.0): version, min-version, mask, EC boost
//! and Micro QR. Checked against stock `qrcode` (its `QrCode::with_version`
//! builds the fixed-version symbol, Micro QR included, with its own mask
//! choice) and read back with `rqrr`, whose metadata reports the version,
//! the mask and the EC level a reader sees. Python's tests compare the Micro
//! QR matrices with segno's and read them back with zxing-cpp.

use qrcode::{QrCode, Version};
use qrglue_core::{EcLevel, MAX_MICRO_VERSION, MAX_VERSION, Options, QrError, Symbol, contract, encode, encode_symbol};

const REFERENCE_URL: &str = "https://www.reddit.com/r/rustjerk/top/?t=all";

fn with(symbol: Symbol) -> Options {
    Options { symbol, ..Options::default() }
}

fn stock_level(level: EcLevel) -> qrcode::EcLevel {
    [qrcode::EcLevel::L, qrcode::EcLevel::M, qrcode::EcLevel::Q, qrcode::EcLevel::H][level.index() as usize]
}

/// The stock symbol at exactly `version`, as booleans (dark = true).
fn stock(text: &str, version: Version, level: EcLevel) -> Option<Vec<bool>> {
    let code = QrCode::with_version(text, version, stock_level(level)).ok()?;
    Some(code.to_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect())
}

fn ours(text: &str, level: EcLevel, symbol: Symbol) -> Result<Vec<bool>, QrError> {
    let matrix = encode_symbol(text, level, &symbol)?;
    let width = matrix.width();
    Ok((0..width * width).map(|i| matrix.is_dark(i % width, i / width)).collect())
}

/// What rqrr reads from a PNG: (version, mask, EC level index 0..=3 as WIT
/// orders them, content).
fn read_meta(png: &[u8]) -> (usize, u8, u16, String) {
    let image = image::load_from_memory_with_format(png, image::ImageFormat::Png).unwrap().to_luma8();
    let mut prepared = rqrr::PreparedImage::prepare(image);
    let grids = prepared.detect_grids();
    assert_eq!(grids.len(), 1);
    let (meta, content) = grids[0].decode().expect("decodes");
    // rqrr's ecc_level is the format information's two bits: M=0, L=1, H=2, Q=3.
    let level = [1, 0, 3, 2][meta.ecc_level as usize];
    (meta.version.0, meta.mask as u8, level, content)
}

#[test]
fn the_default_symbol_and_the_whole_range_are_todays_symbol() {
    for (text, level) in [(REFERENCE_URL, EcLevel::Low), ("二维码 漢字です", EcLevel::High), ("0123456789", EcLevel::Medium)] {
        let today = encode(text, level).unwrap();
        assert_eq!(encode_symbol(text, level, &Symbol::default()).unwrap(), today);
        assert_eq!(encode_symbol(text, level, &Symbol { min_version: Some(1), ..Symbol::default() }).unwrap(), today, "{text}");
        let version = (today.width() as u32 - 17) / 4;
        assert_eq!(encode_symbol(text, level, &Symbol { version: Some(version), ..Symbol::default() }).unwrap(), today, "{text}");
    }
}

#[test]
fn a_fixed_version_is_stock_qrcodes_symbol_at_that_version() {
    for level in EcLevel::ALL {
        for version in [1, 2, 5, 9, 10, 20, 26, 27, 40] {
            for text in ["HELLO WORLD", "12345678901234567890", "https://example.com/path?q=1", "a"] {
                let symbol = Symbol { version: Some(version as u32), ..Symbol::default() };
                // Where stock qrcode cannot fit the text, neither can we.
                match stock(text, Version::Normal(version), level) {
                    Some(expected) => assert_eq!(ours(text, level, symbol), Ok(expected), "{text} v{version} {level:?}"),
                    None => {
                        let message = ours(text, level, symbol).unwrap_err().to_string();
                        let named = format!("text does not fit in version {version} at level {}: it needs ", level.as_str());
                        assert!(message.starts_with(&named), "{text} v{version} {level:?}: {message}");
                    }
                }
            }
        }
    }
}

#[test]
fn a_text_too_long_for_the_fixed_version_is_data_too_long_and_min_version_grows() {
    let text = "x".repeat(30); // byte mode: 4 + 8 + 240 bits > version 1-L's 152
    let fixed = Symbol { version: Some(1), ..Symbol::default() };
    let message = "text does not fit in version 1 at level low: it needs 252 data bits, version 1 holds 152";
    assert_eq!(qrglue_core::png(&text, &with(fixed)), Err(QrError::DataTooLong(message.into())));
    let grown = encode_symbol(&text, EcLevel::Low, &Symbol { min_version: Some(1), ..Symbol::default() }).unwrap();
    assert_eq!(grown.width(), 25, "version 2");
    let at_least_7 = encode_symbol(&text, EcLevel::Low, &Symbol { min_version: Some(7), ..Symbol::default() }).unwrap();
    assert_eq!(at_least_7.width(), 17 + 4 * 7);
    let png = qrglue_core::png(&text, &with(Symbol { min_version: Some(7), ..Symbol::default() })).unwrap();
    assert_eq!(read_meta(&png).0, 7);
}

#[test]
fn every_mask_is_the_mask_a_reader_sees() {
    for mask in 0..=7 {
        let png = qrglue_core::png(REFERENCE_URL, &with(Symbol { mask: Some(mask), ..Symbol::default() })).unwrap();
        let (version, seen_mask, level, content) = read_meta(&png);
        assert_eq!((version, seen_mask as u32, level, content.as_str()), (3, mask, 0, REFERENCE_URL));
    }
}

#[test]
fn boost_raises_the_level_as_far_as_the_version_holds_the_text() {
    // The reference URL is version 3 at low: its 45 bytes (372 bits with
    // the header) do not fit version 3 at medium (44 data bytes), so the
    // level stays low.
    let png = qrglue_core::png(REFERENCE_URL, &with(Symbol { boost_ec: true, ..Symbol::default() })).unwrap();
    assert_eq!(png, qrglue_core::png(REFERENCE_URL, &Options::default()).unwrap());
    // 36 bytes fit version 3 at medium (4 + 8 + 288 = 300 bits <= 352).
    let shorter = &REFERENCE_URL[..36];
    let png = qrglue_core::png(shorter, &with(Symbol { boost_ec: true, ..Symbol::default() })).unwrap();
    assert_eq!(read_meta(&png), (3, read_meta(&png).1, 1, shorter.to_owned()));
    // "hello" at version 1 fits even at high.
    let png = qrglue_core::png("hello", &with(Symbol { boost_ec: true, ..Symbol::default() })).unwrap();
    let (version, _, level, _) = read_meta(&png);
    assert_eq!((version, level), (1, 3));
    // Boost never lowers a level nor changes the version.
    let high = Options { ec_level: EcLevel::High, ..with(Symbol { boost_ec: true, ..Symbol::default() }) };
    assert_eq!(
        qrglue_core::png(REFERENCE_URL, &high),
        qrglue_core::png(REFERENCE_URL, &Options { ec_level: EcLevel::High, ..Options::default() })
    );
}

#[test]
fn micro_qr_is_stock_qrcodes_micro_symbol_but_m3_low() {
    let cases: &[(&str, &[(i16, EcLevel)])] = &[
        ("12345", &[(1, EcLevel::Low), (2, EcLevel::Low), (2, EcLevel::Medium), (3, EcLevel::Medium), (4, EcLevel::Quartile)]),
        ("HELLO", &[(2, EcLevel::Low), (3, EcLevel::Medium), (4, EcLevel::Medium)]),
        ("hello", &[(3, EcLevel::Medium), (4, EcLevel::Low), (4, EcLevel::Quartile)]),
        ("Micro QR 1234", &[(4, EcLevel::Low)]),
    ];
    for (text, versions) in cases {
        for &(version, level) in *versions {
            let expected = stock(text, Version::Micro(version), level).unwrap_or_else(|| panic!("stock {text} M{version}"));
            let symbol = Symbol { micro: true, version: Some(version as u32), ..Symbol::default() };
            assert_eq!(ours(text, level, symbol).unwrap(), expected, "{text} M{version} {level:?}");
        }
    }
}

/// M3-L ends on a 4-bit data codeword, which stock qrcode 0.14.1 draws as 8
/// bits (kennytm/qrcode-rust#90): its M3-L symbols do not read. Ours differ
/// from stock's exactly in the modules after that codeword; the hosts'
/// zxing-cpp read-back and Python's segno oracle check they are right.
#[test]
fn micro_m3_low_differs_from_stock_qrcode_after_the_half_codeword() {
    for text in ["hello", "12345", "HELLO WORLD"] {
        let symbol = Symbol { micro: true, version: Some(3), ..Symbol::default() };
        let stock = stock(text, Version::Micro(3), EcLevel::Low).unwrap();
        let ours = ours(text, EcLevel::Low, symbol).unwrap();
        assert_ne!(ours, stock, "{text}");
        // The function patterns and the format information agree (same
        // level, and the same mask where both chose it): the first rows
        // hold the finder pattern and the start of the data.
        assert_eq!(ours[..7], stock[..7], "{text}: the finder pattern's first row");
    }
}

/// Data that ends inside M1's or M3's final 4-bit codeword: stock qrcode's
/// push_terminator computes a negative pad count there (a panic in a debug
/// build, endless padding in a release one). Each of these texts' segments
/// plus terminator reach into that codeword; they encode, at M3.
#[test]
fn micro_data_ending_inside_the_half_codeword_encodes() {
    // "1234abcd": numeric 4 (21 bits) + bytes 4 (38) = 59 bits; with the
    // 7-bit terminator 66 of M3-M's 68. "1234abcdef": 21 + 54 = 75 bits,
    // 82 of M3-L's 84.
    for (text, level) in [("1234abcd", EcLevel::Medium), ("1234abcdef", EcLevel::Low)] {
        let matrix = encode_symbol(text, level, &Symbol { micro: true, ..Symbol::default() }).unwrap();
        assert_eq!(matrix.width(), 15, "{text}: M3");
    }
    // Every short text of digits and letters, at every micro level: no panic.
    for length in 1..=24 {
        for level in [EcLevel::Low, EcLevel::Medium, EcLevel::Quartile] {
            let text: String = "12345678ab".chars().cycle().take(length).collect();
            let _ = encode_symbol(&text, level, &Symbol { micro: true, ..Symbol::default() });
        }
    }
}

#[test]
fn micro_qr_chooses_the_smallest_micro_version_with_the_modes_it_needs() {
    let width = |text: &str, level| encode_symbol(text, level, &Symbol { micro: true, ..Symbol::default() }).map(|m| m.width());
    assert_eq!(width("12345", EcLevel::Low), Ok(11), "M1: numeric");
    assert_eq!(width("12345", EcLevel::Medium), Ok(13), "M1 has no level medium");
    assert_eq!(width("AB", EcLevel::Low), Ok(13), "M2: alphanumeric");
    assert_eq!(width("ab", EcLevel::Low), Ok(15), "M3: bytes");
    assert_eq!(width("漢字", EcLevel::Low), Ok(15), "M3: 6 UTF-8 bytes, never Kanji mode");
    assert_eq!(width("漢字漢", EcLevel::Low), Ok(15), "M3-L: 3 + 4 + 72 bits <= 84");
    assert_eq!(width("漢字漢", EcLevel::Medium), Ok(17), "M3-M holds 68 bits, M4-M 112");
    assert_eq!(width(&"a".repeat(15), EcLevel::Low), Ok(17), "M4-L: 3 + 5 + 120 bits <= 128");
    fn too_long<T>(message: &str) -> Result<T, QrError> {
        Err(QrError::DataTooLong(message.into()))
    }
    assert_eq!(
        width(&"a".repeat(16), EcLevel::Low),
        too_long("text does not fit in a Micro QR code at level low: it needs 136 data bits, M4 holds 128")
    );
    assert_eq!(
        width(&"a".repeat(16), EcLevel::Quartile),
        too_long("text does not fit in a Micro QR code at level quartile: it needs 136 data bits, M4 holds 80"),
        "M4-Q holds 9 bytes (80 bits)"
    );
    assert!(
        width(REFERENCE_URL, EcLevel::Low)
            .unwrap_err()
            .to_string()
            .starts_with("text does not fit in a Micro QR code at level low: it needs ")
    );
    let fixed_m2 = Symbol { micro: true, version: Some(2), ..Symbol::default() };
    assert_eq!(
        encode_symbol("ab", EcLevel::Low, &fixed_m2),
        too_long("text does not fit in Micro QR version M2: M2 holds digits, A-Z, space and $%*+-./: only"),
        "M2 has no byte mode"
    );
    let fixed = |version| Symbol { micro: true, version: Some(version), ..Symbol::default() };
    assert_eq!(encode_symbol("AB", EcLevel::Low, &fixed(1)), too_long("text does not fit in Micro QR version M1: M1 holds digits only"));
    assert_eq!(
        encode_symbol("123456", EcLevel::Low, &fixed(1)),
        too_long("text does not fit in Micro QR version M1 at level low: it needs 23 data bits, M1 holds 20"),
        "M1: a 3-bit count and 20 bits for 6 digits"
    );
    assert_eq!(
        encode_symbol("12345", EcLevel::Medium, &fixed(1)),
        too_long("text does not fit in Micro QR version M1 at level medium: M1 has level low only")
    );
    assert_eq!(
        encode_symbol("12345", EcLevel::Quartile, &fixed(3)),
        too_long("text does not fit in Micro QR version M3 at level quartile: M3 goes up to level medium")
    );
}

#[test]
fn micro_masks_are_the_four_micro_patterns() {
    let mut seen = std::collections::HashSet::new();
    for mask in 0..=3 {
        let symbol = Symbol { micro: true, mask: Some(mask), ..Symbol::default() };
        let modules = ours("12345", EcLevel::Low, symbol).unwrap();
        assert_eq!(modules.len(), 11 * 11);
        assert!(seen.insert(modules), "mask {mask} differs from the others");
    }
    // The automatic choice is one of them.
    assert!(seen.contains(&ours("12345", EcLevel::Low, Symbol { micro: true, ..Symbol::default() }).unwrap()));
}

#[test]
fn bad_symbol_options_are_invalid_options_in_field_order() {
    let message =
        |symbol: Symbol, level: EcLevel| match qrglue_core::png("hello", &Options { ec_level: level, symbol, ..Options::default() }) {
            Err(QrError::InvalidOptions(message)) => message,
            other => panic!("{symbol:?}: {other:?}"),
        };
    let low = EcLevel::Low;
    let micro = Symbol { micro: true, ..Symbol::default() };
    assert_eq!(message(Symbol { version: Some(0), ..Symbol::default() }, low), contract::out_of_range("version", 1, MAX_VERSION, 0));
    assert_eq!(message(Symbol { version: Some(41), ..Symbol::default() }, low), "version must be within 1..=40, got 41");
    assert_eq!(message(Symbol { version: Some(5), ..micro }, low), "version must be within 1..=4, got 5");
    assert_eq!(message(Symbol { min_version: Some(0), ..Symbol::default() }, low), "min-version must be within 1..=40, got 0");
    assert_eq!(message(Symbol { min_version: Some(MAX_MICRO_VERSION + 1), ..micro }, low), "min-version must be within 1..=4, got 5");
    assert_eq!(message(Symbol { version: Some(2), min_version: Some(1), ..Symbol::default() }, low), contract::VERSION_CONFLICT_MESSAGE);
    assert_eq!(message(Symbol { mask: Some(8), ..Symbol::default() }, low), "mask must be within 0..=7, got 8");
    assert_eq!(message(Symbol { mask: Some(4), ..micro }, low), "mask must be within 0..=3, got 4");
    assert_eq!(message(micro, EcLevel::High), contract::MICRO_EC_LEVEL_MESSAGE);
    assert_eq!(message(Symbol { eci: true, ..micro }, low), contract::MICRO_ECI_MESSAGE);
    // Micro QR with ECI is the last symbol check: after a bad mask and level high.
    assert_eq!(message(Symbol { eci: true, mask: Some(4), ..micro }, low), "mask must be within 0..=3, got 4");
    assert_eq!(message(Symbol { eci: true, ..micro }, EcLevel::High), contract::MICRO_EC_LEVEL_MESSAGE);
    // Field order: a bad version is reported before a bad mask, and every
    // symbol check after the rendering options'.
    assert_eq!(message(Symbol { version: Some(99), mask: Some(99), ..Symbol::default() }, low), "version must be within 1..=40, got 99");
    let both = Options { quiet_zone: 99, symbol: Symbol { mask: Some(99), ..Symbol::default() }, ..Options::default() };
    assert!(matches!(qrglue_core::png("hello", &both), Err(QrError::InvalidOptions(m)) if m.starts_with("quiet-zone")));
    // Text errors come first, as for every option.
    assert_eq!(qrglue_core::png("", &with(Symbol { mask: Some(99), ..Symbol::default() })), Err(QrError::EmptyText));
}

/// The data codewords' first 12 bits with `eci`: mode 0111, designator
/// 00011010 (26, UTF-8), then the text's own segments.
#[test]
fn eci_puts_designator_26_before_the_data() {
    let eci = Symbol { eci: true, ..Symbol::default() };
    for text in [REFERENCE_URL, "二维码 漢字です", "0123456789", "👍 emoji"] {
        let png = qrglue_core::png(text, &with(eci)).unwrap();
        let (_, _, level, content) = read_meta(&png);
        assert_eq!((level, content.as_str()), (0, text));
        // The same text at a fixed version and mask differs from the plain
        // symbol (the header is there) and reads back the same.
        assert_ne!(encode_symbol(text, EcLevel::Low, &eci).unwrap(), encode(text, EcLevel::Low).unwrap(), "{text}");
    }
    // qrcode's own ECI bits (Bits::push_eci_designator), at a fixed version:
    // our symbol is stock qrcode's with the designator pushed first.
    let text = "héllo";
    let mut bits = qrcode::bits::Bits::new(Version::Normal(2));
    bits.push_eci_designator(26).unwrap();
    bits.push_byte_data(text.as_bytes()).unwrap();
    bits.push_terminator(qrcode::EcLevel::L).unwrap();
    let stock = QrCode::with_bits(bits, qrcode::EcLevel::L).unwrap();
    let stock: Vec<bool> = stock.to_colors().into_iter().map(|c| c == qrcode::Color::Dark).collect();
    assert_eq!(ours(text, EcLevel::Low, Symbol { version: Some(2), ..eci }).unwrap(), stock);
}

/// The capacity boundary: 17 byte-mode bytes fit version 1 at low (4 + 8 +
/// 136 = 148 bits <= 152) but not with ECI's 12 bits more (160): version 2;
/// at a fixed version 1 they are data-too-long; 16 bytes still fit version 1.
#[test]
fn eci_counts_its_12_bits_in_the_version_search() {
    let eci = Symbol { eci: true, ..Symbol::default() };
    let text = "abcdefghijklmnopq";
    assert_eq!(encode(text, EcLevel::Low).unwrap().width(), 21);
    assert_eq!(encode_symbol(text, EcLevel::Low, &eci).unwrap().width(), 25);
    let at_version_1 = "text does not fit in version 1 at level low: it needs 160 data bits, version 1 holds 152";
    assert_eq!(qrglue_core::png(text, &with(Symbol { version: Some(1), ..eci })), Err(QrError::DataTooLong(at_version_1.into())));
    assert_eq!(encode_symbol(&text[..16], EcLevel::Low, &eci).unwrap().width(), 21);
    let png = qrglue_core::png(text, &with(eci)).unwrap();
    assert_eq!(read_meta(&png).3, text);
    // The largest text: 2953 bytes at version 40-L without ECI; with it one
    // byte fewer (12 more bits than the 4 spare ones).
    let long = "a".repeat(2953);
    assert!(encode(&long, EcLevel::Low).is_ok());
    let at_40 = "text does not fit in a QR code at level low: it needs 23656 data bits, version 40 holds 23648";
    assert_eq!(encode_symbol(&long, EcLevel::Low, &eci), Err(QrError::DataTooLong(at_40.into())));
    assert_eq!(encode_symbol(&long[..2952], EcLevel::Low, &eci).unwrap().width(), 177);
    // Boost counts the header too: 16 bytes + ECI at version 1 = 152 bits,
    // which only low holds.
    let boosted = qrglue_core::png(&text[..16], &with(Symbol { boost_ec: true, ..eci })).unwrap();
    assert_eq!(read_meta(&boosted).2, 0);
}
