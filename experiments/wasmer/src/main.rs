//! The engine table's Wasmer runner (tests/bench/engines.py): qrglue's raw
//! module on Wasmer 7.4.2, with its Cranelift or Singlepass back end.
//!
//! - `probe COMPILER MODULE TEXT`: one fresh-process sample: load (compile +
//!   instantiate), then the first png; prints `{"load_ms", "first_ms", "sha256"}`.
//! - `bench COMPILER MODULE TEXT ROUNDS`: png, png-repeat (per png) and noop in
//!   this process, interleaved rounds; prints one JSON list of medians.
//! - `conformance COMPILER MODULE`: every case of tests/vectors on this engine
//!   (png, svg, matrix, the three texts, or the one error), against
//!   expected.json; exits 1 on any difference.
//!
//! The glue follows guest/raw/ABI.md as hosts/rust/src/raw.rs does, on
//! Wasmer's API instead of Wasmtime's: the option words are the core's
//! (`qrglue_core::flat::words`, what raw.rs and hosts/c use), the SVG flags
//! the contract's constants.

use std::time::Instant;

use qrglue_core::contract::{RAW_ABI_VERSION, RAW_RECORD_BYTES, RAW_SVG_HAS_CLASS, RAW_SVG_HAS_TITLE, RAW_SVG_VIEW_BOX_ONLY};
use qrglue_core::flat;
use qrglue_core::{ErrorKind, MAX_TEXT_BYTES, Options, QrError, SvgOptions, TextStyle};
use qrglue_vectors::{Outcome, Text, sha256_hex};
use wasmer::{Engine, Function, Instance, Memory, Module, Store, TypedFunction, Value, imports};

type Failure = String;

/// A call's result: the payload, a contract error, or a failure of the engine or the glue.
enum Answer {
    Ok(Vec<u8>),
    Refused(QrError),
}

fn engine(compiler: &str) -> Result<Engine, Failure> {
    match compiler {
        "cranelift" => Ok(wasmer::sys::Cranelift::default().into()),
        "singlepass" => Ok(wasmer::sys::Singlepass::default().into()),
        other => Err(format!("unknown compiler {other:?} (cranelift or singlepass)")),
    }
}

struct Raw {
    store: Store,
    memory: Memory,
    alloc: TypedFunction<u32, u32>,
    free: TypedFunction<u32, u32>,
    noop: TypedFunction<(), ()>,
    instance: Instance,
}

impl Raw {
    fn load(compiler: &str, wasm: &[u8]) -> Result<Raw, Failure> {
        let mut store = Store::new(engine(compiler)?);
        let module = Module::new(&store, wasm).map_err(|e| format!("compile: {e}"))?;
        let instance = Instance::new(&mut store, &module, &imports! {}).map_err(|e| format!("instantiate: {e}"))?;
        let typed = |name: &str| format!("export {name}");
        let memory = instance.exports.get_memory("memory").map_err(|_| typed("memory"))?.clone();
        let alloc = instance.exports.get_typed_function(&store, "qr_alloc").map_err(|_| typed("qr_alloc"))?;
        let free = instance.exports.get_typed_function(&store, "qr_free").map_err(|_| typed("qr_free"))?;
        let noop = instance.exports.get_typed_function(&store, "qr_noop").map_err(|_| typed("qr_noop"))?;
        let version: TypedFunction<(), u32> =
            instance.exports.get_typed_function(&store, "qr_abi_version").map_err(|_| typed("qr_abi_version"))?;
        let version = version.call(&mut store).map_err(|e| e.to_string())?;
        if version != RAW_ABI_VERSION {
            return Err(format!("the module speaks ABI version {version}, this glue {RAW_ABI_VERSION}"));
        }
        Ok(Raw { store, memory, alloc, free, noop, instance })
    }

    /// A fresh guest buffer holding `bytes` ((0, 0) for none); the next call owns it.
    fn lower(&mut self, bytes: &[u8]) -> Result<(u32, u32), Failure> {
        if bytes.is_empty() {
            return Ok((0, 0));
        }
        let len = u32::try_from(bytes.len()).map_err(|_| "input over 4 GiB".to_owned())?;
        let ptr = self.alloc.call(&mut self.store, len).map_err(|e| e.to_string())?;
        if ptr == 0 {
            return Err(format!("qr_alloc({len}) failed"));
        }
        self.memory.view(&self.store).write(u64::from(ptr), bytes).map_err(|e| e.to_string())?;
        Ok((ptr, len))
    }

    /// Calls a generating export with `(ptr, len)` of `data`, the option words and `extra`; reads and frees the record.
    fn call(&mut self, export: &str, data: &[u8], options: [u32; 11], extra: &[u32]) -> Result<Answer, Failure> {
        let (ptr, len) = self.lower(data)?;
        let args: Vec<Value> = [ptr, len].iter().chain(&options).chain(extra).map(|&w| Value::I32(w as i32)).collect();
        let func: &Function = self.instance.exports.get_function(export).map_err(|e| e.to_string())?;
        let record = match func.call(&mut self.store, &args).map_err(|e| format!("{export}: {e}"))?.first() {
            Some(Value::I32(r)) => *r as u32,
            other => return Err(format!("{export} returned {other:?}")),
        };
        // The view borrows the store: read the record and its payload, then let it go before qr_free.
        let (status, payload) = {
            let view = self.memory.view(&self.store);
            let mut fields = [0u8; RAW_RECORD_BYTES as usize];
            view.read(u64::from(record), &mut fields).map_err(|e| e.to_string())?;
            let field = |i: usize| u32::from_le_bytes(fields[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
            let (status, payload_ptr, payload_len) = (field(0), field(1), field(2));
            let mut payload = vec![0u8; payload_len as usize];
            view.read(u64::from(payload_ptr), &mut payload).map_err(|e| e.to_string())?;
            (status, payload)
        };
        let freed = self.free.call(&mut self.store, record).map_err(|e| e.to_string())?;
        if freed != 0 {
            return Err(format!("qr_free({record:#x}) returned {freed}"));
        }
        if status == 0 {
            return Ok(Answer::Ok(payload));
        }
        let message = || String::from_utf8_lossy(&payload).into_owned();
        Ok(Answer::Refused(match ErrorKind::from_code(status) {
            Some(ErrorKind::EmptyText) => QrError::EmptyText,
            Some(ErrorKind::InvalidText) => QrError::InvalidText(message()),
            Some(ErrorKind::DataTooLong) => QrError::DataTooLong(message()),
            Some(ErrorKind::InvalidOptions) => QrError::InvalidOptions(message()),
            None => return Err(format!("unknown status {status}")),
        }))
    }

    fn png(&mut self, text: &str) -> Result<Vec<u8>, Failure> {
        match self.call("qr_png", text.as_bytes(), flat::words(&Options::default()), &[])? {
            Answer::Ok(png) => Ok(png),
            Answer::Refused(e) => Err(e.to_string()),
        }
    }
}

/// One case on this engine, in expected.json's form (hosts/rust/conformance/src/outcome.rs's rules:
/// the host's own refusals first, then every output, or the one error they all gave).
fn outcome(raw: &mut Raw, text: &Text, options: &Options, svg: &SvgOptions) -> Result<Outcome, Failure> {
    let (bytes, payload): (&[u8], bool) = match text {
        Text::Utf8(t) => (t.as_bytes(), false),
        // WTF-8 of U+D800, as the Rust host's runner passes it: the guest refuses it.
        Text::LoneSurrogate => (b"\xed\xa0\x80", false),
        Text::Bytes(d) => (d.as_slice(), true),
    };
    // The host's refusals before any guest call (hosts/rust/src/lib.rs): an over-long input, then over-long SVG strings.
    if bytes.len() > MAX_TEXT_BYTES {
        if !payload && let Err(e) = qrglue_core::text_from_utf8(bytes) {
            return Ok(Outcome::from_error(&e));
        }
        return Ok(Outcome::from_error(&QrError::over_max_text_bytes()));
    }
    let o = flat::words(options);
    let suffix = if payload { "_bytes" } else { "" };
    let mut results = vec![raw.call(&format!("qr_png{suffix}"), bytes, o, &[])?];
    let over = [("title", &svg.title, qrglue_core::MAX_SVG_TITLE_BYTES), ("class", &svg.class, qrglue_core::MAX_SVG_CLASS_BYTES)]
        .into_iter()
        .find_map(|(name, v, max)| v.as_ref().filter(|v| v.len() > max as usize).map(|v| (name, max, v.len())));
    results.push(match over {
        Some((name, max, len)) => {
            if !payload && let Err(e) = qrglue_core::text_from_utf8(bytes) {
                Answer::Refused(e)
            } else {
                Answer::Refused(QrError::InvalidOptions(qrglue_core::contract::too_long(name, max, len)))
            }
        }
        None => {
            let bit = |on: bool, flag: u32| if on { flag } else { 0 };
            let flags = bit(svg.view_box_only, RAW_SVG_VIEW_BOX_ONLY)
                | bit(svg.title.is_some(), RAW_SVG_HAS_TITLE)
                | bit(svg.class.is_some(), RAW_SVG_HAS_CLASS);
            let title = svg.title.as_deref().unwrap_or("");
            let strings = [title, svg.class.as_deref().unwrap_or("")].concat().into_bytes();
            let (sptr, slen) = raw.lower(&strings)?;
            raw.call(&format!("qr_svg{suffix}"), bytes, o, &[flags, title.len() as u32, sptr, slen])?
        }
    });
    results.push(raw.call(&format!("qr_matrix{suffix}"), bytes, o, &[])?);
    for style in TextStyle::ALL {
        results.push(raw.call(&format!("qr_text{suffix}"), bytes, o, &[style.index()])?);
    }
    let mut oks = Vec::new();
    let mut errors = Vec::new();
    for r in results {
        match r {
            Answer::Ok(p) => oks.push(p),
            Answer::Refused(e) => errors.push(e),
        }
    }
    if errors.is_empty() {
        let (width, modules) = oks[2].split_at(4);
        let width = u32::from_le_bytes(width.try_into().expect("4 bytes"));
        let texts: Vec<(TextStyle, String)> = TextStyle::ALL
            .into_iter()
            .zip(&oks[3..])
            .map(|(s, t)| (s, String::from_utf8(t.clone()).expect("text output is UTF-8")))
            .collect();
        let svg = String::from_utf8(oks[1].clone()).map_err(|e| e.to_string())?;
        return Ok(Outcome::image(&oks[0], &svg, (width, modules), &texts));
    }
    if oks.is_empty() && errors.iter().all(|e| e == &errors[0]) {
        return Ok(Outcome::from_error(&errors[0]));
    }
    Ok(Outcome::error("outputs-disagree", ""))
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn run(args: &[String]) -> Result<(), Failure> {
    let usage = "usage: probe|bench|conformance COMPILER MODULE [TEXT [ROUNDS]]";
    let (mode, compiler, module) = match args {
        [mode, compiler, module, ..] => (mode.as_str(), compiler.as_str(), module.as_str()),
        _ => return Err(usage.to_owned()),
    };
    let wasm = std::fs::read(module).map_err(|e| format!("{module}: {e}"))?;
    match (mode, &args[3..]) {
        ("probe", [text]) => {
            let start = Instant::now();
            let mut raw = Raw::load(compiler, &wasm)?;
            let load = ms(start);
            let first = Instant::now();
            let png = raw.png(text)?;
            println!("{}", serde_json::json!({"load_ms": load, "first_ms": ms(first), "sha256": sha256_hex(&png)}));
        }
        ("bench", [text, rounds]) => {
            let rounds: usize = rounds.parse().map_err(|_| usage.to_owned())?;
            let mut raw = Raw::load(compiler, &wasm)?;
            let o = flat::words(&Options::default());
            let ops = ["png", "png-repeat", "noop"];
            let mut samples: Vec<Vec<f64>> = vec![Vec::new(); ops.len()];
            let mut digest = String::new();
            for round in 0..=rounds {
                for (i, op) in ops.iter().enumerate() {
                    let start = Instant::now();
                    let per = match *op {
                        "png" => {
                            digest = sha256_hex(&raw.png(text)?);
                            1.0
                        }
                        "png-repeat" => {
                            raw.call("qr_png_repeat", text.as_bytes(), o, &[5])?;
                            5.0
                        }
                        _ => {
                            for _ in 0..100 {
                                raw.noop.call(&mut raw.store).map_err(|e| e.to_string())?;
                            }
                            100.0
                        }
                    };
                    if round > 0 {
                        // Round 0 warms up (Singlepass and Cranelift compile ahead: it is the caches' round).
                        samples[i].push(start.elapsed().as_nanos() as f64 / per);
                    }
                }
            }
            let rows: Vec<_> = ops
                .iter()
                .zip(samples)
                .map(|(op, mut v)| {
                    v.sort_by(f64::total_cmp);
                    let n = v.len();
                    serde_json::json!({"op": op, "median_ns": v[n / 2], "p10_ns": v[n / 10], "p90_ns": v[(n * 9) / 10],
                                       "samples": n, "sha256": if *op == "png" { Some(&digest) } else { None }})
                })
                .collect();
            println!("{}", serde_json::Value::Array(rows));
        }
        ("conformance", []) => {
            let expected = qrglue_vectors::expected();
            let mut raw = Raw::load(compiler, &wasm)?;
            let (mut same, mut differ) = (0, 0);
            for case in qrglue_vectors::cases() {
                let got = outcome(&mut raw, &case.text, &case.options, &case.svg)?;
                if expected.get(&case.id) == Some(&got) {
                    same += 1;
                } else {
                    differ += 1;
                    eprintln!("{}: expected {:?}, got {got:?}", case.id, expected.get(&case.id));
                }
            }
            println!("wasmer-{compiler} {module}: {same} passed, {differ} failed");
            if differ > 0 {
                return Err(format!("{differ} cases differ from expected.json"));
            }
        }
        _ => return Err(usage.to_owned()),
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Err(e) = run(&args) {
        eprintln!("qrglue-engine-wasmer: {e}");
        std::process::exit(1);
    }
}
