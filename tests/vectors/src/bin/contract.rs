//! Writes the contract file (`qrglue_core::contract::to_json`) that every
//! host's tests compare their own constants with:
//! `cargo run --release -p qrglue-vectors --bin contract -- target/contract.json`
//! (`just contract`, run by `just build`). Rewrites the file only when its
//! bytes change, so a rebuild does not touch its mtime.

fn main() {
    let path = std::env::args_os().nth(1).expect("usage: contract OUT.json");
    let json = qrglue_core::contract::to_json();
    // Parse it once: a contract that is not valid JSON must fail the build.
    serde_json::from_str::<serde_json::Value>(&json).expect("the contract is valid JSON");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(json.as_str()) {
        std::fs::write(&path, json).expect("write the contract file");
    }
}
