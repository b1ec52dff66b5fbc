//! The Rust conformance runner (tests/conformance/README.md): every case of
//! the corpus (`QRGLUE_VECTORS_DIR`, else tests/vectors) on the native,
//! component and raw paths, printed as one JSON object:
//! `{"paths": {"rust-native": {id: outcome}, "rust-component": ..., "rust-raw": ...}}`.
//!
//! `cargo run --profile host -q -p qrglue-conformance`

mod outcome;

use std::collections::BTreeMap;

use qrglue_host::Path;

fn main() {
    let cases = qrglue_vectors::cases();
    let mut paths = BTreeMap::new();
    for path in Path::ALL {
        let mut generator = qrglue_host::generator(path).unwrap_or_else(|e| {
            eprintln!("conformance: cannot start the {path} path: {e}");
            std::process::exit(2);
        });
        let outcomes: BTreeMap<&str, _> = cases
            .iter()
            .map(|case| (case.id.as_str(), outcome::outcome(generator.as_mut(), &case.text, &case.options, &case.svg)))
            .collect();
        paths.insert(format!("rust-{path}"), outcomes);
    }
    println!("{}", serde_json::json!({ "paths": paths }));
}
