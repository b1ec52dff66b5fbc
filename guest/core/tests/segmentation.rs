//! The core's segmentation against qrcode's `encode_auto`: the same data bits
//! for every text that `encode_auto` does not put into a Kanji segment, and
//! for the others the text's UTF-8 in byte mode, never Kanji.
//!
//! Why it matters: `encode_auto` reads its input as Shift-JIS, and UTF-8 for
//! U+0800 and up often forms Kanji byte pairs, so a reader showed mojibake for
//! ordinary Chinese and Japanese (guest/core/UPSTREAM.md). These tests hold
//! the fix to its one place: what changed in the corpus's golden vectors is
//! exactly the set of cases qrcode segmented as Kanji.

use qrcode::types::Version;
use qrglue_core::EcLevel;
use qrglue_vectors::Text;

fn stock_level(level: EcLevel) -> qrcode::EcLevel {
    match level {
        EcLevel::Low => qrcode::EcLevel::L,
        EcLevel::Medium => qrcode::EcLevel::M,
        EcLevel::Quartile => qrcode::EcLevel::Q,
        EcLevel::High => qrcode::EcLevel::H,
    }
}

/// Mode indicators of the data bits, read back from the bit stream: which
/// modes the symbol declares, in order (terminator excluded).
fn declared_modes(bits: qrcode::bits::Bits) -> Vec<u8> {
    modes_and_bytes(bits).0
}

/// The declared modes and the data bytes themselves.
fn modes_and_bytes(bits: qrcode::bits::Bits) -> (Vec<u8>, Vec<u8>) {
    let Version::Normal(version) = bits.version() else { unreachable!("normal versions only") };
    let bytes = bits.into_bytes();
    let bit = |i: usize| (bytes[i / 8] >> (7 - i % 8)) & 1;
    let read = |at: &mut usize, n: usize| {
        (0..n).fold(0usize, |acc, _| {
            let b = bit(*at);
            *at += 1;
            acc << 1 | b as usize
        })
    };
    let group = usize::from(version > 9) + usize::from(version > 26);
    let mut at = 0;
    let mut modes = Vec::new();
    while at + 4 <= bytes.len() * 8 {
        let mode = read(&mut at, 4) as u8;
        // Count-field bits per mode and version group, and data bits per count.
        let (count_bits, data_bits): (usize, fn(usize) -> usize) = match mode {
            0b0000 => break,
            0b0001 => ([10, 12, 14][group], |n| n / 3 * 10 + [0, 4, 7][n % 3]),
            0b0010 => ([9, 11, 13][group], |n| n / 2 * 11 + (n % 2) * 6),
            0b0100 => ([8, 16, 16][group], |n| n * 8),
            0b1000 => ([8, 10, 12][group], |n| n * 13),
            other => panic!("unexpected mode indicator {other:#06b}"),
        };
        let count = read(&mut at, count_bits);
        at += data_bits(count);
        modes.push(mode);
    }
    (modes, bytes)
}

const KANJI_INDICATOR: u8 = 0b1000;

#[test]
fn corpus_symbols_change_exactly_where_qrcode_used_kanji() {
    let mut changed = Vec::new();
    let mut cases_checked = 0;
    for case in qrglue_vectors::cases() {
        let Text::Utf8(text) = &case.text else { continue };
        if text.is_empty() || text.len() > qrglue_core::MAX_TEXT_BYTES {
            continue;
        }
        let stock = qrcode::bits::encode_auto(text.as_bytes(), stock_level(case.options.ec_level));
        let ours = qrglue_core::data_bits(text, case.options.ec_level);
        cases_checked += 1;
        let (Ok(stock), Ok(ours)) = (stock, ours) else {
            assert!(text.len() > 1000, "{}: a short text was refused", case.id);
            continue;
        };
        let ((stock_modes, stock), (ours_modes, ours)) = (modes_and_bytes(stock), modes_and_bytes(ours));
        assert!(!ours_modes.contains(&KANJI_INDICATOR), "{}: ours declares Kanji", case.id);
        if stock_modes.contains(&KANJI_INDICATOR) {
            changed.push(case.id.clone());
        } else {
            assert_eq!(ours, stock, "{}: qrcode wrote no Kanji, so the same bits", case.id);
        }
    }
    assert!(cases_checked > 150, "only {cases_checked} cases checked");
    // The corpus's texts that qrcode segmented as Kanji, and no other: of the
    // vectors blessed before the fix only unicode-supplementary-planes (the
    // one re-blessed); the script-* cases were added with it, and
    // opt-colors-and-scale-cjk (kana and kanji, coloured) with the options,
    // and sym-all-at-once (the same text at a fixed version and mask) with
    // the symbol options.
    changed.sort();
    assert_eq!(
        changed,
        [
            "opt-colors-and-scale-cjk",
            "script-ja-kana",
            "script-ja-kanji",
            "script-ja-quotes",
            "script-ja-sentence",
            "script-zh-sentence",
            "script-zh-sentence-high",
            "script-zh-sentence-medium",
            "script-zh-sentence-quartile",
            "sym-all-at-once",
            "unicode-supplementary-planes",
        ],
        "the cases whose symbol differs from qrcode's encode_auto"
    );
}

#[test]
fn cjk_text_is_declared_as_bytes_never_kanji() {
    for text in ["漢字です。日本語", "中华人民共和国万岁，二维码生成器测试文本", "「引用」と『二重引用』", "𝕳𝖊𝖑𝖑𝖔 𓀀 🀄"]
    {
        for level in [EcLevel::Low, EcLevel::Medium, EcLevel::Quartile, EcLevel::High] {
            let modes = declared_modes(qrglue_core::data_bits(text, level).unwrap());
            assert!(!modes.is_empty() && modes.iter().all(|&m| m != KANJI_INDICATOR), "{text:?} at {level:?}: modes {modes:?}");
            assert!(modes.contains(&0b0100), "{text:?}: its UTF-8 is in a byte segment");
        }
        // qrcode's own encoder declares Kanji for it: the bug this guards against.
        let stock = qrcode::bits::encode_auto(text.as_bytes(), qrcode::EcLevel::L).unwrap();
        assert!(declared_modes(stock).contains(&KANJI_INDICATOR), "{text:?}: qrcode no longer uses Kanji (UPSTREAM.md)");
    }
}

#[test]
fn ascii_and_digits_keep_qrcode_segments() {
    // Numeric and alphanumeric runs inside UTF-8 text are still their own
    // segments when that is shorter, as in qrcode.
    let modes = declared_modes(qrglue_core::data_bits("注文番号 01234567890123456789 発送済み", EcLevel::Low).unwrap());
    assert_eq!(modes, [0b0100, 0b0001, 0b0100]);
    for ascii in ["HELLO WORLD 0123456789", "https://www.reddit.com/r/rustjerk/top/?t=all", "order #0123456789012345678901234567890"] {
        let ours = qrglue_core::data_bits(ascii, EcLevel::Low).unwrap().into_bytes();
        assert_eq!(ours, qrcode::bits::encode_auto(ascii.as_bytes(), qrcode::EcLevel::L).unwrap().into_bytes(), "{ascii}");
    }
}

#[test]
fn too_long_is_refused_like_qrcode() {
    // 2,953 bytes is byte mode's version-40 capacity at EC low.
    let fits = "é".repeat(1476) + "a";
    assert_eq!(qrglue_core::data_bits(&fits, EcLevel::Low).unwrap().version(), Version::Normal(40));
    let cjk_fits = "中".repeat(984) + "a"; // 2,953 bytes
    assert_eq!(qrglue_core::data_bits(&cjk_fits, EcLevel::Low).unwrap().version(), Version::Normal(40));
    let cjk_over = "中".repeat(985); // 2,955 bytes
    assert!(matches!(qrglue_core::data_bits(&cjk_over, EcLevel::Low), Err(qrglue_core::QrError::DataTooLong(_))));
}
