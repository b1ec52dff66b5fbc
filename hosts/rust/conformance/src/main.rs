//! The Rust conformance runner (tests/conformance/README.md): every case of
//! the corpus (`QRGLUE_VECTORS_DIR`, else tests/vectors) on the native,
//! component and raw paths, and the raw glue on `qrglue.raw-nosimd.wasm`
//! (the build for engines without wasm SIMD), printed as one JSON object:
//! `{"paths": {"rust-native": {id: outcome}, "rust-component": ..., "rust-raw": ..., "rust-raw-nosimd": ...}}`.
//!
//! `cargo run --profile host -q -p qrglue-conformance`

mod outcome;

use std::collections::BTreeMap;

use qrglue_host::{Generator, Path, RawRuntime};

fn main() {
    let cases = qrglue_vectors::cases();
    let mut paths = BTreeMap::new();
    let exit = |what: &str, e: &dyn std::fmt::Display| -> ! {
        eprintln!("conformance: cannot start the {what} path: {e}");
        std::process::exit(2);
    };
    let mut generators: Vec<(String, Box<dyn Generator>)> = Vec::new();
    for path in Path::ALL {
        let generator = qrglue_host::generator(path).unwrap_or_else(|e| exit(path.as_str(), &e));
        generators.push((format!("rust-{path}"), generator));
    }
    // The same raw glue on the build without simd128, read at run time (the
    // library embeds only the SIMD build): it must give the SIMD build's bytes.
    let nosimd = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../target/wasm/qrglue.raw-nosimd.wasm");
    let wasm = std::fs::read(&nosimd).unwrap_or_else(|e| exit("raw-nosimd", &format!("{}: {e} (just build-wasm)", nosimd.display())));
    let runtime = RawRuntime::compile(qrglue_host::shared_engine(), &wasm).unwrap_or_else(|e| exit("raw-nosimd", &e));
    generators.push(("rust-raw-nosimd".into(), Box::new(runtime.instantiate().unwrap_or_else(|e| exit("raw-nosimd", &e)))));
    for (name, mut generator) in generators {
        let outcomes: BTreeMap<&str, _> = cases
            .iter()
            .map(|case| (case.id.as_str(), outcome::outcome(generator.as_mut(), &case.text, &case.options, &case.svg)))
            .collect();
        paths.insert(name, outcomes);
    }
    println!("{}", serde_json::json!({ "paths": paths }));
}
