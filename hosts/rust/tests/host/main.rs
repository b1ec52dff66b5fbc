//! Every test of the Rust host, in one binary (see Cargo.toml: one link
//! instead of one per file). The files are named by concern, the same names
//! in every host (hosts/node/tests, hosts/python/tests): golden, errors,
//! agreement, traps, limits, concurrency, contract, readback, decode (the
//! CLI's, `cli`, live with it in hosts/rust/cli/tests);
//! per-path files only for what one path has (raw_abi, wasm_files). Every
//! concern iterates the one path table, `paths`.
//!
//! - `golden`: tests/vectors on every path, byte for byte.
//! - `errors`: every error kind on every path, its message, the probes.
//! - `agreement`: 1,000 seeded random inputs agree across the paths.
//! - `traps`: a trap is an error for that call; the next call is golden.
//! - `limits`: guest memory bounded; 100,000 calls keep memory and RSS flat.
//! - `concurrency`: 4 threads x 2,500 calls per path, all golden.
//! - `ownership`: a result is unchanged by later calls.
//! - `contract`: target/contract.json equals what this host uses and does.
//! - `readback`: zxing-cpp shows every readable corpus text, and random texts
//!   from many scripts, as themselves; `decode`: rqrr reads the reference PNG.
//! - `raw_abi`: the raw module survives hostile and random arguments.
//! - `wasm_files`: the guests validate, import nothing, export the contract,
//!   cap memory at 64 MiB; the shared engine has no concurrency support.
//! - helpers: `paths` (the path table), `corpus` (tests/vectors).

mod agreement;
mod concurrency;
mod contract;
mod corpus;
mod decode;
mod errors;
mod golden;
mod limits;
mod ownership;
mod paths;
mod raw_abi;
mod readback;
mod traps;
mod wasm_files;
