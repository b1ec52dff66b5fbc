//! What each bridge costs, from Rust: native vs component vs raw, in one
//! process, interleaved in rounds after a warm-up.
//!
//! `cargo bench --profile host --bench bridges` (or `just bench-rust`) prints
//! a table and writes target/bench/rust.json in the cross-host schema (see the
//! repo's bench notes). `QRGLUE_BENCH_QUICK=1` runs a few-second smoke version.
//!
//! Method: every (op, path) pair is one series. A sample is a batch of calls
//! timed together, sized in the warm-up to last about `batch_ms`, and
//! reported per call. Rounds, batch time, payload sizes and the rest come from
//! tests/bench/settings.json, as in every host's bench. Each round takes one sample of every series, rotating
//! the order of the paths, so drift in the machine (other processes, clock
//! changes) spreads over all paths alike. We report median, p10 and p90.
//! Cold start (new Engine + compile or deserialize + instantiate + first png)
//! is one call per sample, also interleaved across paths.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use qrglue_host::{ComponentRuntime, Engine, Generator, Options, Path, RawRuntime};
use serde_json::json;

const REFERENCE_TEXT_IDS: [&str; 10] = ["ref-01", "ref-02", "ref-03", "ref-04", "ref-05", "ref-06", "ref-07", "ref-08", "ref-09", "ref-10"];
/// tests/bench/settings.json for this host and mode (full or quick).
struct Settings {
    rounds: usize,
    batch_target: Duration,
    cold_rounds: usize,
    /// PNGs per `png-repeat` call: enough that the one crossing is a small share.
    png_repeat_times: u32,
    payload_sizes: Vec<usize>,
}

impl Settings {
    fn load(quick: bool) -> Settings {
        let file = repo_dir().join("tests/bench/settings.json");
        let all: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&file).expect("tests/bench/settings.json")).unwrap();
        let mode = if quick { "quick" } else { "full" };
        let value = |key: &str| all["hosts"]["rust"][mode].get(key).unwrap_or(&all[mode][key]).clone();
        let number = |key: &str| value(key).as_f64().unwrap_or_else(|| panic!("settings.json: {mode}.{key} is not a number"));
        Settings {
            rounds: number("rounds") as usize,
            batch_target: Duration::from_secs_f64(number("batch_ms") / 1000.0),
            cold_rounds: number("cold_start_samples") as usize,
            png_repeat_times: number("png_repeat_times") as u32,
            payload_sizes: serde_json::from_value(value("payload_sizes")).expect("payload_sizes: a list of sizes"),
        }
    }
}

/// One measured operation, the same on every path.
#[derive(Clone)]
enum Op {
    Png { text_id: &'static str, text: String },
    PngRepeat { text_id: &'static str, text: String, times: u32 },
    Noop,
    Consume { data: Vec<u8> },
    Produce { len: u32 },
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Png { .. } => "png",
            Op::PngRepeat { .. } => "png-repeat",
            Op::Noop => "noop",
            Op::Consume { .. } => "consume",
            Op::Produce { .. } => "produce",
        }
    }

    fn text_id(&self) -> Option<&'static str> {
        match self {
            Op::Png { text_id, .. } | Op::PngRepeat { text_id, .. } => Some(text_id),
            _ => None,
        }
    }

    fn payload_bytes(&self) -> Option<usize> {
        match self {
            Op::Consume { data } => Some(data.len()),
            Op::Produce { len } => Some(*len as usize),
            _ => None,
        }
    }

    /// Calls done by one `run` (png-repeat renders many PNGs in one call).
    fn units_per_call(&self) -> u32 {
        if let Op::PngRepeat { times, .. } = self { *times } else { 1 }
    }

    /// One call; returns the output bytes where there are some (checked,
    /// and reported as size and digest).
    fn run(&self, generator: &mut dyn Generator) -> Option<Vec<u8>> {
        let options = Options::default();
        match self {
            Op::Png { text, .. } => Some(generator.png(black_box(text), &options).expect("png")),
            Op::PngRepeat { text, times, .. } => {
                let len = generator.png_repeat(black_box(text), &options, *times).expect("png-repeat");
                black_box(len);
                None
            }
            Op::Noop => {
                generator.noop().expect("noop");
                None
            }
            Op::Consume { data } => {
                assert_eq!(generator.consume(black_box(data)).expect("consume"), data.len() as u32);
                None
            }
            Op::Produce { len } => Some(generator.produce(black_box(*len)).expect("produce")),
        }
    }
}

struct Series {
    op: Op,
    path: Path,
    generator_index: usize,
    calls_per_sample: u32,
    samples_ns: Vec<f64>,
    output: Option<Vec<u8>>,
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    let position = q * (sorted.len() - 1) as f64;
    let (low, high) = (position.floor() as usize, position.ceil() as usize);
    sorted[low] + (sorted[high] - sorted[low]) * (position - low as f64)
}

struct Summary {
    median: f64,
    p10: f64,
    p90: f64,
}

fn summarize(samples: &[f64]) -> Summary {
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    Summary { median: percentile(&sorted, 0.5), p10: percentile(&sorted, 0.1), p90: percentile(&sorted, 0.9) }
}

fn repo_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

fn reference_texts() -> Vec<(&'static str, String)> {
    let cases = qrglue_vectors::cases();
    REFERENCE_TEXT_IDS
        .iter()
        .map(|id| match &cases.iter().find(|c| c.id == *id).unwrap_or_else(|| panic!("no {id}")).text {
            qrglue_vectors::Text::Utf8(text) => (*id, text.clone()),
            _ => panic!("{id} is not a text"),
        })
        .collect()
}

fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo.lines().find_map(|l| l.strip_prefix("model name").map(|m| m.trim_start_matches([' ', '\t', ':']).to_owned()));
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    format!(
        "{}, {cores} cores available, {} {}; wasmtime 48 (Cranelift, default config, no concurrency support)",
        model.unwrap_or_else(|| "unknown CPU".into()),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

/// Cold start on one wasm path: a new Engine, the guest compiled (or its
/// serialized machine code loaded from `cache`), instantiated, one png.
fn cold_start(path: Path, cache: Option<&std::path::Path>, text: &str) -> Vec<u8> {
    let engine = Engine::new(&qrglue_host::engine_config()).unwrap();
    let mut generator: Box<dyn Generator> = match (path, cache) {
        (Path::Component, None) => {
            Box::new(ComponentRuntime::compile(&engine, qrglue_host::COMPONENT_WASM).unwrap().instantiate().unwrap())
        }
        // SAFETY: written by this process from this wasmtime version and config, just before.
        (Path::Component, Some(file)) => {
            Box::new(unsafe { ComponentRuntime::deserialize_file(&engine, file) }.unwrap().instantiate().unwrap())
        }
        (Path::Raw, None) => Box::new(RawRuntime::compile(&engine, qrglue_host::RAW_WASM).unwrap().instantiate().unwrap()),
        // SAFETY: as above.
        (Path::Raw, Some(file)) => Box::new(unsafe { RawRuntime::deserialize_file(&engine, file) }.unwrap().instantiate().unwrap()),
        (Path::Native, _) => unreachable!("no cold start natively"),
    };
    generator.png(text, &Options::default()).unwrap()
}

fn main() {
    let quick = std::env::var("QRGLUE_BENCH_QUICK").is_ok_and(|v| v == "1");
    let settings = Settings::load(quick);
    let out_dir = repo_dir().join("target/bench");
    std::fs::create_dir_all(out_dir.join("cache")).unwrap();

    let texts = reference_texts();
    let reference_url = texts[1].1.clone();
    let mut ops: Vec<Op> = texts.iter().map(|(id, text)| Op::Png { text_id: id, text: text.clone() }).collect();
    ops.extend(texts.iter().map(|(id, text)| Op::PngRepeat { text_id: id, text: text.clone(), times: settings.png_repeat_times }));
    ops.push(Op::Noop);
    ops.extend(settings.payload_sizes.iter().map(|&n| Op::Consume { data: (0..n).map(|i| (i % 256) as u8).collect() }));
    ops.extend(settings.payload_sizes.iter().map(|&n| Op::Produce { len: n as u32 }));

    let mut generators: Vec<Box<dyn Generator>> = Path::ALL.iter().map(|&p| qrglue_host::generator(p).unwrap()).collect();

    // Warm-up: each series runs until it has spent a batch's time twice over,
    // which also sizes its batches.
    let mut series = Vec::new();
    for op in &ops {
        for (generator_index, generator) in generators.iter_mut().enumerate() {
            let start = Instant::now();
            let mut calls = 0u32;
            let mut output = None;
            while start.elapsed() < settings.batch_target * 2 || calls < 2 {
                output = op.run(generator.as_mut());
                calls += 1;
            }
            let per_call = start.elapsed() / calls;
            let calls_per_sample = (settings.batch_target.as_nanos() / per_call.as_nanos().max(1)).clamp(1, 1_000_000) as u32;
            series.push(Series {
                op: op.clone(),
                path: generator.path(),
                generator_index,
                calls_per_sample,
                samples_ns: Vec::new(),
                output,
            });
        }
    }
    // Every path must give the same bytes before its speed means anything.
    for chunk in series.chunks(Path::ALL.len()) {
        assert!(chunk.iter().all(|s| s.output == chunk[0].output), "{} {:?}: paths disagree", chunk[0].op.name(), chunk[0].op.text_id());
    }

    let paths = Path::ALL.len();
    for round in 0..settings.rounds {
        for chunk in series.chunks_mut(paths) {
            for k in 0..paths {
                let s = &mut chunk[(k + round) % paths];
                let generator = generators[s.generator_index].as_mut();
                let start = Instant::now();
                for _ in 0..s.calls_per_sample {
                    black_box(s.op.run(generator));
                }
                let elapsed = start.elapsed().as_nanos() as f64;
                s.samples_ns.push(elapsed / (s.calls_per_sample as f64 * s.op.units_per_call() as f64));
            }
        }
    }

    // Cold start, interleaved over the wasm paths, with and without the cache.
    let component_cache = out_dir.join("cache/qrglue.component.cwasm");
    let raw_cache = out_dir.join("cache/qrglue.raw.cwasm");
    std::fs::write(&component_cache, ComponentRuntime::shared().unwrap().serialize().unwrap()).unwrap();
    std::fs::write(&raw_cache, RawRuntime::shared().unwrap().serialize().unwrap()).unwrap();
    let golden_reference = series
        .iter()
        .find(|s| s.path == Path::Native && s.op.name() == "png" && s.op.text_id() == Some("ref-02"))
        .and_then(|s| s.output.clone())
        .expect("native png of ref-02");
    let mut cold: Vec<(Path, &'static str, Option<PathBuf>, Vec<f64>)> = vec![
        (Path::Component, "cold-start", None, Vec::new()),
        (Path::Raw, "cold-start", None, Vec::new()),
        (Path::Component, "cold-start-cached", Some(component_cache), Vec::new()),
        (Path::Raw, "cold-start-cached", Some(raw_cache), Vec::new()),
    ];
    for round in 0..settings.cold_rounds + 1 {
        for k in 0..cold.len() {
            let (path, _, cache, samples) = &mut cold[(k + round) % 4];
            let start = Instant::now();
            let png = cold_start(*path, cache.as_deref(), &reference_url);
            let elapsed = start.elapsed().as_nanos() as f64;
            assert_eq!(png, golden_reference, "cold start gave other bytes");
            // Round 0 is the warm-up (first rayon pool, first page faults).
            if round > 0 {
                samples.push(elapsed);
            }
        }
    }

    let mut measurements = Vec::new();
    println!(
        "{:<10} {:<18} {:<7} {:>8} {:>12} {:>12} {:>12} {:>7}",
        "path", "op", "text", "bytes", "median us", "p10 us", "p90 us", "samples"
    );
    let mut row = |path: Path, op: &str, text_id: Option<&str>, bytes: Option<usize>, samples: &[f64], output: Option<&Vec<u8>>| {
        let s = summarize(samples);
        println!(
            "{:<10} {:<18} {:<7} {:>8} {:>12.3} {:>12.3} {:>12.3} {:>7}",
            path.as_str(),
            op,
            text_id.unwrap_or("-"),
            bytes.map_or("-".into(), |b| b.to_string()),
            s.median / 1e3,
            s.p10 / 1e3,
            s.p90 / 1e3,
            samples.len()
        );
        let is_png = op.starts_with("png") || op.starts_with("cold");
        measurements.push(json!({
            "path": path.as_str(), "op": op, "text_id": text_id, "bytes": bytes,
            "median_ns": s.median, "p10_ns": s.p10, "p90_ns": s.p90, "samples": samples.len(),
            "output_bytes": output.map(Vec::len), "sha256": output.filter(|_| is_png).map(|o| qrglue_vectors::sha256_hex(o)),
        }));
    };
    for s in &series {
        row(s.path, s.op.name(), s.op.text_id(), s.op.payload_bytes(), &s.samples_ns, s.output.as_ref());
    }
    for (path, op, _, samples) in &cold {
        row(*path, op, Some("ref-02"), None, samples, Some(&golden_reference));
    }

    // The headline figures: png on the reference URL.
    let reference = |path: Path| {
        summarize(&series.iter().find(|s| s.path == path && s.op.name() == "png" && s.op.text_id() == Some("ref-02")).unwrap().samples_ns)
    };
    let (native, component, raw) = (reference(Path::Native), reference(Path::Component), reference(Path::Raw));
    let spread = |s: &Summary| format!("{:.1} us (p10 {:.1}, p90 {:.1})", s.median / 1e3, s.p10 / 1e3, s.p90 / 1e3);
    println!("\npng, reference URL (ref-02): native {}, component {}, raw {}", spread(&native), spread(&component), spread(&raw));
    println!(
        "ratios of medians: component/native {:.2}, raw/native {:.2}, component/raw {:.2}",
        component.median / native.median,
        raw.median / native.median,
        component.median / raw.median
    );

    let machine = if quick { format!("{} [QRGLUE_BENCH_QUICK smoke run: few samples]", machine()) } else { machine() };
    let report = json!({ "host": "rust", "machine": machine, "measurements": measurements });
    let file = out_dir.join("rust.json");
    std::fs::write(&file, serde_json::to_string_pretty(&report).unwrap() + "\n").unwrap();
    println!("wrote {}", file.display());
}
