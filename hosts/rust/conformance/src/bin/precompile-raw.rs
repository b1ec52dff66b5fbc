//! `qrglue-precompile-raw WASM CWASM`: compiles a raw module (normally
//! target/wasm/qrglue.raw.wasm) with the Rust host's engine
//! (`qrglue_host::shared_engine`, wasmtime with Cranelift) and writes its
//! machine code to CWASM.
//!
//! For the fuzz crate's `raw_abi` target (fuzz/README.md): it loads that
//! code into a wasmtime built without Cranelift, so libFuzzer's instrumented
//! build compiles only wasmtime's runtime, not its compiler. wasmtime refuses
//! (with a clear error) code from another version or an engine whose settings
//! differ, so the fuzz crate pins this workspace's wasmtime and mirrors
//! `qrglue_host::engine_config`.

use std::process::ExitCode;

use qrglue_host::{RawRuntime, shared_engine};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, cwasm] = args.as_slice() else {
        eprintln!("usage: qrglue-precompile-raw WASM CWASM");
        return ExitCode::from(2);
    };
    let compiled = std::fs::read(wasm)
        .map_err(|e| format!("{wasm}: {e}"))
        .and_then(|bytes| RawRuntime::compile(shared_engine(), &bytes).map_err(|e| format!("{wasm}: {e}")))
        .and_then(|runtime| runtime.serialize().map_err(|e| format!("{wasm}: {e}")));
    // Written beside and renamed: a fuzzing process never maps a half-written file.
    let written = compiled.and_then(|code| {
        let partial = format!("{cwasm}.partial");
        std::fs::write(&partial, code).and_then(|()| std::fs::rename(&partial, cwasm)).map_err(|e| format!("{cwasm}: {e}"))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("qrglue-precompile-raw: {message}");
            ExitCode::FAILURE
        }
    }
}
