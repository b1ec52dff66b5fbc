//! The Rust host's Extism row (issue 37): target/wasm/qrglue.extism.wasm
//! (guest/extism) through Extism's Rust SDK, as a `qrglue_host::Generator`,
//! next to the Rust host's own raw path (`RawGenerator`: qrglue.raw.wasm
//! with hand-written glue) in one process.
//!
//! - `conformance`: every corpus case through the plug-in, judged by the Rust
//!   host's own conformance code (hosts/rust/conformance/src/outcome.rs:
//!   png, svg, matrix and the texts, or the one error they all gave) against
//!   tests/vectors/expected.json; exits 1 on any difference.
//! - `bench [ROUNDS]`: png of the reference URL (ref-02), png_repeat (guest
//!   only, per png) and noop on both paths, interleaved in rounds (the order
//!   alternates); median [p10, p90] in µs and the median of the per-round
//!   ratios Extism / raw.
//!
//! The plug-in's contract is guest/extism/README.md: the raw ABI's option
//! words (`qrglue_core::flat::words`, the words every raw host sends) and
//! the payload as the input; a contract error is Extism's error string
//! `"<kind>: <message>"` with the kind's raw status as the return code.

#[path = "../../../hosts/rust/conformance/src/outcome.rs"]
mod outcome;

use std::time::Instant;

use qrglue_core::contract::{RAW_SVG_HAS_CLASS, RAW_SVG_HAS_TITLE, RAW_SVG_VIEW_BOX_ONLY};
use qrglue_core::{ErrorKind, MAX_TEXT_BYTES, flat};
use qrglue_host::{Error, Generator, Matrix, Options, Path, QrError, SvgOptions, TextStyle};
use qrglue_vectors::Text;

/// The plug-in as a generator: one Extism `Plugin` (its own wasmtime
/// store and instance), used by one caller at a time like every generator.
struct ExtismGenerator {
    plugin: extism::Plugin,
}

/// A failure outside the contract (the SDK, a malformed answer).
fn runtime(message: String) -> Error {
    Error::Runtime(anyhow::Error::msg(message))
}

impl ExtismGenerator {
    fn new(wasm: &[u8]) -> Result<ExtismGenerator, Error> {
        // No WASI and no host functions: the plug-in imports only Extism's kernel.
        let plugin = extism::Plugin::new(wasm, [], false).map_err(|e| runtime(format!("extism: {e}")))?;
        Ok(ExtismGenerator { plugin })
    }

    /// Calls `export` with `words` (little-endian) then `rest`; a contract
    /// error comes back as the kind its return code names, with the message
    /// after the error string's `"<kind>: "`.
    fn call(&mut self, export: &str, words: &[u32], rest: &[&[u8]]) -> Result<Vec<u8>, Error> {
        let mut input = Vec::with_capacity(words.len() * 4 + rest.iter().map(|r| r.len()).sum::<usize>());
        for word in words {
            input.extend_from_slice(&word.to_le_bytes());
        }
        for part in rest {
            input.extend_from_slice(part);
        }
        match self.plugin.call_get_error_code::<&[u8], &[u8]>(export, &input) {
            Ok(output) => Ok(output.to_vec()),
            Err((error, code)) => {
                let text = error.to_string();
                let kind = u32::try_from(code).ok().and_then(ErrorKind::from_code);
                let message = kind.and_then(|k| text.strip_prefix(k.as_str()).and_then(|m| m.strip_prefix(": ")));
                Err(match (kind, message) {
                    (Some(ErrorKind::EmptyText), _) => Error::Qr(QrError::EmptyText),
                    (Some(ErrorKind::InvalidText), Some(m)) => Error::Qr(QrError::InvalidText(m.to_owned())),
                    (Some(ErrorKind::DataTooLong), Some(m)) => Error::Qr(QrError::DataTooLong(m.to_owned())),
                    (Some(ErrorKind::InvalidOptions), Some(m)) => Error::Qr(QrError::InvalidOptions(m.to_owned())),
                    _ => runtime(format!("{export}: return code {code}: {text}")),
                })
            }
        }
    }

    /// The host's refusals before any copy, as the Rust host's paths make
    /// them (hosts/rust/src/lib.rs): an over-long input (a text's UTF-8
    /// first), then SVG strings past their bounds.
    fn refuse_oversized(data: &[u8], text: bool, svg: Option<&SvgOptions>) -> Result<(), Error> {
        let utf8 = || if text { qrglue_core::text_from_utf8(data).map(drop).map_err(Error::Qr) } else { Ok(()) };
        if data.len() > MAX_TEXT_BYTES {
            utf8()?;
            return Err(Error::Qr(QrError::over_max_text_bytes()));
        }
        let strings = svg.map_or([None, None], |s| {
            [("title", &s.title, qrglue_core::MAX_SVG_TITLE_BYTES), ("class", &s.class, qrglue_core::MAX_SVG_CLASS_BYTES)]
                .map(|(name, value, max)| value.as_ref().filter(|v| v.len() > max as usize).map(|v| (name, max, v.len())))
        });
        if let Some((name, max, len)) = strings.into_iter().flatten().next() {
            utf8()?;
            return Err(Error::Qr(QrError::InvalidOptions(qrglue_core::contract::too_long(name, max, len))));
        }
        Ok(())
    }

    fn render(&mut self, export: &str, data: &[u8], text: bool, options: &Options, extra: &[u32]) -> Result<Vec<u8>, Error> {
        Self::refuse_oversized(data, text, None)?;
        let words: Vec<u32> = flat::words(options).into_iter().chain(extra.iter().copied()).collect();
        self.call(export, &words, &[data])
    }

    fn render_svg(&mut self, export: &str, data: &[u8], text: bool, options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        Self::refuse_oversized(data, text, Some(svg))?;
        let bit = |on: bool, flag: u32| if on { flag } else { 0 };
        let flags = bit(svg.view_box_only, RAW_SVG_VIEW_BOX_ONLY)
            | bit(svg.title.is_some(), RAW_SVG_HAS_TITLE)
            | bit(svg.class.is_some(), RAW_SVG_HAS_CLASS);
        let (title, class) = (svg.title.as_deref().unwrap_or(""), svg.class.as_deref().unwrap_or(""));
        let words: Vec<u32> =
            flat::words(options).into_iter().chain([flags, title.len() as u32, (title.len() + class.len()) as u32]).collect();
        let bytes = self.call(export, &words, &[title.as_bytes(), class.as_bytes(), data])?;
        String::from_utf8(bytes).map_err(|e| runtime(format!("{export}: not UTF-8: {e}")))
    }

    fn render_matrix(&mut self, export: &str, data: &[u8], text: bool, options: &Options) -> Result<Matrix, Error> {
        let bytes = self.render(export, data, text, options, &[])?;
        let (width, modules) = bytes.split_first_chunk::<4>().ok_or_else(|| runtime(format!("{export}: {} bytes", bytes.len())))?;
        Ok(Matrix { width: u32::from_le_bytes(*width), modules: modules.to_vec() })
    }

    fn render_text(&mut self, export: &str, data: &[u8], text: bool, options: &Options, style: TextStyle) -> Result<String, Error> {
        let bytes = self.render(export, data, text, options, &[style.index()])?;
        String::from_utf8(bytes).map_err(|e| runtime(format!("{export}: not UTF-8: {e}")))
    }
}

impl Generator for ExtismGenerator {
    /// The raw ABI's calls, with Extism's SDK and PDK doing the copies
    /// (`Path` has no Extism variant: the Rust host has no Extism path).
    fn path(&self) -> Path {
        Path::Raw
    }
    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error> {
        self.render("qr_png", text.as_bytes(), true, options, &[])
    }
    fn svg_with(&mut self, text: &str, options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.render_svg("qr_svg", text.as_bytes(), true, options, svg)
    }
    fn matrix(&mut self, text: &str, options: &Options) -> Result<Matrix, Error> {
        self.render_matrix("qr_matrix", text.as_bytes(), true, options)
    }
    fn text(&mut self, text: &str, options: &Options, style: TextStyle) -> Result<String, Error> {
        self.render_text("qr_text", text.as_bytes(), true, options, style)
    }
    // Bytes that claim to be UTF-8 go to the guest as they are: it checks them, as the raw path's guest does.
    fn png_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        self.render("qr_png", text, true, options, &[])
    }
    fn svg_from_utf8_with(&mut self, text: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.render_svg("qr_svg", text, true, options, svg)
    }
    fn matrix_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Matrix, Error> {
        self.render_matrix("qr_matrix", text, true, options)
    }
    fn text_from_utf8(&mut self, text: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        self.render_text("qr_text", text, true, options, style)
    }
    fn png_bytes(&mut self, data: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        self.render("qr_png_bytes", data, false, options, &[])
    }
    fn svg_bytes_with(&mut self, data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.render_svg("qr_svg_bytes", data, false, options, svg)
    }
    fn matrix_bytes(&mut self, data: &[u8], options: &Options) -> Result<Matrix, Error> {
        self.render_matrix("qr_matrix_bytes", data, false, options)
    }
    fn text_bytes(&mut self, data: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        self.render_text("qr_text_bytes", data, false, options, style)
    }
    fn noop(&mut self) -> Result<(), Error> {
        self.call("qr_noop", &[], &[]).map(drop)
    }
    fn consume(&mut self, data: &[u8]) -> Result<u32, Error> {
        let out = self.call("qr_consume", &[], &[data])?;
        out.try_into().map(u32::from_le_bytes).map_err(|_| runtime("qr_consume: not 4 bytes".to_owned()))
    }
    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error> {
        self.call("qr_produce", &[len], &[])
    }
    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error> {
        let out = self.render("qr_png_repeat", text.as_bytes(), true, options, &[times])?;
        out.try_into().map(u32::from_le_bytes).map_err(|_| runtime("qr_png_repeat: not 4 bytes".to_owned()))
    }
    /// Extism owns the instance's memory: no such probe on this path (guest/extism/README.md).
    fn memory_pages(&mut self) -> Result<u32, Error> {
        Err(runtime("memory_pages: not available through Extism".to_owned()))
    }
    /// No `qr_trap` export in the plug-in (guest/extism/README.md).
    fn trap(&mut self) -> Result<(), Error> {
        Err(runtime("trap: not available through Extism".to_owned()))
    }
}

fn workspace_file(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(path)
}

fn conformance() -> Result<(), String> {
    let wasm = std::fs::read(workspace_file("target/wasm/qrglue.extism.wasm")).map_err(|e| format!("qrglue.extism.wasm: {e}"))?;
    let mut extism = ExtismGenerator::new(&wasm).map_err(|e| e.to_string())?;
    let expected = qrglue_vectors::expected();
    let (mut same, mut differ) = (0, 0);
    for case in qrglue_vectors::cases() {
        let got = outcome::outcome(&mut extism, &case.text, &case.options, &case.svg);
        if expected.get(&case.id) == Some(&got) {
            same += 1;
        } else {
            differ += 1;
            eprintln!("{}: expected {:?}, got {got:?}", case.id, expected.get(&case.id));
        }
    }
    println!("extism {}: {same} cases as expected.json, {differ} differ", env!("CARGO_PKG_NAME"));
    if differ > 0 { Err(format!("{differ} cases differ from expected.json")) } else { Ok(()) }
}

/// Median, p10 and p90 of `samples` (sorted here).
fn spread(samples: &mut [f64]) -> (f64, f64, f64) {
    samples.sort_by(f64::total_cmp);
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    (at(0.5), at(0.1), at(0.9))
}

fn bench(rounds: usize) -> Result<(), String> {
    let case = qrglue_vectors::cases().into_iter().find(|c| c.id == "ref-02").ok_or("ref-02 is in the corpus")?;
    let Text::Utf8(text) = case.text else { return Err("ref-02 is a text".to_owned()) };
    let wasm = std::fs::read(workspace_file("target/wasm/qrglue.extism.wasm")).map_err(|e| format!("qrglue.extism.wasm: {e}"))?;
    let mut paths: [(&str, Box<dyn Generator>); 2] = [
        ("raw (hand-written glue, wasmtime 48)", qrglue_host::generator(Path::Raw).map_err(|e| e.to_string())?),
        ("extism (Rust SDK 1.41, wasmtime 49)", Box::new(ExtismGenerator::new(&wasm).map_err(|e| e.to_string())?)),
    ];
    let options = Options::default();
    let want = paths[0].1.png(&text, &options).map_err(|e| e.to_string())?;
    if paths[1].1.png(&text, &options).map_err(|e| e.to_string())? != want {
        return Err("the two paths' PNGs differ".to_owned());
    }
    // (op, calls per sample): png, png_repeat of 10 (guest-only time per png), 1,000 noops.
    let ops: [(&str, u32); 3] = [("png", 20), ("png_repeat", 10), ("noop", 1000)];
    let mut samples = vec![vec![Vec::with_capacity(rounds); ops.len()]; paths.len()];
    for round in 0..=rounds {
        for k in 0..paths.len() {
            let which = (round + k) % paths.len();
            let generator = &mut paths[which].1;
            for (i, &(op, calls)) in ops.iter().enumerate() {
                let start = Instant::now();
                match op {
                    "png" => (0..calls).try_for_each(|_| generator.png(&text, &options).map(drop)),
                    "png_repeat" => generator.png_repeat(&text, &options, calls).map(drop),
                    _ => (0..calls).try_for_each(|_| generator.noop()),
                }
                .map_err(|e| e.to_string())?;
                // Round 0 warms both paths up.
                if round > 0 {
                    samples[which][i].push(start.elapsed().as_secs_f64() * 1e6 / f64::from(calls));
                }
            }
        }
    }
    println!("ref-02 ({} B PNG), {rounds} interleaved rounds, µs median [p10, p90]:", want.len());
    for (i, &(op, _)) in ops.iter().enumerate() {
        let mut ratios: Vec<f64> = samples[1][i].iter().zip(&samples[0][i]).map(|(e, r)| e / r).collect();
        let (ratio, r10, r90) = spread(&mut ratios);
        let line: Vec<String> = paths
            .iter()
            .zip(&mut samples)
            .map(|((name, _), s)| {
                let (m, p10, p90) = spread(&mut s[i]);
                format!("{name} {m:.3} [{p10:.3}, {p90:.3}]")
            })
            .collect();
        println!("  {op:10} {}; extism / raw {ratio:.2} [{r10:.2}, {r90:.2}]", line.join(", "));
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["conformance"] => conformance(),
        ["bench"] => bench(200),
        ["bench", rounds] => rounds.parse().map_err(|_| format!("rounds: {rounds:?}")).and_then(bench),
        _ => Err("usage: conformance | bench [ROUNDS]".to_owned()),
    };
    if let Err(e) = result {
        eprintln!("qrglue-experiment-extism-rust: {e}");
        std::process::exit(1);
    }
}
