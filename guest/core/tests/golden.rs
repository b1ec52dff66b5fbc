//! Golden vectors: every case in tests/vectors/cases.json rendered by the core
//! must match tests/vectors/expected.json (sha256 of PNG, SVG, matrix and
//! every text style, or the error kind and message), byte for byte. Every other path is checked against the same file.
//!
//! `QRGLUE_BLESS=1 cargo test --release -p qrglue-core --test golden` writes
//! expected.json from the core's current output: for new cases only. A change
//! in an existing entry means the golden output changed, which the project
//! forbids (`git diff tests/vectors/expected.json` may only add lines).
//!
//! `QRGLUE_BLESS=png` (or `svg`, `png,svg`) is the one exception, taken on
//! purpose when a writer changes its bytes but not its image (the PNG
//! deflate writer, proven pixel for pixel by tests/png_pixels.rs): it
//! rewrites the named outputs' digests (and the PNG's size) of existing
//! entries, and still fails on any other change (matrix, text, errors).
//!
//! `QRGLUE_BLESS=data-too-long` re-blesses the messages of existing
//! `data-too-long` error entries, and nothing else: taken once, when the
//! kind gained its payload naming the limit hit (issue 33). An entry
//! of another kind, or one whose kind changes, still fails.

use std::collections::BTreeMap;

use qrglue_core::{QrError, TextStyle};
use qrglue_vectors::{Outcome, Text};

/// What the core gives for one case. A lone surrogate never reaches the core:
/// like every host, the Rust side rejects it while decoding the input.
fn outcome(case: &qrglue_vectors::Case) -> Outcome {
    let options = &case.options;
    // A text runs the text generators, a `data_hex` payload the bytes ones.
    let (png, svg, matrix, texts) = match &case.text {
        Text::LoneSurrogate => return Outcome::error("invalid-text", qrglue_core::contract::LONE_SURROGATE_MESSAGE),
        Text::Utf8(text) => (
            qrglue_core::png(text, options),
            qrglue_core::svg_with(text, options, &case.svg),
            qrglue_core::matrix(text, options),
            TextStyle::ALL.into_iter().map(|style| Ok((style, qrglue_core::text(text, options, style)?))).collect(),
        ),
        Text::Bytes(data) => (
            qrglue_core::png_bytes(data, options),
            qrglue_core::svg_bytes_with(data, options, &case.svg),
            qrglue_core::matrix_bytes(data, options),
            TextStyle::ALL.into_iter().map(|style| Ok((style, qrglue_core::text_bytes(data, options, style)?))).collect(),
        ),
    };
    let texts: Result<Vec<(TextStyle, String)>, QrError> = texts;
    match (png, svg, matrix, texts) {
        (Ok(png), Ok(svg), Ok(matrix), Ok(texts)) => Outcome::image(&png, &svg, (matrix.width() as u32, &matrix.packed_modules()), &texts),
        (Err(png), svg, matrix, texts) => {
            let others = [svg.err(), matrix.err(), texts.err()];
            assert!(
                others.iter().all(|e| e.as_ref() == Some(&png)),
                "{}: every output must fail as png does: {png:?} vs {others:?}",
                case.id
            );
            Outcome::from_error(&png)
        }
        (Ok(_), ..) => panic!("{}: png succeeded, another output failed", case.id),
    }
}

#[test]
fn golden_vectors_match() {
    let cases = qrglue_vectors::cases();
    let results: BTreeMap<String, Outcome> = cases.iter().map(|case| (case.id.clone(), outcome(case))).collect();

    if let Some(mode) = std::env::var_os("QRGLUE_BLESS") {
        let mode = mode.into_string().expect("QRGLUE_BLESS is 1 or a list of outputs");
        let (png, svg, too_long) = rebless_outputs(&mode);
        let mut expected = qrglue_vectors::expected_or_empty();
        for (id, got) in &results {
            // Bless adds; it never rewrites an existing golden entry. The one
            // thing it may add to an entry is the message of an error that
            // was blessed before messages were compared (same kind).
            let old = expected.entry(id.clone()).or_insert_with(|| got.clone());
            if let (Outcome::Error { error, message }, Outcome::Error { error: kind, .. }) = (&*old, got)
                && message.is_empty()
                && error == kind
            {
                *old = got.clone();
            }
            // Nor may it change a PNG or SVG digest: an entry from before
            // contract 0.2.0 only gains its matrix and text digests.
            if old.is_older_form_of(got) {
                *old = got.clone();
            }
            rebless(old, got, png, svg);
            if too_long {
                rebless_too_long(old, got);
            }
            assert_eq!(old, got, "{id}: the golden output changed; bless only adds new cases");
        }
        expected.retain(|id, _| results.contains_key(id));
        let mut text = serde_json::to_string_pretty(&expected).unwrap();
        text.push('\n');
        std::fs::write(qrglue_vectors::dir().join("expected.json"), text).unwrap();
        return;
    }
    let expected = qrglue_vectors::expected();
    let mut failures = Vec::new();
    for (id, got) in &results {
        match expected.get(id) {
            None => failures.push(format!("{id}: no entry in expected.json")),
            Some(want) if want != got => failures.push(format!("{id}: expected {want:?}, got {got:?}")),
            Some(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} golden mismatches:\n{}", failures.len(), failures.join("\n"));
}

/// Which outputs `QRGLUE_BLESS` may re-bless: `1` none (add only), else a
/// comma-separated list of `png`, `svg` and `data-too-long` (that error's
/// messages); anything else is refused.
fn rebless_outputs(mode: &str) -> (bool, bool, bool) {
    if mode == "1" {
        return (false, false, false);
    }
    let (mut png, mut svg, mut too_long) = (false, false, false);
    for output in mode.split(',') {
        match output.trim() {
            "png" => png = true,
            "svg" => svg = true,
            "data-too-long" => too_long = true,
            other => panic!("QRGLUE_BLESS={mode}: {other:?} cannot be re-blessed (only png, svg and data-too-long; 1 adds new cases only)"),
        }
    }
    (png, svg, too_long)
}

/// Takes `got`'s message into `old` when both are `data-too-long` errors:
/// the kind stays, only its message may change.
fn rebless_too_long(old: &mut Outcome, got: &Outcome) {
    if let (Outcome::Error { error, message }, Outcome::Error { error: kind, message: new_message }) = (old, got)
        && error == "data-too-long"
        && kind == "data-too-long"
    {
        *message = new_message.clone();
    }
}

/// Takes `got`'s PNG (digest and size) and/or SVG digest into `old`; the
/// caller then requires the rest to be equal.
fn rebless(old: &mut Outcome, got: &Outcome, png: bool, svg: bool) {
    if let (
        Outcome::Image { png_bytes, png_sha256, svg_sha256, .. },
        Outcome::Image { png_bytes: new_bytes, png_sha256: new_png, svg_sha256: new_svg, .. },
    ) = (old, got)
    {
        if png {
            (*png_bytes, *png_sha256) = (*new_bytes, new_png.clone());
        }
        if svg {
            *svg_sha256 = new_svg.clone();
        }
    }
}

/// A payload that is a text's UTF-8, with the same options, is that text's
/// code: the corpus's `bytes-utf8-*` cases must equal a text case's entry,
/// so every path that passes both agrees that bytes and text meet.
#[test]
fn utf8_payloads_match_their_text_cases() {
    let cases = qrglue_vectors::cases();
    let expected = qrglue_vectors::expected();
    let mut matched = 0;
    for case in &cases {
        let Text::Bytes(data) = &case.text else { continue };
        let Ok(text) = std::str::from_utf8(data) else { continue };
        let twin =
            cases.iter().find(|other| other.text == Text::Utf8(text.to_owned()) && other.options == case.options && other.svg == case.svg);
        if let Some(twin) = twin {
            assert_eq!(expected[&case.id], expected[&twin.id], "{} vs {}", case.id, twin.id);
            matched += 1;
        }
    }
    assert!(matched >= 2, "only {matched} payloads have a text twin in the corpus");
}
