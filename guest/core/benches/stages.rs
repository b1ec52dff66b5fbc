//! Native benchmark of the core, stage by stage, on the reference texts
//! (ref-01..ref-10 in tests/vectors/cases.json):
//!
//! | op             | what                                                          |
//! |----------------|---------------------------------------------------------------|
//! | `seed-png`     | the usual recipe (baseline): qrcode + image 0.25, 8-bit PNG   |
//! | `encode-stock` | `qrcode::QrCode::with_error_correction_level` (qrcode's mask) |
//! | `encode`       | [`qrglue_core::encode`] (our mask scoring)                    |
//! | `png-stage`    | [`qrglue_core::render_png`] on an encoded matrix              |
//! | `png-render`   | its sub-stage 1: module rows packed to 1-bit pixel rows       |
//! | `png-filter`   | sub-stage 2: scanlines with filter bytes (None / Up repeats)  |
//! | `png-deflate`  | sub-stage 3: the zlib stream (qrglue's deflate)               |
//! | `png-deflate-zlib-rs` | sub-stage 3 as the previous writer did it (zlib-rs, level 4) |
//! | `png-chunks`   | sub-stage 4: signature, IHDR, IDAT, IEND with CRCs            |
//! | `png`          | [`qrglue_core::png`]: validate + encode + PNG                 |
//! | `png-colored`  | the same with dark #336699 on transparent (palette + tRNS)    |
//! | `svg`          | [`qrglue_core::svg`]                                          |
//!
//! Method: one warm-up pass sizes a batch per (op, text) so one sample lasts
//! about `SAMPLE_TARGET`; then every (op, text) is sampled once per round,
//! rounds interleaved (the order rotates each round) so drift and noise from
//! other processes spread over all ops alike. A sample is batch time / batch
//! size. Reported: median, p10, p90 over the rounds.
//!
//! Writes target/bench/core.json in the cross-host schema (path "native").
//! `QRGLUE_BENCH_QUICK=1` runs a few rounds only (CI smoke test);
//! `QRGLUE_BENCH_OPS=png-deflate,png-render` runs only those ops (for a
//! profiler; the report needs them all).

use std::hint::black_box;
use std::io::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use image::Luma;
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use qrglue_core::{EcLevel, Options, png_stages};
use serde_json::json;
use sha2::{Digest, Sha256};

const SAMPLE_TARGET: Duration = Duration::from_micros(200);

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The reference texts, ref-01..ref-10, from the golden cases (read through
/// qrglue-vectors, which also handles the corpus's non-UTF-8 cases).
fn reference_texts() -> Vec<(String, String)> {
    let texts: Vec<(String, String)> = qrglue_vectors::cases()
        .into_iter()
        .filter_map(|case| {
            let is_reference = case.id.len() == 6 && case.id.starts_with("ref-");
            match case.text {
                qrglue_vectors::Text::Utf8(text) if is_reference => Some((case.id, text)),
                _ => None,
            }
        })
        .collect();
    assert_eq!(texts.len(), 10, "cases.json must hold ref-01..ref-10");
    texts
}

/// The baseline: the usual way to make a QR PNG in Rust, qrcode's `image`
/// renderer (EC L, 8-bit gray, at least 200x200, Default compression, no
/// filter), which qrglue's PNG replaces.
fn seed_png(text: &str) -> Vec<u8> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::L).expect("reference text fits");
    let image = code.render::<Luma<u8>>().min_dimensions(200, 200).build();
    let mut buf = Vec::new();
    let encoder = PngEncoder::new_with_quality(&mut buf, CompressionType::Default, FilterType::NoFilter);
    image.write_with_encoder(encoder).expect("PNG into a Vec");
    buf
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Op {
    SeedPng,
    EncodeStock,
    Encode,
    PngStage,
    PngRender,
    PngFilter,
    PngDeflate,
    PngDeflateZlibRs,
    PngChunks,
    Png,
    PngColored,
    Svg,
}

/// `png-colored`'s options: a dark colour on a transparent background, the
/// costliest form the colours take (a PLTE and a tRNS chunk).
const COLORED: Options = Options {
    dark: qrglue_core::Rgba { r: 0x33, g: 0x66, b: 0x99, a: 255 },
    light: qrglue_core::Rgba { r: 255, g: 255, b: 255, a: 0 },
    ec_level: EcLevel::Low,
    min_size: 200,
    quiet_zone: 4,
    scale: None,
    symbol: qrglue_core::Symbol::AUTOMATIC,
};

impl Op {
    const ALL: [Op; 12] = [
        Op::SeedPng,
        Op::EncodeStock,
        Op::Encode,
        Op::PngStage,
        Op::PngRender,
        Op::PngFilter,
        Op::PngDeflate,
        Op::PngDeflateZlibRs,
        Op::PngChunks,
        Op::Png,
        Op::PngColored,
        Op::Svg,
    ];

    fn name(self) -> &'static str {
        match self {
            Op::SeedPng => "seed-png",
            Op::EncodeStock => "encode-stock",
            Op::Encode => "encode",
            Op::PngStage => "png-stage",
            Op::PngRender => "png-render",
            Op::PngFilter => "png-filter",
            Op::PngDeflate => "png-deflate",
            Op::PngDeflateZlibRs => "png-deflate-zlib-rs",
            Op::PngChunks => "png-chunks",
            Op::Png => "png",
            Op::PngColored => "png-colored",
            Op::Svg => "svg",
        }
    }
}

/// One (op, text) pair: its input, its output for the report, its samples.
struct Bench {
    op: Op,
    text_id: String,
    text: String,
    matrix: qrglue_core::QrMatrix,
    /// The PNG sub-stages' inputs, made once: each sub-stage is timed alone.
    rows: png_stages::PixelRows,
    filtered: png_stages::Filtered,
    idat: Vec<u8>,
    batch: u32,
    samples_ns: Vec<f64>,
    output: Option<Vec<u8>>,
}

impl Bench {
    /// Runs the op once; returns its output bytes where the op has a file.
    fn run_once(&self, options: &Options) -> Option<Vec<u8>> {
        let text = black_box(self.text.as_str());
        match self.op {
            Op::SeedPng => Some(seed_png(text)),
            Op::EncodeStock => {
                let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::L).expect("fits");
                black_box(code);
                None
            }
            Op::Encode => {
                black_box(qrglue_core::encode(text, EcLevel::Low).expect("fits"));
                None
            }
            Op::PngStage => Some(qrglue_core::render_png(black_box(&self.matrix), options)),
            Op::PngRender => Some(png_stages::render_rows(black_box(&self.matrix), options).rows),
            Op::PngFilter => Some(png_stages::filter(black_box(&self.rows)).data),
            Op::PngDeflate => Some(png_stages::deflate(black_box(&self.filtered))),
            Op::PngDeflateZlibRs => Some(png_stages::zlib_rs_deflate(black_box(&self.filtered.data))),
            Op::PngChunks => Some(png_stages::write_container(&self.rows, black_box(&self.idat), options)),
            Op::Png => Some(qrglue_core::png(text, options).expect("fits")),
            Op::PngColored => Some(qrglue_core::png(text, &COLORED).expect("fits")),
            Op::Svg => Some(qrglue_core::svg(text, options).expect("fits").into_bytes()),
        }
    }

    /// Nanoseconds per call over one batch.
    fn sample(&self, options: &Options) -> f64 {
        let start = Instant::now();
        for _ in 0..self.batch {
            black_box(self.run_once(options));
        }
        start.elapsed().as_nanos() as f64 / f64::from(self.batch)
    }
}

/// Nearest-rank percentile of sorted samples (p in 0..=1).
fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn median(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| info.lines().find(|l| l.starts_with("model name")).map(|l| l.split(':').nth(1).unwrap_or("").trim().to_owned()))
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{cpu}, {cores} cores available")
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    let quick = std::env::var("QRGLUE_BENCH_QUICK").is_ok_and(|v| v == "1");
    let rounds = if quick { 5 } else { 150 };
    let options = Options::default();
    let only = std::env::var("QRGLUE_BENCH_OPS").ok();

    let mut benches: Vec<Bench> = Vec::new();
    for (text_id, text) in reference_texts() {
        let matrix = qrglue_core::encode(&text, EcLevel::Low).expect("reference text fits");
        for op in Op::ALL.into_iter().filter(|op| only.as_ref().is_none_or(|only| only.split(',').any(|name| name == op.name()))) {
            let rows = png_stages::render_rows(&matrix, &options);
            let filtered = png_stages::filter(&rows);
            let idat = png_stages::deflate(&filtered);
            benches.push(Bench {
                op,
                text_id: text_id.clone(),
                text: text.clone(),
                matrix: matrix.clone(),
                rows,
                filtered,
                idat,
                batch: 1,
                samples_ns: Vec::new(),
                output: None,
            });
        }
    }

    // Warm-up: run each pair until it has run for SAMPLE_TARGET (at least
    // 3 times), keep its output, and size its batch from the mean call time.
    for bench in &mut benches {
        let start = Instant::now();
        let mut calls = 0u32;
        while calls < 3 || start.elapsed() < SAMPLE_TARGET {
            bench.output = bench.run_once(&options);
            calls += 1;
        }
        let per_call = start.elapsed().as_nanos() as f64 / f64::from(calls);
        bench.batch = ((SAMPLE_TARGET.as_nanos() as f64 / per_call).ceil() as u32).max(1);
    }

    let started = Instant::now();
    for round in 0..rounds {
        let n = benches.len();
        for k in 0..n {
            let bench = &mut benches[(k + round * 7) % n];
            let ns = bench.sample(&options);
            bench.samples_ns.push(ns);
        }
    }
    let elapsed = started.elapsed();

    let mut measurements = Vec::new();
    println!("qrglue-core stages, native ({}), {rounds} interleaved rounds in {:.1} s", machine(), elapsed.as_secs_f64());
    println!("{:<8} {:<20} {:>11} {:>11} {:>11} {:>7}", "text", "op", "median us", "p10 us", "p90 us", "bytes");
    for bench in &mut benches {
        {
            bench.samples_ns.sort_by(f64::total_cmp);
            let s = &bench.samples_ns;
            let (med, p10, p90) = (median(s), percentile(s, 0.1), percentile(s, 0.9));
            let bytes = bench.output.as_ref().map(Vec::len);
            println!(
                "{:<8} {:<20} {:>11.2} {:>11.2} {:>11.2} {:>7}",
                bench.text_id,
                bench.op.name(),
                med / 1e3,
                p10 / 1e3,
                p90 / 1e3,
                bytes.map_or(String::from("-"), |b| b.to_string())
            );
            measurements.push(json!({
                "path": "native",
                "op": bench.op.name(),
                "text_id": bench.text_id,
                "bytes": null,
                "median_ns": med,
                "p10_ns": p10,
                "p90_ns": p90,
                "samples": s.len(),
                "output_bytes": bytes,
                "sha256": bench.output.as_deref().map(sha256_hex),
            }));
        }
    }

    let report = json!({ "host": "rust", "machine": machine(), "measurements": measurements });
    let dir = workspace_root().join("target/bench");
    std::fs::create_dir_all(&dir).expect("create target/bench");
    let path = dir.join("core.json");
    let mut file = std::fs::File::create(&path).expect("create core.json");
    file.write_all(serde_json::to_string_pretty(&report).expect("JSON").as_bytes()).expect("write core.json");
    println!("wrote {}", path.display());
}
