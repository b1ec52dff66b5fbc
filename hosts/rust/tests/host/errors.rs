//! Every contract error kind on every path, each with its message, and the
//! probes' answers (the same on every path).

use qrglue_host::{EcLevel, Error, ErrorKind, MAX_TEXT_BYTES, Options, Symbol};

use crate::corpus;
use crate::paths::{all_paths, assert_golden_png, kind_of};

#[test]
fn every_error_kind_on_every_path() {
    let fine = Options::default();
    let too_long = "a".repeat(MAX_TEXT_BYTES + 1);
    // 2000 bytes fit a version-40 code at EC low (2953) but not at high (1273).
    let fits_only_low = "x".repeat(2000);
    let url = "https://www.reddit.com/r/rustjerk/top/?t=all";
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        assert_eq!(kind_of(g.png("", &fine)), ErrorKind::EmptyText, "{path}");
        assert_eq!(kind_of(g.svg("", &fine)), ErrorKind::EmptyText, "{path}");
        assert_eq!(kind_of(g.png_repeat("", &fine, 3)), ErrorKind::EmptyText, "{path}");
        // Empty comes before bad options, in the contract's order.
        assert_eq!(kind_of(g.png("", &Options { min_size: 0, ..fine })), ErrorKind::EmptyText, "{path}");

        assert_eq!(kind_of(g.png_from_utf8(b"ab\xffcd", &fine)), ErrorKind::InvalidText, "{path}");
        assert_eq!(kind_of(g.svg_from_utf8(b"\xed\xa0\x80", &fine)), ErrorKind::InvalidText, "{path}: a UTF-8-encoded lone surrogate");
        // Invalid text comes before empty and too long.
        let mut long_and_invalid = vec![b'a'; MAX_TEXT_BYTES + 10];
        long_and_invalid[5] = 0xc0;
        assert_eq!(kind_of(g.png_from_utf8(&long_and_invalid, &fine)), ErrorKind::InvalidText, "{path}");
        assert_eq!(g.png_from_utf8(b"hello", &fine).unwrap(), g.png("hello", &fine).unwrap(), "{path}: valid bytes = the str");

        assert_eq!(kind_of(g.png(&too_long, &fine)), ErrorKind::DataTooLong, "{path}");
        assert_eq!(kind_of(g.png_repeat(&too_long, &fine, 1)), ErrorKind::DataTooLong, "{path}");
        let high = Options { ec_level: EcLevel::High, ..fine };
        assert_eq!(kind_of(g.png(&fits_only_low, &high)), ErrorKind::DataTooLong, "{path}");
        // The message is the core's, carried as the error's payload: it names
        // the limit hit (version 40 at this level, a fixed version, Micro QR).
        let message = |result: Result<Vec<u8>, Error>| result.unwrap_err().to_string();
        let at_40_h = "text does not fit in a QR code at level high: it needs 16020 data bits, version 40 holds 10208";
        assert_eq!(message(g.png(&fits_only_low, &high)), at_40_h, "{path}");
        let version_2 = Options { symbol: Symbol { version: Some(2), ..Symbol::default() }, ..fine };
        let at_2 = "text does not fit in version 2 at level low: it needs 364 data bits, version 2 holds 272";
        assert_eq!(message(g.png(url, &version_2)), at_2, "{path}");
        let micro = Options { symbol: Symbol { micro: true, ..Symbol::default() }, ..fine };
        let at_m4 = "text does not fit in a Micro QR code at level low: it needs 360 data bits, M4 holds 128";
        assert_eq!(message(g.png(url, &micro)), at_m4, "{path}");
        let over = "text does not fit in any QR code: it is over 7089 bytes, the most one holds";
        assert_eq!(message(g.png(&too_long, &fine)), over, "{path}");
        assert!(g.png(&fits_only_low, &fine).is_ok(), "{path}: 2000 bytes fit at EC low");
        // Too long comes before bad options.
        assert_eq!(kind_of(g.png(&too_long, &Options { quiet_zone: 99, ..fine })), ErrorKind::DataTooLong, "{path}");

        for (bad, names) in [
            (Options { min_size: 0, ..fine }, "min-size"),
            (Options { min_size: 4097, ..fine }, "min-size"),
            (Options { quiet_zone: 17, ..fine }, "quiet-zone"),
        ] {
            let error = g.png("hello", &bad).expect_err("out-of-range option");
            assert_eq!(error.kind(), Some(ErrorKind::InvalidOptions), "{path}: {error}");
            assert!(error.to_string().contains(names), "{path}: {error} should name {names}");
            assert_eq!(kind_of(g.svg("hello", &bad)), ErrorKind::InvalidOptions, "{path}");
            assert_eq!(kind_of(g.png_repeat("hello", &bad, 2)), ErrorKind::InvalidOptions, "{path}");
        }
        assert_golden_png(g);
    }
}

#[test]
fn every_path_reports_the_same_messages() {
    let mut generators = all_paths();
    let inputs: [(&[u8], Options); 4] = [
        (b"", Options::default()),
        (b"\xff", Options::default()),
        (b"hello", Options { min_size: 5000, ..Options::default() }),
        (b"hello", Options { quiet_zone: 40, ..Options::default() }),
    ];
    for (text, options) in inputs {
        let messages: Vec<String> =
            generators.iter_mut().map(|g| g.png_from_utf8(text, &options).expect_err("bad input").to_string()).collect();
        // The raw guest writes its messages itself (UTF-8 included); they
        // must match the host-side ones word for word.
        assert!(messages.iter().all(|m| m == &messages[0]), "{:?} {options:?}: {messages:?}", String::from_utf8_lossy(text));
    }
}

#[test]
fn probes_agree_on_every_path() {
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        g.noop().unwrap();
        for len in [0usize, 1, 250, 251, 4096, 100_000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            assert_eq!(g.consume(&data).unwrap(), len as u32, "{path}: consume {len}");
            let produced = g.produce(len as u32).unwrap();
            assert_eq!(produced.len(), len, "{path}: produce {len}");
            assert!(produced.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8), "{path}: produce pattern");
        }
        let case = corpus::case("ref-02");
        let expected_len = corpus::expected_png_bytes("ref-02") as u32;
        assert_eq!(g.png_repeat(&case.text, &case.options, 3).unwrap(), expected_len, "{path}");
        assert_eq!(g.png_repeat(&case.text, &case.options, 0).unwrap(), 0, "{path}: zero repeats");
    }
}

/// The SVG options' refusals (which a corpus outcome cannot hold: they fail
/// the SVG calls alone) give the same message on every path, after the
/// text's and the options' own; a title or class past its bound never enters
/// a guest: the host refuses it first, before any of the guest's checks
/// (docs/contract.md, "Which errors a host raises").
#[test]
fn svg_options_are_refused_alike_on_every_path_after_the_other_checks() {
    use qrglue_host::SvgOptions;
    let fine = Options::default();
    let title = |t: &str| SvgOptions { title: Some(t.to_owned()), ..SvgOptions::default() };
    let class = |c: &str| SvgOptions { class: Some(c.to_owned()), ..SvgOptions::default() };
    let cases: [(SvgOptions, &str); 8] = [
        (title("bell\u{7}"), "title holds U+0007 at byte 4, which XML 1.0 cannot carry"),
        (title("\u{fffe}"), "title holds U+FFFE at byte 0, which XML 1.0 cannot carry"),
        (title(&"é".repeat(513)), "title must be at most 1024 UTF-8 bytes, got 1026"),
        (title(&"t".repeat(100 << 20)), "title must be at most 1024 UTF-8 bytes, got 104857600"),
        (class(&"c".repeat(257)), "class must be at most 256 UTF-8 bytes, got 257"),
        (
            class(""),
            r#"class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got """#,
        ),
        (
            class("a  b"),
            r#"class must be CSS class names (ASCII letters, digits, - and _) separated by single spaces, at most 256 bytes, got "a  b""#,
        ),
        (
            SvgOptions { title: Some("\0".into()), class: Some(String::new()), view_box_only: true },
            "title holds U+0000 at byte 0, which XML 1.0 cannot carry",
        ),
    ];
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        let mut pages = 0;
        // Twice: guest memory may grow once while warming up, then never.
        for round in 0..2 {
            if round == 1 {
                pages = g.memory_pages().unwrap();
            }
            for (svg, message) in &cases {
                let error = g.svg_with("hello", &fine, svg).expect_err("a bad SVG option");
                assert_eq!((error.kind(), error.to_string().as_str()), (Some(ErrorKind::InvalidOptions), *message), "{path}");
                let error = g.svg_bytes_with(b"\xff", &fine, svg).expect_err("a bad SVG option");
                assert_eq!(error.to_string(), *message, "{path}: bytes");
                // The text's UTF-8 comes first; then a string over its bound
                // (the host's), else the guest's order: the text, the options.
                assert_eq!(kind_of(g.svg_from_utf8_with(b"\xff", &fine, svg)), ErrorKind::InvalidText, "{path}");
                let oversized = message.contains("must be at most");
                let error = g.svg_with("", &fine, svg).unwrap_err();
                if oversized {
                    assert_eq!(error.to_string(), *message, "{path}: empty text");
                } else {
                    assert_eq!(error.kind(), Some(ErrorKind::EmptyText), "{path}");
                }
                let error = g.svg_with("hello", &Options { min_size: 0, ..fine }, svg).unwrap_err().to_string();
                assert!(if oversized { error == *message } else { error.starts_with("min-size") }, "{path}: {error}");
            }
        }
        assert_eq!(g.memory_pages().unwrap(), pages, "{path}: a 100 MB title grew guest memory");
        // Good options: the same document on every path, the plain one by default.
        let good = SvgOptions { view_box_only: true, title: Some("a\r\n<b>&".into()), class: Some("qr x-1".into()) };
        assert_eq!(g.svg_with("hello", &fine, &good).unwrap(), qrglue_core::svg_with("hello", &fine, &good).unwrap(), "{path}");
        assert_eq!(g.svg_with("hello", &fine, &SvgOptions::default()).unwrap(), g.svg("hello", &fine).unwrap(), "{path}");
    }
}
