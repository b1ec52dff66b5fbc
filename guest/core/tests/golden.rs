//! Golden vectors: tests/vectors/cases.json rendered by the core must match
//! the digests (or error kinds) in tests/vectors/expected.json, byte for byte.
//! Every other path is checked against the same file.
//!
//! `QRGLUE_BLESS=1 cargo test -p qrglue-core --test golden` writes
//! expected.json from the core's current output: only for new cases. A diff
//! in an existing entry means the golden output changed, which the project
//! forbids (git diff tests/vectors must stay empty).

use std::path::PathBuf;

use qrglue_core::{EcLevel, Options};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

fn options(value: &Value) -> Options {
    let defaults = Options::default();
    let ec_level = match value.get("ec-level").and_then(Value::as_str) {
        None => defaults.ec_level,
        Some(name) => *EcLevel::ALL.iter().find(|l| l.as_str() == name).expect("known ec-level"),
    };
    let number = |key: &str, default: u32| value.get(key).map_or(default, |v| v.as_u64().expect("u32 option") as u32);
    Options {
        ec_level,
        min_size: number("min-size", defaults.min_size),
        quiet_zone: number("quiet-zone", defaults.quiet_zone),
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// What the core gives for one case, in expected.json's form.
fn outcome(text: &str, options: &Options) -> Value {
    match (qrglue_core::png(text, options), qrglue_core::svg(text, options)) {
        (Ok(png), Ok(svg)) => json!({ "png_sha256": sha256_hex(&png), "png_bytes": png.len(), "svg_sha256": sha256_hex(svg.as_bytes()) }),
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "png and svg must fail the same way");
            json!({ "error": a.kind().as_str() })
        }
        (png, svg) => panic!("png and svg disagree: {:?} vs {:?}", png.map(|_| ()), svg.map(|_| ())),
    }
}

#[test]
fn golden_vectors_match() {
    let cases: Value = serde_json::from_str(&std::fs::read_to_string(vectors_dir().join("cases.json")).unwrap()).unwrap();
    let cases = cases["cases"].as_array().expect("cases array");
    let expected_path = vectors_dir().join("expected.json");
    let mut results = Map::new();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let Some(text) = case["text"].as_str() else { continue };
        results.insert(id.to_owned(), outcome(text, &options(&case["options"])));
    }
    assert!(results.len() >= 10, "cases.json lost its cases");

    if std::env::var_os("QRGLUE_BLESS").is_some() {
        let mut text = serde_json::to_string_pretty(&Value::Object(results)).unwrap();
        text.push('\n');
        std::fs::write(&expected_path, text).unwrap();
        return;
    }
    let expected: Map<String, Value> = serde_json::from_str(&std::fs::read_to_string(&expected_path).unwrap()).unwrap();
    let mut failures = Vec::new();
    for (id, got) in &results {
        match expected.get(id) {
            None => failures.push(format!("{id}: no entry in expected.json")),
            Some(want) if want != got => failures.push(format!("{id}: expected {want}, got {got}")),
            Some(_) => {}
        }
    }
    assert!(failures.is_empty(), "{} golden mismatches:\n{}", failures.len(), failures.join("\n"));
}
