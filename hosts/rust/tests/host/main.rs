//! Every test of the Rust host, in one binary (see Cargo.toml: one fat-LTO
//! link instead of one per file).
//!
//! - `wasm_files`: both guests validate, import nothing, export the contract,
//!   cap memory at 64 MiB.
//! - `contract`: target/contract.json equals what this host uses and does.
//! - `raw_abi`: the raw module survives hostile arguments and keeps working.
//! - `golden`: tests/vectors on all three paths, byte for byte.
//! - `errors`: every error kind on every path; traps recover; 4 threads x
//!   2,500 calls per path, all golden.
//! - `differential`: 1,000 seeded random inputs agree across the paths.
//! - `decode`: an independent reader (rqrr) reads the reference PNG back.
//! - `readback`: zxing-cpp shows every readable corpus text, and random texts
//!   from many scripts, as themselves.
//! - `cli`: the `qrglue` binary's acceptance check and its refusals.
//! - `hardening`: owned results, 100,000-call memory/RSS soak, hostile raw ABI calls.

mod cli;
mod contract;
mod decode;
mod differential;
mod errors;
mod golden;
mod hardening;
mod raw_abi;
mod readback;
mod vectors;
mod wasm_files;
