//! The conformance corpus for Rust: reads `tests/vectors/cases.json` and
//! `expected.json` (written by `make_cases.py` and blessed from the core).
//!
//! JSON strings may hold lone surrogates (`"\ud800"`), which a Rust `String`
//! cannot: such a text decodes to [`Text::LoneSurrogate`], and every Rust path
//! answers it as a host does, with `invalid-text` before any guest call.

use std::collections::BTreeMap;
use std::path::PathBuf;

use qrglue_core::{EcLevel, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle};
use serde::Deserialize;
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};

/// The folder holding cases.json and expected.json: this crate's own, or
/// `QRGLUE_VECTORS_DIR` (used by `just fuzz` to run generated cases).
pub fn dir() -> PathBuf {
    std::env::var_os("QRGLUE_VECTORS_DIR").map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

/// A case's input as a Rust host receives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    Utf8(String),
    /// UTF-16 with an unpaired surrogate: not a text; `invalid-text`.
    LoneSurrogate,
    /// A binary payload (`data_hex`), for the `*_bytes` generators.
    Bytes(Vec<u8>),
}

#[derive(Debug, Clone)]
pub struct Case {
    pub id: String,
    pub text: Text,
    pub options: Options,
    /// The SVG calls' own options (`view-box-only`, `title`, `class` beside
    /// the others in the corpus; only the SVG digest depends on them).
    pub svg: SvgOptions,
    /// The options as written (WIT names; missing ones take defaults).
    pub options_json: serde_json::Map<String, serde_json::Value>,
}

/// What a path gives for a case, in expected.json's form.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(untagged)]
pub enum Outcome {
    // Fields in alphabetical order: the order expected.json has always had.
    // `matrix_sha256` and `text_sha256` came with contract 0.2.0: an entry
    // blessed before them has neither, and bless adds them (only them).
    Image {
        /// sha256 of the width as a little-endian u32, then the packed modules.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        matrix_sha256: Option<String>,
        png_bytes: usize,
        png_sha256: String,
        svg_sha256: String,
        /// Text style name (`half-blocks`) -> sha256 of that text's UTF-8.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text_sha256: Option<BTreeMap<String, String>>,
    },
    /// `message` is the error's text as the host shows it (`QrError`'s
    /// message): identical on every path, like the kind. (Empty only in an
    /// entry blessed before messages were compared; bless fills it in.)
    Error {
        error: String,
        #[serde(default)]
        message: String,
    },
}

impl Outcome {
    /// The outcome of a case every output rendered: `matrix` is the width and
    /// packed modules, `texts` the text in every style.
    pub fn image(png: &[u8], svg: &str, matrix: (u32, &[u8]), texts: &[(TextStyle, String)]) -> Outcome {
        let (width, modules) = matrix;
        Outcome::Image {
            matrix_sha256: Some(sha256_hex(&[&width.to_le_bytes()[..], modules].concat())),
            png_sha256: sha256_hex(png),
            png_bytes: png.len(),
            svg_sha256: sha256_hex(svg.as_bytes()),
            text_sha256: Some(texts.iter().map(|(style, text)| (style.as_str().to_owned(), sha256_hex(text.as_bytes()))).collect()),
        }
    }

    /// Whether `self` is `newer` blessed before contract 0.2.0: the same PNG
    /// and SVG, without the matrix and text digests (bless may add those).
    pub fn is_older_form_of(&self, newer: &Outcome) -> bool {
        match (self, newer) {
            (
                Outcome::Image { matrix_sha256: None, text_sha256: None, png_bytes, png_sha256, svg_sha256 },
                Outcome::Image { png_bytes: bytes, png_sha256: png, svg_sha256: svg, .. },
            ) => (png_bytes, png_sha256, svg_sha256) == (bytes, png, svg),
            _ => false,
        }
    }

    pub fn error(kind: &str, message: &str) -> Outcome {
        Outcome::Error { error: kind.to_owned(), message: message.to_owned() }
    }

    /// The outcome for a core error.
    pub fn from_error(error: &QrError) -> Outcome {
        Outcome::error(error.kind().as_str(), &error.to_string())
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[derive(Deserialize)]
struct File<'a> {
    #[serde(borrow)]
    cases: Vec<RawCase<'a>>,
}

#[derive(Deserialize)]
struct RawCase<'a> {
    id: String,
    #[serde(borrow)]
    text: Option<&'a RawValue>,
    #[serde(borrow)]
    text_repeat: Option<Repeat<'a>>,
    data_hex: Option<&'a str>,
    options: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct Repeat<'a> {
    #[serde(borrow)]
    unit: &'a RawValue,
    count: usize,
}

/// Every case in cases.json, in file order.
pub fn cases() -> Vec<Case> {
    let json = std::fs::read_to_string(dir().join("cases.json")).expect("tests/vectors/cases.json");
    let file: File = serde_json::from_str(&json).expect("cases.json parses");
    file.cases
        .into_iter()
        .map(|raw| {
            let text = match (raw.text, raw.text_repeat, raw.data_hex) {
                (Some(text), None, None) => json_string(text),
                (None, Some(repeat), None) => match json_string(repeat.unit) {
                    Text::Utf8(unit) => Text::Utf8(unit.repeat(repeat.count)),
                    Text::LoneSurrogate => Text::LoneSurrogate,
                    Text::Bytes(_) => unreachable!("a JSON string is a text"),
                },
                (None, None, Some(hex)) => Text::Bytes(from_hex(hex).unwrap_or_else(|| panic!("case {}: data_hex is not hex", raw.id))),
                _ => panic!("case {}: exactly one of text, text_repeat, data_hex", raw.id),
            };
            Case { options: options(&raw.options), svg: svg_options(&raw.options), options_json: raw.options, id: raw.id, text }
        })
        .collect()
}

/// expected.json: case id -> outcome.
pub fn expected() -> BTreeMap<String, Outcome> {
    let json = std::fs::read_to_string(dir().join("expected.json")).expect("tests/vectors/expected.json");
    serde_json::from_str(&json).expect("expected.json parses")
}

/// expected.json, or nothing if it does not exist yet (bless of a new corpus).
pub fn expected_or_empty() -> BTreeMap<String, Outcome> {
    if dir().join("expected.json").exists() { expected() } else { BTreeMap::new() }
}

/// Options from WIT names, defaults for missing ones. Numbers are u32 in the
/// corpus, colours CSS hex strings (as hosts take them), micro and boost-ec
/// booleans; the symbol fields sit beside the others (as hosts take them),
/// not in a nested record. Anything else is a corpus bug.
fn options(map: &serde_json::Map<String, serde_json::Value>) -> Options {
    let defaults = Options::default();
    let number =
        |key: &str, default: u32| map.get(key).map_or(default, |v| u32::try_from(v.as_u64().expect("integer option")).expect("u32 option"));
    let ec_level = match map.get("ec-level") {
        None => defaults.ec_level,
        Some(name) => *EcLevel::ALL.iter().find(|l| Some(l.as_str()) == name.as_str()).expect("known ec-level"),
    };
    let flag = |key: &str| map.get(key).is_some_and(|v| v.as_bool().expect("a boolean option"));
    let color = |key: &str, default: Rgba| {
        map.get(key).map_or(default, |v| Rgba::from_hex(v.as_str().expect("a colour string")).expect("a #rgb[a] / #rrggbb[aa] colour"))
    };
    Options {
        ec_level,
        min_size: number("min-size", defaults.min_size),
        quiet_zone: number("quiet-zone", defaults.quiet_zone),
        scale: map.contains_key("scale").then(|| number("scale", 0)),
        dark: color("dark", defaults.dark),
        light: color("light", defaults.light),
        symbol: Symbol {
            micro: flag("micro"),
            version: map.contains_key("version").then(|| number("version", 0)),
            min_version: map.contains_key("min-version").then(|| number("min-version", 0)),
            mask: map.contains_key("mask").then(|| number("mask", 0)),
            boost_ec: flag("boost-ec"),
            eci: flag("eci"),
        },
    }
}

/// The SVG options from their WIT names; missing ones take the defaults.
fn svg_options(map: &serde_json::Map<String, serde_json::Value>) -> SvgOptions {
    let string = |key: &str| map.get(key).map(|v| v.as_str().expect("a string option").to_owned());
    SvgOptions {
        view_box_only: map.get("view-box-only").is_some_and(|v| v.as_bool().expect("a boolean option")),
        title: string("title"),
        class: string("class"),
    }
}

/// Lower-case or upper-case hex, two digits a byte; `None` if it is not.
fn from_hex(hex: &str) -> Option<Vec<u8>> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok()).collect()
}

/// Decodes a JSON string literal as JavaScript and Python do: to UTF-16
/// units, then to UTF-8 if every surrogate is paired.
fn json_string(raw: &RawValue) -> Text {
    let literal = raw.get();
    let body = literal.strip_prefix('"').and_then(|s| s.strip_suffix('"')).expect("a JSON string");
    let mut units: Vec<u16> = Vec::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            let mut buf = [0u16; 2];
            units.extend_from_slice(c.encode_utf16(&mut buf));
            continue;
        }
        let unit = match chars.next().expect("escape") {
            '"' => '"' as u16,
            '\\' => '\\' as u16,
            '/' => '/' as u16,
            'b' => 0x08,
            'f' => 0x0c,
            'n' => '\n' as u16,
            'r' => '\r' as u16,
            't' => '\t' as u16,
            'u' => {
                let hex: String = chars.by_ref().take(4).collect();
                u16::from_str_radix(&hex, 16).expect("\\u escape")
            }
            other => panic!("bad JSON escape \\{other}"),
        };
        units.push(unit);
    }
    match String::from_utf16(&units) {
        Ok(text) => Text::Utf8(text),
        Err(_) => Text::LoneSurrogate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(literal: &str) -> Text {
        json_string(&RawValue::from_string(literal.to_owned()).unwrap())
    }

    #[test]
    fn decodes_escapes_pairs_and_lone_surrogates() {
        assert_eq!(decode(r#""a\"\\\/\n\u00e9\ud83e\udd80""#), Text::Utf8("a\"\\/\né🦀".into()));
        assert_eq!(decode(r#""\ud800""#), Text::LoneSurrogate);
        assert_eq!(decode(r#""abc\udfff""#), Text::LoneSurrogate);
        assert_eq!(decode(r#""\udc00\ud800""#), Text::LoneSurrogate);
        assert_eq!(decode("\"二\""), Text::Utf8("二".into()));
    }

    #[test]
    fn the_corpus_loads_with_unique_ids_and_an_expectation_each() {
        let cases = cases();
        let expected = expected();
        assert!(cases.len() >= 150, "{} cases", cases.len());
        let mut ids = std::collections::BTreeSet::new();
        for case in &cases {
            assert!(ids.insert(case.id.clone()), "duplicate id {}", case.id);
            assert!(expected.contains_key(&case.id), "{} has no expectation", case.id);
        }
        assert_eq!(ids.len(), expected.len(), "expected.json has entries for unknown ids");
    }
}
