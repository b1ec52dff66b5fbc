//! Points `include_bytes!` at the two guests the justfile builds
//! (target/wasm/qrglue.component.wasm and target/wasm/qrglue.raw.wasm), so
//! the library and the `qrglue` binary carry them and need no files at run
//! time. Rebuilds this crate whenever a guest changes.

use std::path::PathBuf;

fn main() {
    let wasm_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../../target/wasm");
    for (env_name, file) in [("QRGLUE_COMPONENT_WASM", "qrglue.component.wasm"), ("QRGLUE_RAW_WASM", "qrglue.raw.wasm")] {
        let path = wasm_dir.join(file);
        println!("cargo:rerun-if-changed={}", path.display());
        let Ok(path) = path.canonicalize() else {
            panic!("{} is missing: run `just build-wasm` first (the Rust host embeds both guests)", path.display());
        };
        println!("cargo:rustc-env={env_name}={}", path.display());
    }
}
