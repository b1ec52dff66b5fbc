//! 1,000 random inputs (seeded, so every run draws the same ones) give the
//! same PNG bytes, SVG text or error on all three paths; 300 random binary
//! payloads give the same PNG, SVG, matrix or error through the `*_bytes` calls.

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use qrglue_host::{EcLevel, Generator, Options, Path};

/// Texts across the encoder's modes and sizes, up to past version 40.
fn texts() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "\\PC{0,60}",                          // any printable Unicode: byte mode, multi-byte UTF-8
        2 => "[0-9]{1,400}",                        // numeric mode
        2 => "[A-Z0-9 $%*+./:-]{1,300}",            // alphanumeric mode
        1 => "[a-z0-9/:.?=&-]{10,120}",             // URL-like
        1 => "[\\x00-\\x7f]{900,3100}",             // near and past the version-40 limits
        1 => Just(String::new()),
    ]
}

/// Options mostly in range, sometimes just outside it.
fn options() -> impl Strategy<Value = Options> {
    let ec_level = prop::sample::select(EcLevel::ALL.to_vec());
    let min_size = prop_oneof![8 => 1u32..=600, 1 => Just(0u32), 1 => 4097u32..=10_000];
    let quiet_zone = prop_oneof![8 => 0u32..=16, 1 => 17u32..=100];
    (ec_level, min_size, quiet_zone).prop_map(|(ec_level, min_size, quiet_zone)| Options {
        ec_level,
        min_size,
        quiet_zone,
        ..Options::default()
    })
}

/// One path's answer, comparable across paths.
#[derive(Debug, PartialEq)]
enum Answer {
    Files { png: Vec<u8>, svg: String },
    Refused(String),
}

fn answer(generator: &mut dyn Generator, text: &str, options: &Options) -> Answer {
    match (generator.png(text, options), generator.svg(text, options)) {
        (Ok(png), Ok(svg)) => Answer::Files { png, svg },
        (Err(png), Err(svg)) => {
            assert!(png.kind().is_some(), "{}: {png}", generator.path());
            assert_eq!(png.to_string(), svg.to_string(), "{}", generator.path());
            Answer::Refused(png.to_string())
        }
        (png, svg) => panic!("{}: png {:?} vs svg {:?}", generator.path(), png.map(|_| ()), svg.map(|_| ())),
    }
}

#[test]
fn random_inputs_agree_across_paths() {
    let config = Config { cases: 1000, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[0x51; 32]));
    let generators: Vec<RefCell<Box<dyn Generator>>> =
        Path::ALL.into_iter().map(|path| RefCell::new(qrglue_host::generator(path).unwrap())).collect();
    let outcomes = RefCell::new([0usize; 2]);
    runner
        .run(&(texts(), options()), |(text, options)| {
            let answers: Vec<Answer> = generators.iter().map(|g| answer(g.borrow_mut().as_mut(), &text, &options)).collect();
            for (path, other) in Path::ALL.iter().zip(&answers).skip(1) {
                prop_assert_eq!(&answers[0], other, "native vs {} on {:?} {:?}", path, text, options);
            }
            outcomes.borrow_mut()[matches!(answers[0], Answer::Refused(_)) as usize] += 1;
            Ok(())
        })
        .unwrap();
    let [files, refused] = outcomes.into_inner();
    // Both kinds of outcome must be well represented, or the test checks little.
    assert!(files >= 500 && refused >= 50, "{files} files, {refused} refusals");
}

/// Binary payloads: any bytes (most not UTF-8), runs of digits and capitals
/// between them (numeric and alphanumeric segments), the empty payload, and
/// lengths near and past the byte-mode and 7089-byte limits.
fn payloads() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        6 => prop::collection::vec(any::<u8>(), 1..300),
        2 => prop::collection::vec(prop_oneof![any::<u8>(), prop::sample::select(b"0123456789ABC $%".to_vec())], 1..600),
        1 => prop::collection::vec(any::<u8>(), 2900..3000),
        1 => prop::collection::vec(any::<u8>(), 7089..7100),
        1 => Just(Vec::new()),
    ]
}

#[derive(Debug, PartialEq)]
enum PayloadAnswer {
    Files { png: Vec<u8>, svg: String, matrix: qrglue_host::Matrix },
    Refused(String),
}

fn payload_answer(generator: &mut dyn Generator, data: &[u8], options: &Options) -> PayloadAnswer {
    match (generator.png_bytes(data, options), generator.svg_bytes(data, options), generator.matrix_bytes(data, options)) {
        (Ok(png), Ok(svg), Ok(matrix)) => PayloadAnswer::Files { png, svg, matrix },
        (Err(png), Err(svg), Err(matrix)) => {
            assert!(png.kind().is_some(), "{}: {png}", generator.path());
            assert_eq!([png.to_string(), svg.to_string()], [matrix.to_string(), matrix.to_string()], "{}", generator.path());
            PayloadAnswer::Refused(png.to_string())
        }
        _ => panic!("{}: the outputs disagree on {} bytes", generator.path(), data.len()),
    }
}

#[test]
fn random_payloads_agree_across_paths() {
    let config = Config { cases: 300, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[0x52; 32]));
    let generators: Vec<RefCell<Box<dyn Generator>>> =
        Path::ALL.into_iter().map(|path| RefCell::new(qrglue_host::generator(path).unwrap())).collect();
    let outcomes = RefCell::new([0usize; 2]);
    runner
        .run(&(payloads(), options()), |(data, options)| {
            let answers: Vec<PayloadAnswer> = generators.iter().map(|g| payload_answer(g.borrow_mut().as_mut(), &data, &options)).collect();
            for (path, other) in Path::ALL.iter().zip(&answers).skip(1) {
                prop_assert_eq!(&answers[0], other, "native vs {} on {} bytes {:?}", path, data.len(), options);
            }
            // A payload that is UTF-8 is that text's code.
            if let (Ok(text), PayloadAnswer::Files { png, .. }) = (std::str::from_utf8(&data), &answers[0]) {
                prop_assert_eq!(&qrglue_core::png(text, &options).unwrap(), png);
            }
            outcomes.borrow_mut()[matches!(answers[0], PayloadAnswer::Refused(_)) as usize] += 1;
            Ok(())
        })
        .unwrap();
    let [files, refused] = outcomes.into_inner();
    assert!(files >= 150 && refused >= 30, "{files} files, {refused} refusals");
}

/// SVG options: any title XML can carry and any class list, with and
/// without the viewBox-only form, give the same document on every path.
#[test]
fn random_svg_options_agree_across_paths() {
    use qrglue_host::SvgOptions;
    let config = Config { cases: 200, failure_persistence: None, ..Config::default() };
    let mut runner = TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &[0x53; 32]));
    let generators: Vec<RefCell<Box<dyn Generator>>> =
        Path::ALL.into_iter().map(|path| RefCell::new(qrglue_host::generator(path).unwrap())).collect();
    let title = prop::option::of("[\t\n\r -~<>&\"'\u{a0}-\u{d7ff}\u{e000}-\u{fffd}\u{10000}-\u{10ffff}]{0,60}");
    let class = prop::option::of("[a-zA-Z0-9_-]{1,12}( [a-zA-Z0-9_-]{1,12}){0,3}");
    runner
        .run(&(any::<bool>(), title, class, "[ -~]{1,40}"), |(view_box_only, title, class, text)| {
            let svg = SvgOptions { view_box_only, title, class };
            let documents: Vec<String> =
                generators.iter().map(|g| g.borrow_mut().svg_with(&text, &Options::default(), &svg).unwrap()).collect();
            for (path, other) in Path::ALL.iter().zip(&documents).skip(1) {
                prop_assert_eq!(&documents[0], other, "native vs {}", path);
            }
            Ok(())
        })
        .unwrap();
}
