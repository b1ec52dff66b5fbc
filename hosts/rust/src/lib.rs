//! qrglue from Rust: one [`Generator`] trait, three implementations.
//!
//! - [`ComponentGenerator`]: `qrglue.component.wasm` through wasmtime's
//!   Component Model (`bindgen!` over the same `wit/qr.wit` as the guest).
//! - [`RawGenerator`]: `qrglue.raw.wasm` through wasmtime's core API and
//!   hand-written glue following `guest/raw/ABI.md`.
//! - [`NativeGenerator`]: `qrglue-core` linked directly, no wasm: the speed
//!   limit the wasm paths are measured against.
//!
//! Every path returns the same bytes and the same [`Error`] for the same input.
//!
//! # What is shared, what is per instance
//!
//! The [`Engine`] and the compiled `Component` / `Module` are built once per
//! process ([`ComponentRuntime::shared`], [`RawRuntime::shared`]; compiling
//! costs tens of milliseconds, instantiating microseconds) and are `Send +
//! Sync`. Each generator owns its own `Store` and instance: a `Store` is
//! single-threaded (`&mut` for every call) and the guest keeps state in its
//! linear memory, so **one generator per thread**, made with
//! [`generator`] or `ComponentRuntime::shared()?.instantiate()`. We chose
//! per-thread instances over a pool because a call is short and never blocks:
//! a pool would add a lock to every call for no gain, and a thread that wants
//! several instances can simply make several.
//!
//! # Limits and traps
//!
//! Each `Store` caps guest linear memory at [`GUEST_MEMORY_LIMIT`] (64 MiB,
//! the raw module's own declared maximum). Texts over
//! [`qrglue_core::MAX_TEXT_BYTES`] are rejected as `data-too-long` before
//! they are copied into the guest. A trap becomes [`Error::Trap`]; the
//! generator then drops the trapped instance (wasmtime refuses to re-enter a
//! trapped component instance) and builds a fresh `Store` + instance before
//! the next call, so the next call works.

#![warn(missing_docs)]

mod component;
mod guest;
mod native;
mod raw;

use std::fmt;
use std::sync::OnceLock;

pub use qrglue_core::{EcLevel, ErrorKind, MAX_TEXT_BYTES, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle};
pub use wasmtime::Engine;

pub use component::{ComponentGenerator, ComponentRuntime};
pub use native::NativeGenerator;
/// Single raw-ABI calls with arguments no correct glue passes, for tests of
/// the guest's guarantees. Not part of the API.
#[doc(hidden)]
pub use raw::testing;
pub use raw::{RawGenerator, RawRuntime};

/// `qrglue.component.wasm`, embedded at build time (see build.rs).
pub const COMPONENT_WASM: &[u8] = include_bytes!(env!("QRGLUE_COMPONENT_WASM"));
/// `qrglue.raw.wasm`, embedded at build time (see build.rs).
pub const RAW_WASM: &[u8] = include_bytes!(env!("QRGLUE_RAW_WASM"));

/// The most linear memory one guest instance may use: 64 MiB.
pub const GUEST_MEMORY_LIMIT: usize = 64 << 20;

/// One QR generator; the same calls as the WIT `generator` and `probe`
/// interfaces. Methods take `&mut self` because a wasm instance is used by one
/// caller at a time (see the crate docs: one generator per thread).
pub trait Generator: Send {
    /// Which path this is.
    fn path(&self) -> Path;
    /// The code for `text` as a 1-bit grayscale PNG.
    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error>;
    /// The code for `text` as an SVG document.
    fn svg(&mut self, text: &str, options: &Options) -> Result<String, Error> {
        self.svg_with(text, options, &SvgOptions::default())
    }
    /// [`Generator::svg`] written as `svg` asks: viewBox only, a title, a
    /// class (WIT `svg-options`, checked after `options`).
    fn svg_with(&mut self, text: &str, options: &Options, svg: &SvgOptions) -> Result<String, Error>;
    /// [`Generator::png`] for a text that arrives as bytes (a file, a Unix
    /// command-line argument): bytes that are not exactly UTF-8 are
    /// `invalid-text`, never repaired. The raw ABI hands the bytes to the
    /// guest, which checks them; the other paths check them here.
    fn png_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        self.png(qrglue_core::text_from_utf8(text)?, options)
    }
    /// [`Generator::svg`] for a text that arrives as bytes; see [`Generator::png_from_utf8`].
    fn svg_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<String, Error> {
        self.svg_from_utf8_with(text, options, &SvgOptions::default())
    }
    /// [`Generator::svg_with`] for a text that arrives as bytes; see [`Generator::png_from_utf8`].
    fn svg_from_utf8_with(&mut self, text: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.svg_with(qrglue_core::text_from_utf8(text)?, options, svg)
    }
    /// The module matrix for `text`, quiet zone not included, for callers
    /// that draw the code themselves. Fails exactly as [`Generator::png`] does.
    fn matrix(&mut self, text: &str, options: &Options) -> Result<Matrix, Error>;
    /// The code for `text` as lines of text in `style` (WIT `generator.text`).
    fn text(&mut self, text: &str, options: &Options, style: TextStyle) -> Result<String, Error>;
    /// [`Generator::matrix`] for a text that arrives as bytes; see [`Generator::png_from_utf8`].
    fn matrix_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Matrix, Error> {
        self.matrix(qrglue_core::text_from_utf8(text)?, options)
    }
    /// [`Generator::text`] for a text that arrives as bytes; see [`Generator::png_from_utf8`].
    fn text_from_utf8(&mut self, text: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        self.text(qrglue_core::text_from_utf8(text)?, options, style)
    }
    /// The code for a binary payload as a PNG (WIT `generator.png-bytes`):
    /// any bytes, given to readers as they are. For UTF-8 bytes it is
    /// [`Generator::png`] of that text. Unlike [`Generator::png_from_utf8`],
    /// nothing is checked as a text.
    fn png_bytes(&mut self, data: &[u8], options: &Options) -> Result<Vec<u8>, Error>;
    /// [`Generator::svg`] for a binary payload; see [`Generator::png_bytes`].
    fn svg_bytes(&mut self, data: &[u8], options: &Options) -> Result<String, Error> {
        self.svg_bytes_with(data, options, &SvgOptions::default())
    }
    /// [`Generator::svg_with`] for a binary payload.
    fn svg_bytes_with(&mut self, data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error>;
    /// [`Generator::matrix`] for a binary payload; see [`Generator::png_bytes`].
    fn matrix_bytes(&mut self, data: &[u8], options: &Options) -> Result<Matrix, Error>;
    /// [`Generator::text`] for a binary payload; see [`Generator::png_bytes`].
    fn text_bytes(&mut self, data: &[u8], options: &Options, style: TextStyle) -> Result<String, Error>;
    /// Probe: the fixed cost of one call.
    fn noop(&mut self) -> Result<(), Error>;
    /// Probe: hands `data` to the guest, which returns its length.
    fn consume(&mut self, data: &[u8]) -> Result<u32, Error>;
    /// Probe: `len` bytes from the guest, byte i = i mod 251. Over 16 MiB the
    /// component traps ([`Error::Trap`]); the raw ABI and the native path
    /// answer `invalid-options`.
    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error>;
    /// Probe: renders the PNG `times` times inside the guest; returns the
    /// last PNG's length.
    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error>;
    /// Probe: the guest's linear memory size in 64 KiB pages, to check that
    /// memory stays bounded (the native path has no linear memory: 0).
    fn memory_pages(&mut self) -> Result<u32, Error>;
    /// Probe: always fails with [`Error::Trap`] (wasm `unreachable` in the
    /// guests), to test that the next call still works.
    fn trap(&mut self) -> Result<(), Error>;
}

/// The module matrix as the contract carries it (WIT `qr-matrix`): `width`
/// modules a side, quiet zone not included, one bit a module.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Matrix {
    /// Modules per side: 21 (version 1) to 177 (version 40).
    pub width: u32,
    /// `width * width` bits, row-major, most significant bit first; 1 is dark.
    pub modules: Vec<u8>,
}

impl Matrix {
    /// Whether the module at column `x`, row `y` is dark. Panics outside the matrix.
    pub fn is_dark(&self, x: u32, y: u32) -> bool {
        assert!(x < self.width && y < self.width, "module ({x}, {y}) is outside a {0}x{0} matrix", self.width);
        let i = (y * self.width + x) as usize;
        self.modules[i / 8] >> (7 - i % 8) & 1 == 1
    }

    /// The wire form the raw ABI and wasm-bindgen use: the width as a
    /// little-endian u32, then the modules. Anything else is `None`.
    fn from_wire(bytes: &[u8]) -> Option<Matrix> {
        let (width, modules) = bytes.split_first_chunk::<4>()?;
        let width = u32::from_le_bytes(*width);
        let bits = (width as usize).checked_mul(width as usize)?;
        (modules.len() == bits.div_ceil(8)).then(|| Matrix { width, modules: modules.to_vec() })
    }
}

impl From<&qrglue_core::QrMatrix> for Matrix {
    fn from(matrix: &qrglue_core::QrMatrix) -> Matrix {
        Matrix { width: matrix.width() as u32, modules: matrix.packed_modules() }
    }
}

/// The three ways to run the generator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Path {
    /// `qrglue.component.wasm` through the Component Model
    /// ([`ComponentGenerator`]): typed glue generated from `wit/qr.wit`.
    Component,
    /// `qrglue.raw.wasm` through the hand-written pointer/length ABI
    /// ([`RawGenerator`]).
    Raw,
    /// `qrglue-core` linked in, no wasm ([`NativeGenerator`]): no sandbox,
    /// the fastest path.
    Native,
}

impl Path {
    /// Every path, the native one (the baseline the wasm paths are measured
    /// against) first.
    pub const ALL: [Path; 3] = [Path::Native, Path::Component, Path::Raw];

    /// The name used on the command line and in benchmark output.
    pub fn as_str(self) -> &'static str {
        match self {
            Path::Component => "component",
            Path::Raw => "raw",
            Path::Native => "native",
        }
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A fresh generator on `path`, over the process-wide compiled guests.
pub fn generator(path: Path) -> Result<Box<dyn Generator>, Error> {
    Ok(match path {
        Path::Component => Box::new(ComponentRuntime::shared()?.instantiate()?),
        Path::Raw => Box::new(RawRuntime::shared()?.instantiate()?),
        Path::Native => Box::new(NativeGenerator),
    })
}

/// The process-wide engine: default wasmtime configuration (Cranelift,
/// optimised for speed) without concurrency support ([`engine_config`]).
/// Serialized guests only load into an engine with the same configuration
/// and wasmtime version.
pub fn shared_engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| Engine::new(&engine_config()).expect("the default configuration without concurrency support is valid"))
}

/// The configuration of [`shared_engine`]: wasmtime's defaults, with
/// `concurrency_support` off. Every call here is synchronous, so a store
/// needs none of the component-model-async state (tasks, waitables) that
/// wasmtime otherwise sets up per store and goes through on every component
/// call: ~490 ns of a ~680 ns `noop` in a wasmtime built with that feature
/// (experiments/wasmtime-concurrency). Our wasmtime is built without its
/// `component-model-async` feature, whose presence is what turns the option
/// on by default, so today this only states the choice; it keeps the option
/// off should feature unification ever turn that feature on (wasmtime-wasi's
/// `p3`, say). The wasi:http server builds its own engine.
pub fn engine_config() -> wasmtime::Config {
    let mut config = wasmtime::Config::new();
    config.concurrency_support(false);
    config
}

/// Why a call gave no result.
#[derive(Debug)]
pub enum Error {
    /// One of the contract's four kinds (`empty-text`, `invalid-text`,
    /// `data-too-long`, `invalid-options`), with its message.
    Qr(QrError),
    /// The guest trapped. The generator replaces its instance before the
    /// next call. The text is wasmtime's description of the trap.
    Trap(String),
    /// wasmtime could not compile or instantiate a guest, or a guest broke
    /// the ABI contract (a bad record, an unknown status).
    Runtime(wasmtime::Error),
}

impl Error {
    /// The contract's error kind, for [`Error::Qr`].
    pub fn kind(&self) -> Option<ErrorKind> {
        match self {
            Error::Qr(error) => Some(error.kind()),
            Error::Trap(_) | Error::Runtime(_) => None,
        }
    }

    /// Sorts a wasmtime failure into a trap (the guest's fault; the
    /// instance is spent) or a runtime failure.
    fn from_wasmtime(error: wasmtime::Error) -> Error {
        match error.downcast_ref::<wasmtime::Trap>() {
            Some(trap) => Error::Trap(trap.to_string()),
            None => Error::Runtime(error),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The contract's message alone, as every host shows it; the kind
            // is `kind()`.
            Error::Qr(error) => write!(f, "{error}"),
            Error::Trap(message) => write!(f, "guest trapped: {message}"),
            Error::Runtime(error) => write!(f, "wasm runtime: {error:#}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<QrError> for Error {
    fn from(error: QrError) -> Self {
        Error::Qr(error)
    }
}

/// The host-side text check every wasm path runs before copying a text into
/// guest memory: a text longer than any QR code holds is `data-too-long`
/// (after `invalid-text`, and before the option checks, in the contract's
/// order), so guest memory stays bounded whatever the caller passes.
fn reject_oversized_text(text: &[u8]) -> Result<(), Error> {
    if text.len() > MAX_TEXT_BYTES {
        qrglue_core::text_from_utf8(text)?;
        return Err(Error::Qr(QrError::over_max_text_bytes()));
    }
    Ok(())
}

/// [`reject_oversized_text`] for a binary payload: only its length counts.
fn reject_oversized_payload(data: &[u8]) -> Result<(), Error> {
    if data.len() > MAX_TEXT_BYTES {
        return Err(Error::Qr(QrError::over_max_text_bytes()));
    }
    Ok(())
}

/// SVG option strings past their bounds never reach a guest either (a title
/// of 100 MB would exhaust guest memory before the guest could refuse it):
/// refused here, after the input's own host checks and before the guest's
/// (docs/contract.md, "Which errors a host raises"), in the guest's words.
/// `text` says whether `data` is a text: its UTF-8, the input's own check,
/// comes first (the core's check, linked here).
fn reject_oversized_svg(data: &[u8], text: bool, svg: &SvgOptions) -> Result<(), Error> {
    for (option, value, max) in
        [("title", &svg.title, qrglue_core::MAX_SVG_TITLE_BYTES), ("class", &svg.class, qrglue_core::MAX_SVG_CLASS_BYTES)]
    {
        if let Some(value) = value.as_ref().filter(|v| v.len() > max as usize) {
            if text {
                qrglue_core::text_from_utf8(data)?;
            }
            return Err(Error::Qr(QrError::InvalidOptions(qrglue_core::contract::too_long(option, max, value.len()))));
        }
    }
    Ok(())
}
