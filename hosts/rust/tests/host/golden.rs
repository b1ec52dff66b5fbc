//! tests/vectors/expected.json on all three paths: the same PNG, SVG, matrix and text
//! digests, or the same error kind and message, for every case (the
//! conformance runner's judgement, shared with it).

use qrglue_host::Path;

#[path = "../../conformance/src/outcome.rs"]
mod outcome;

#[test]
fn golden_vectors_on_every_path() {
    let cases = qrglue_vectors::cases();
    let expected = qrglue_vectors::expected();
    assert!(cases.len() >= 30 && cases.len() == expected.len(), "{} cases, {} expectations", cases.len(), expected.len());
    let mut failures = Vec::new();
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).expect("generator");
        for case in &cases {
            let got = outcome::outcome(generator.as_mut(), &case.text, &case.options, &case.svg);
            let want = expected.get(&case.id).unwrap_or_else(|| panic!("{} missing from expected.json", case.id));
            if &got != want {
                failures.push(format!("{path} {}: expected {want:?}, got {got:?}", case.id));
            }
        }
    }
    assert!(failures.is_empty(), "{} golden mismatches:\n{}", failures.len(), failures.join("\n"));
}
