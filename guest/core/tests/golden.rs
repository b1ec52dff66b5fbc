//! Golden vectors: every case in tests/vectors/cases.json rendered by the core
//! must match tests/vectors/expected.json (sha256 of PNG and SVG, or the error
//! kind and message), byte for byte. Every other path is checked against the same file.
//!
//! `QRGLUE_BLESS=1 cargo test --release -p qrglue-core --test golden` writes
//! expected.json from the core's current output: for new cases only. A change
//! in an existing entry means the golden output changed, which the project
//! forbids (`git diff tests/vectors/expected.json` may only add lines).

use std::collections::BTreeMap;

use qrglue_vectors::{Outcome, Text};

/// What the core gives for one case. A lone surrogate never reaches the core:
/// like every host, the Rust side rejects it while decoding the input.
fn outcome(case: &qrglue_vectors::Case) -> Outcome {
    let Text::Utf8(text) = &case.text else {
        return Outcome::error("invalid-text", qrglue_core::contract::LONE_SURROGATE_MESSAGE);
    };
    match (qrglue_core::png(text, &case.options), qrglue_core::svg(text, &case.options)) {
        (Ok(png), Ok(svg)) => Outcome::image(&png, &svg),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{}: png and svg must fail the same way", case.id);
            Outcome::from_error(&a)
        }
        (png, svg) => panic!("{}: png and svg disagree: {:?} vs {:?}", case.id, png.map(|_| ()), svg.map(|_| ())),
    }
}

#[test]
fn golden_vectors_match() {
    let cases = qrglue_vectors::cases();
    let results: BTreeMap<String, Outcome> = cases.iter().map(|case| (case.id.clone(), outcome(case))).collect();

    if std::env::var_os("QRGLUE_BLESS").is_some() {
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
