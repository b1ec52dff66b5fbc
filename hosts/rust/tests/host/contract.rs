//! target/contract.json (written by `just contract` from
//! guest/core/src/contract.rs) against what this host really uses and does:
//! its defaults, bounds, text limit, EC-level order, error kinds and their
//! check order, every fixed message on every path, and the raw glue's ABI
//! version, record size and status mapping.

use std::path::PathBuf;

use qrglue_host::testing::{self, RawAbi};
use qrglue_host::{EcLevel, Error, ErrorKind, Generator, MAX_TEXT_BYTES, Options, Path, RawRuntime, Rgba, TextStyle};
use serde_json::Value;

fn contract() -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/contract.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `just contract` (or `just build`) to write it", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}; run `just contract` to rewrite it", path.display()))
}

fn u32_at(value: &Value) -> u32 {
    value.as_u64().and_then(|n| u32::try_from(n).ok()).unwrap_or_else(|| panic!("not a u32: {value}"))
}

fn str_at(value: &Value) -> &str {
    value.as_str().unwrap_or_else(|| panic!("not a string: {value}"))
}

fn names(value: &Value) -> Vec<&str> {
    value.as_array().unwrap_or_else(|| panic!("not a list: {value}")).iter().map(str_at).collect()
}

/// A template from the contract with its `{placeholders}` filled in.
fn fill(template: &str, values: &[(&str, &dyn std::fmt::Display)]) -> String {
    let filled = values.iter().fold(template.to_owned(), |text, (key, value)| text.replace(&format!("{{{key}}}"), &value.to_string()));
    assert!(!filled.contains('{'), "{template}: placeholders left in {filled}");
    filled
}

fn all_paths() -> Vec<Box<dyn Generator>> {
    Path::ALL.into_iter().map(|path| qrglue_host::generator(path).expect("generator")).collect()
}

/// The kind and message a png call gives for these bytes.
fn refusal(g: &mut dyn Generator, text: &[u8], options: &Options) -> (String, String) {
    match g.png_from_utf8(text, options) {
        Err(Error::Qr(error)) => (error.kind().as_str().to_owned(), error.to_string()),
        Err(other) => panic!("{}: not a contract error: {other}", g.path()),
        Ok(_) => panic!("{}: {:?} was accepted", g.path(), String::from_utf8_lossy(&text[..text.len().min(40)])),
    }
}

#[test]
fn the_contract_file_is_current() {
    let generated: Value = serde_json::from_str(&qrglue_core::contract::to_json()).expect("to_json is JSON");
    assert_eq!(contract(), generated, "target/contract.json is stale: run `just contract`");
}

#[test]
fn defaults_bounds_levels_and_kinds_are_the_hosts() {
    let contract = contract();
    let defaults = Options::default();
    assert_eq!(str_at(&contract["defaults"]["ec-level"]), defaults.ec_level.as_str());
    assert_eq!(u32_at(&contract["defaults"]["min-size"]), defaults.min_size);
    assert_eq!(u32_at(&contract["defaults"]["quiet-zone"]), defaults.quiet_zone);
    assert_eq!((contract["defaults"]["scale"].is_null(), defaults.scale), (true, None));
    assert_eq!(Rgba::from_hex(str_at(&contract["defaults"]["dark"])), Some(defaults.dark));
    assert_eq!(Rgba::from_hex(str_at(&contract["defaults"]["light"])), Some(defaults.light));
    assert_eq!(contract["max_text_bytes"].as_u64(), Some(MAX_TEXT_BYTES as u64));

    let levels = names(&contract["ec_levels"]);
    assert_eq!(levels, EcLevel::ALL.map(EcLevel::as_str));
    for (index, name) in levels.iter().enumerate() {
        // The raw glue passes a level as its index in this order.
        assert_eq!(EcLevel::from_name(name).map(EcLevel::index), Some(index as u32), "{name}");
    }
    assert_eq!(names(&contract["error_kinds"]), ErrorKind::ALL.map(ErrorKind::as_str));

    // The CLI shows the same defaults: hosts/rust/cli/tests/cli.rs.
}

#[test]
fn bounds_and_the_text_limit_hold_on_every_path_with_the_contracts_messages() {
    let contract = contract();
    let template = str_at(&contract["messages"]["out-of-range"]);
    let too_long = str_at(&contract["messages"]["data-too-long"]);
    let max_text = contract["max_text_bytes"].as_u64().unwrap() as usize;
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        for (option, set) in [
            ("min-size", (|o: &mut Options, v: u32| o.min_size = v) as fn(&mut Options, u32)),
            ("quiet-zone", |o: &mut Options, v: u32| o.quiet_zone = v),
            ("scale", |o: &mut Options, v: u32| o.scale = Some(v)),
        ] {
            let bounds = &contract["bounds"][option];
            let (min, max) = (u32_at(&bounds[0]), u32_at(&bounds[1]));
            let with = |value: u32| {
                let mut options = Options::default();
                set(&mut options, value);
                options
            };
            for inside in [min, max] {
                assert!(g.png("hello", &with(inside)).is_ok(), "{path}: {option} {inside}");
            }
            let mut outside = vec![max + 1, u32::MAX];
            if min > 0 {
                outside.push(min - 1);
            }
            for value in outside {
                let want = fill(template, &[("option", &option), ("min", &min), ("max", &max), ("value", &value)]);
                assert_eq!(refusal(g, b"hello", &with(value)), ("invalid-options".to_owned(), want), "{path}");
            }
        }
        // The longest numeric text a code holds fits; one byte more is refused
        // before encoding (and, on the wasm paths, before entering the guest).
        let digits = "7".repeat(max_text);
        assert!(g.png(&digits, &Options::default()).is_ok(), "{path}: {max_text} digits fit at EC low");
        let over = "7".repeat(max_text + 1);
        assert_eq!(refusal(g, over.as_bytes(), &Options::default()), ("data-too-long".to_owned(), too_long.to_owned()), "{path}");
    }
}

/// The wasi:http component cannot link the core (it imports it as a separate
/// component, plugged in at build time), so it restates the messages it
/// answers with itself: they must be the contract's.
#[test]
fn the_wasi_http_components_copies_equal_the_contract() {
    let contract = contract();
    let source =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../guest/http-proxy/src/lib.rs")).expect("read");
    let constant = |name: &str| {
        let line = source.lines().find(|l| l.starts_with(&format!("const {name}:"))).unwrap_or_else(|| panic!("no const {name}"));
        line.split_once(" = ").expect("a value").1.trim_end_matches(';').to_owned()
    };
    // (data-too-long has none: its message is the component's payload.)
    for (name, message) in [("EMPTY_TEXT_MESSAGE", "empty-text"), ("LONE_SURROGATE_MESSAGE", "lone-surrogate")] {
        assert_eq!(constant(name), format!("{:?}", str_at(&contract["messages"][message])), "{name}");
    }
    // Its static build's option bounds are guest/http-query's `check_ranges`,
    // which that crate's own tests hold against the core's `Options::validate`.
}

/// No public call may run for more than a second (a wasm call cannot be
/// interrupted): png-repeat's `times` is bounded on every path, after the
/// text's own checks.
#[test]
fn png_repeat_times_is_bounded_on_every_path() {
    let contract = contract();
    let template = str_at(&contract["messages"]["out-of-range"]);
    let bound = u32_at(&contract["max_png_repeat_times"]);
    assert_eq!(bound, qrglue_core::probe::MAX_PNG_REPEAT_TIMES);
    let text = "https://www.reddit.com/r/rustjerk/top/?t=all";
    let fine = Options::default();
    for mut generator in all_paths() {
        let g = generator.as_mut();
        let path = g.path();
        let length = g.png_repeat(text, &fine, 1).expect("one render");
        assert_eq!(g.png_repeat(text, &fine, bound).expect("the bound itself"), length, "{path}");
        for times in [bound + 1, u32::MAX] {
            let want = fill(template, &[("option", &"times"), ("min", &0), ("max", &bound), ("value", &times)]);
            match g.png_repeat(text, &fine, times) {
                Err(Error::Qr(error)) => {
                    assert_eq!((error.kind().as_str(), error.to_string()), ("invalid-options", want), "{path}")
                }
                other => panic!("{path}: times {times}: {other:?}"),
            }
        }
        match g.png_repeat("", &fine, bound + 1) {
            Err(Error::Qr(error)) => assert_eq!(error.kind().as_str(), "empty-text", "{path}"),
            other => panic!("{path}: {other:?}"),
        }
    }
}

#[test]
fn fixed_messages_are_identical_on_every_path() {
    let contract = contract();
    let message = |name: &str| str_at(&contract["messages"][name]).to_owned();
    let fine = Options::default();
    // A lone surrogate reaches a Rust host only as WTF-8 bytes.
    let cases: [(&[u8], &str, String); 4] = [
        (b"", "empty-text", message("empty-text")),
        (b"\xed\xa0\x80", "invalid-text", message("lone-surrogate")),
        (b"ab\xed\xbf\xbfcd", "invalid-text", message("lone-surrogate")),
        // The one fixed data-too-long message: over the byte bound (a text
        // within it gets the core's message naming the limit: errors.rs).
        (&[b'x'; 7090], "data-too-long", message("data-too-long")),
    ];
    for mut generator in all_paths() {
        let g = generator.as_mut();
        for (text, kind, want) in &cases {
            assert_eq!(refusal(g, text, &fine), ((*kind).to_owned(), want.clone()), "{}", g.path());
        }
    }
}

/// With two mistakes at once, every path reports the one earlier in the
/// contract's check order.
#[test]
fn every_path_checks_in_the_contracts_order() {
    let order = names(&contract()["error_check_order"]).into_iter().map(|n| n.to_owned()).collect::<Vec<_>>();
    assert_eq!(order.len(), ErrorKind::ALL.len());
    let bad_options = Options { quiet_zone: 17, ..Options::default() };
    let long = vec![b'a'; MAX_TEXT_BYTES + 1];
    let mut long_invalid = long.clone();
    long_invalid[3] = 0xff;
    // Every pair of mistakes that can occur together (a text is never both
    // empty and invalid, nor empty and too long): (first, second, input).
    let pairs: [(&str, &str, &[u8], Options); 5] = [
        ("invalid-text", "data-too-long", &long_invalid, Options::default()),
        ("invalid-text", "invalid-options", b"\xff", bad_options),
        ("invalid-text", "invalid-options", &long_invalid, bad_options),
        ("empty-text", "invalid-options", b"", bad_options),
        ("data-too-long", "invalid-options", &long, bad_options),
    ];
    for mut generator in all_paths() {
        let g = generator.as_mut();
        for (first, second, text, options) in &pairs {
            let position = |kind: &str| order.iter().position(|k| k == kind).unwrap_or_else(|| panic!("{kind} not in the order"));
            assert!(position(first) < position(second), "contract order {order:?}: {first} before {second}");
            assert_eq!(refusal(g, text, options).0, *first, "{}: {first} + {second}", g.path());
        }
    }
}

#[test]
fn the_raw_glue_speaks_the_contracts_abi() {
    let contract = contract();
    let abi = &contract["raw_abi"];
    assert_eq!(u32_at(&abi["version"]), testing::ABI_VERSION);
    assert_eq!(u32_at(&abi["record_bytes"]), testing::RECORD_BYTES);
    let mut raw = RawRuntime::shared().unwrap().instantiate().unwrap();
    assert_eq!(raw.abi_version().unwrap(), testing::ABI_VERSION, "qrglue.raw.wasm's qr_abi_version");

    assert_eq!(testing::decode_status(u32_at(&abi["status_ok"]), b"payload".to_vec()).unwrap(), b"payload");
    let codes = abi["status_codes"].as_object().expect("status_codes");
    assert_eq!(codes.len(), ErrorKind::ALL.len());
    for (name, code) in codes {
        match testing::decode_status(u32_at(code), b"why".to_vec()) {
            Err(Error::Qr(error)) => assert_eq!(error.kind().as_str(), name, "status {code}"),
            other => panic!("status {code} ({name}) decoded as {other:?}"),
        }
    }
    let highest = codes.values().map(u32_at).max().unwrap();
    for unknown in [highest + 1, u32::MAX] {
        assert!(matches!(testing::decode_status(unknown, Vec::new()), Err(Error::Runtime(_))), "status {unknown}");
    }

    // The guest itself answers with those codes and the contract's messages:
    // empty text, and an EC-level index out of range.
    let status = |name: &str| u32_at(&codes[name]);
    let defaults = testing::abi_options(&Options::default());
    let record = raw.abi_png(0, 0, defaults).unwrap();
    assert_eq!(raw.abi_read_record(record).unwrap().0, status("empty-text"));
    assert_eq!(raw.abi_free(record).unwrap(), 0);
    let ptr = raw.abi_alloc(5).unwrap();
    raw.abi_write(ptr, b"hello").unwrap();
    let mut bad_level = defaults;
    bad_level[0] = 4;
    let record = raw.abi_png(ptr, 5, bad_level).unwrap();
    let (code, message) = raw.abi_read_record(record).unwrap();
    let want = fill(str_at(&contract["messages"]["ec-level-index"]), &[("value", &4)]);
    assert_eq!((code, String::from_utf8(message).unwrap()), (status("invalid-options"), want));
    assert_eq!(raw.abi_free(record).unwrap(), 0);

    // The symbol flags are the contract's bits, as abi_options sets them;
    // a word with a bit the ABI does not define is refused, not ignored.
    let flags = &contract["raw_abi"]["symbol_flags"];
    let all = Options {
        symbol: qrglue_host::Symbol { micro: true, boost_ec: true, version: Some(2), min_version: Some(1), mask: Some(3), eci: true },
        ..Options::default()
    };
    let bits = ["micro", "boost-ec", "has-version", "has-min-version", "has-mask", "eci"].map(|name| u32_at(&flags[name]));
    assert_eq!(testing::abi_options(&all)[7], bits.iter().sum::<u32>());
    assert_eq!(bits.iter().fold(0, |seen, bit| seen | bit), bits.iter().sum::<u32>(), "one bit each");
    let mut unknown_bit = defaults;
    unknown_bit[7] = bits.iter().sum::<u32>() + 1;
    let ptr = raw.abi_alloc(5).unwrap();
    raw.abi_write(ptr, b"hello").unwrap();
    let record = raw.abi_png(ptr, 5, unknown_bit).unwrap();
    let (code, message) = raw.abi_read_record(record).unwrap();
    let max = bits.iter().sum::<u32>();
    let want = fill(
        str_at(&contract["messages"]["out-of-range"]),
        &[("option", &"symbol-flags"), ("min", &0), ("max", &max), ("value", &(max + 1))],
    );
    assert_eq!((code, String::from_utf8(message).unwrap()), (status("invalid-options"), want));
    assert_eq!(raw.abi_free(record).unwrap(), 0);
}

/// The text styles, their order (the raw ABI's index) and the default are the
/// contract's; a style index out of range gets the contract's message, and
/// only once every option is fine (the style is checked last).
#[test]
fn text_styles_are_the_contracts_and_checked_last() {
    let contract = contract();
    let styles = names(&contract["text_styles"]);
    assert_eq!(styles, TextStyle::ALL.map(TextStyle::as_str));
    for (index, name) in styles.iter().enumerate() {
        assert_eq!(TextStyle::from_name(name).map(TextStyle::index), Some(index as u32), "{name}");
    }
    assert_eq!(str_at(&contract["defaults"]["text-style"]), TextStyle::default().as_str());

    let mut raw = RawRuntime::shared().unwrap().instantiate().unwrap();
    let status = |name: &str| u32_at(&contract["raw_abi"]["status_codes"][name]);
    let mut text_call = |min_size: u32, style: u32| {
        let ptr = raw.abi_alloc(5).unwrap();
        raw.abi_write(ptr, b"hello").unwrap();
        let options = testing::abi_options(&Options { min_size, ..Options::default() });
        let record = raw.abi_text(ptr, 5, options, style).unwrap();
        let (code, payload) = raw.abi_read_record(record).unwrap();
        assert_eq!(raw.abi_free(record).unwrap(), 0);
        (code, String::from_utf8(payload).unwrap())
    };
    let last = styles.len() as u32 - 1;
    assert_eq!(text_call(200, last), (0, qrglue_core::text("hello", &Options::default(), TextStyle::ALL[last as usize]).unwrap()));
    for style in [last + 1, u32::MAX] {
        let want = fill(str_at(&contract["messages"]["text-style-index"]), &[("value", &style)]);
        assert_eq!(text_call(200, style), (status("invalid-options"), want));
    }
    let bad_size =
        fill(str_at(&contract["messages"]["out-of-range"]), &[("option", &"min-size"), ("min", &1), ("max", &4096), ("value", &0)]);
    assert_eq!(text_call(0, last + 1), (status("invalid-options"), bad_size), "an option's error comes before the style's");
}

/// Dark and light the same colour is refused on every path, with the
/// contract's message naming it, after every range check.
#[test]
fn the_same_colour_twice_is_refused_on_every_path_after_the_ranges() {
    let contract = contract();
    let template = str_at(&contract["messages"]["same-colors"]);
    for mut generator in all_paths() {
        let g = generator.as_mut();
        for color in [Rgba::BLACK, Rgba::WHITE, Rgba { r: 1, g: 2, b: 3, a: 0 }] {
            let options = Options { dark: color, light: color, ..Options::default() };
            let want = fill(template, &[("value", &color.to_hex())]);
            assert_eq!(refusal(g, b"hello", &options), ("invalid-options".to_owned(), want), "{}", g.path());
        }
        let both = Options { dark: Rgba::WHITE, scale: Some(0), ..Options::default() };
        assert!(refusal(g, b"hello", &both).1.starts_with("scale must be within"), "{}", g.path());
        // Swapped colours are a valid (light-on-dark) code.
        assert!(g.png("hello", &Options { dark: Rgba::WHITE, light: Rgba::BLACK, ..Options::default() }).is_ok(), "{}", g.path());
    }
}
