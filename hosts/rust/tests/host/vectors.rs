//! tests/vectors (cases.json, expected.json), read the way every host reads
//! them: options by WIT name, a missing option takes the default.

use std::path::PathBuf;

use qrglue_host::{EcLevel, Options};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

pub struct Case {
    pub id: String,
    pub text: String,
    pub options: Options,
}

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

fn read_json(name: &str) -> Value {
    let path = vectors_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn options(value: &Value) -> Options {
    let defaults = Options::default();
    let ec_level = match value.get("ec-level").and_then(Value::as_str) {
        None => defaults.ec_level,
        Some(name) => *EcLevel::ALL.iter().find(|level| level.as_str() == name).unwrap_or_else(|| panic!("unknown ec-level {name}")),
    };
    let number = |key: &str, default: u32| value.get(key).map_or(default, |v| u32::try_from(v.as_u64().expect("integer option")).expect("u32 option"));
    Options { ec_level, min_size: number("min-size", defaults.min_size), quiet_zone: number("quiet-zone", defaults.quiet_zone) }
}

pub fn cases() -> Vec<Case> {
    let cases = read_json("cases.json");
    let cases: Vec<Case> = cases["cases"]
        .as_array()
        .expect("cases.json: cases array")
        .iter()
        .map(|case| Case {
            id: case["id"].as_str().expect("case id").to_owned(),
            text: case["text"].as_str().expect("case text").to_owned(),
            options: options(&case["options"]),
        })
        .collect();
    assert!(cases.len() >= 30, "cases.json lost cases: {}", cases.len());
    cases
}

pub fn case(id: &str) -> Case {
    cases().into_iter().find(|case| case.id == id).unwrap_or_else(|| panic!("no case {id}"))
}

pub fn expected() -> Map<String, Value> {
    match read_json("expected.json") {
        Value::Object(map) => map,
        other => panic!("expected.json is not an object: {other}"),
    }
}

/// The golden PNG digest of a case that succeeds.
pub fn expected_png_sha256(id: &str) -> String {
    expected()[id]["png_sha256"].as_str().unwrap_or_else(|| panic!("{id} has no png_sha256")).to_owned()
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}
