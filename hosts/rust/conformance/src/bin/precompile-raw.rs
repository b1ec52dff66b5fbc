//! `qrglue-precompile-raw WASM CWASM`: compiles a raw module (normally
//! target/wasm/qrglue.raw.wasm) with the Rust host's engine settings
//! (`qrglue_host::engine_config`, wasmtime with Cranelift) and writes its
//! machine code to CWASM.
//!
//! For the fuzz crate's `raw_abi` target (fuzz/README.md): it loads that
//! code into a wasmtime built without Cranelift and without the component
//! model, so libFuzzer's instrumented build compiles only wasmtime's core
//! runtime. The one setting changed here, the component model's wasm feature
//! off, does not touch a core module's code; wasmtime refuses code compiled
//! with a feature the loading engine lacks, or by another version or other
//! settings, with a clear error, so the fuzz crate pins this workspace's
//! wasmtime and mirrors `engine_config`.

use std::process::ExitCode;

use qrglue_host::{Engine, RawRuntime, engine_config};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wasm, cwasm] = args.as_slice() else {
        eprintln!("usage: qrglue-precompile-raw WASM CWASM");
        return ExitCode::from(2);
    };
    let mut config = engine_config();
    config.wasm_component_model(false);
    let compiled = Engine::new(&config)
        .map_err(|e| format!("the engine: {e}"))
        .and_then(|engine| {
            let bytes = std::fs::read(wasm).map_err(|e| format!("{wasm}: {e}"))?;
            RawRuntime::compile(&engine, &bytes).map_err(|e| format!("{wasm}: {e}"))
        })
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
