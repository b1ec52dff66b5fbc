//! `qrglue._native`: qrglue-core as a CPython extension, built with PyO3
//! (stable ABI, CPython 3.10 and later).
//!
//! The core runs in the Python process itself: no wasm, no linear memory, no
//! sandbox. `qrglue/native.py` wraps these functions with the API of the
//! other Python paths (keyword-only options with their defaults, docstrings,
//! types); every check happens here, so that calling the extension directly
//! cannot alter a text or copy an oversized one either.
//!
//! - Texts: a `str` is read as exactly the text it holds. A lone surrogate is
//!   `invalid-text` with the contract's message (CPython refuses to encode it
//!   as UTF-8 and PyO3 reports that as `UnicodeEncodeError`; it is never
//!   replaced). A `str` of more than [`MAX_TEXT_BYTES`] code points has more
//!   UTF-8 bytes than that too, so it is refused before any copy: only a scan
//!   for a surrogate (C speed, in place) decides between `invalid-text` and
//!   `data-too-long`, as the contract's check order requires.
//! - Binary payloads (the `*_bytes` functions, the core's `*_bytes`): a
//!   `bytes` (read in place: it cannot change, so the core reads it with the
//!   GIL released, no copy), a `bytearray` (copied once: Python code could
//!   resize it during the call) or a C-contiguous `memoryview` of bytes
//!   (format B, b or c; copied once, by its `tobytes`); anything else is a
//!   `TypeError` with `qrglue._common`'s message. Never decoded: any bytes
//!   make a code. Its length is read before any copy (`data-too-long` over
//!   [`MAX_TEXT_BYTES`]), then empty is `empty-text`, as for a text.
//! - Options: only what WIT cannot carry is refused here (docs/contract.md,
//!   "Which errors a host raises"), in WIT order with the messages the other
//!   Python paths give (`repr` of the offending value), after the text's
//!   checks: an EC-level name, `int`s within `u32` (`None` too for scale,
//!   version, min-version, mask), the colours (CSS hex strings, read by the
//!   core's `Rgba::from_hex`), `bool`s. An empty text, the bounds, equal
//!   colours and the symbol options' rules are the core's, checked when it runs.
//! - Errors: a core `QrError` is raised as `qrglue.QrError` (the class of
//!   `qrglue._common`) with the WIT kind and the core's message.
//! - Text styles: `text`'s style is a WIT case name (`"half-blocks"`), read
//!   after the options, with the contract's message.
//! - SVG options (`svg`, `svg_bytes` only): `view_box_only` (a `bool`),
//!   `title` and `class` (`None` or a `str`: anything else is
//!   `invalid-options` `title must be a string, got 5`; a lone surrogate is
//!   `title contains a lone surrogate (not encodable as UTF-8)`, never
//!   replaced; one over its bound in UTF-8 bytes is refused as the core
//!   words it), read after the options, in WIT order; then the core's
//!   `svg_with` checks what they hold (`SvgOptions::validate`).
//! - The GIL: `png`, `svg`, `matrix`, `text`, their `*_bytes` twins and
//!   `png_repeat` run the core with the GIL released (`py.detach`), on owned
//!   copies of the text and options (a `bytes` payload is borrowed: immutable).
//! - Panics: the crate is built with `panic = "unwind"` (Cargo profile
//!   `addon`), and every call that reaches the core runs under
//!   `catch_unwind`: a panic is raised as `NativePanic` (a `RuntimeError`),
//!   and the next call works. The `panic` probe proves it.

use std::any::Any;
use std::panic::{AssertUnwindSafe, catch_unwind};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyUnicodeEncodeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyDict, PyInt, PyMemoryView, PyString};
use qrglue_core::{EcLevel, MAX_TEXT_BYTES, Options, QrError, Rgba, SvgOptions, Symbol, TextStyle, contract, probe};

pyo3::create_exception!(
    qrglue._native,
    NativePanic,
    PyRuntimeError,
    "Rust panicked inside qrglue's native extension. The panic was caught: the process and the next call are fine."
);

/// `qrglue.QrError`, imported once.
static QR_ERROR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
/// `re.compile("[\ud800-\udfff]").search`: finds a surrogate in a `str` in place.
static SURROGATE_SEARCH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// A core error as `qrglue.QrError(kind, message)`.
fn qr_error(py: Python<'_>, error: QrError) -> PyErr {
    let class = match QR_ERROR.get_or_try_init(py, || py.import("qrglue._common")?.getattr("QrError").map(Bound::unbind)) {
        Ok(class) => class.bind(py),
        Err(e) => return e,
    };
    match class.call1((error.kind().as_str(), error.to_string())) {
        Ok(instance) => PyErr::from_value(instance),
        Err(e) => e,
    }
}

fn lone_surrogate() -> QrError {
    QrError::InvalidText(contract::LONE_SURROGATE_MESSAGE.to_owned())
}

/// The value as Python shows it (`-1`, `True`, `2.5`, `'big'`), as in
/// `qrglue._common._shown`.
fn shown(value: &Bound<'_, PyAny>) -> String {
    match value.repr().and_then(|repr| repr.to_str().map(str::to_owned)) {
        Ok(repr) => repr,
        Err(_) => format!("a {}", type_name(value)),
    }
}

fn type_name(value: &Bound<'_, PyAny>) -> String {
    value.get_type().name().and_then(|name| name.to_str().map(str::to_owned)).unwrap_or_else(|_| "object".to_owned())
}

/// Whether a `str` holds a surrogate, without copying it: an ASCII string
/// cannot (`isascii` is O(1) in CPython); any other is scanned by `re`.
fn has_surrogate(text: &Bound<'_, PyString>) -> PyResult<bool> {
    let py = text.py();
    if text.call_method0("isascii")?.is_truthy()? {
        return Ok(false);
    }
    let search = SURROGATE_SEARCH
        .get_or_try_init(py, || py.import("re")?.call_method1("compile", ("[\\ud800-\\udfff]",))?.getattr("search").map(Bound::unbind))?;
    Ok(!search.bind(py).call1((text,))?.is_none())
}

/// The text as the core takes it, with the host's checks (docs/contract.md):
/// invalid-text, then data-too-long by length. A non-`str` is a `TypeError`;
/// an empty text is the core's to refuse, after the options' host checks.
fn read_text(text: &Bound<'_, PyAny>) -> PyResult<String> {
    let py = text.py();
    let Ok(string) = text.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!("text must be str, not {}", type_name(text))));
    };
    if string.code_point_len()? > MAX_TEXT_BYTES {
        // At least as many UTF-8 bytes as code points: refused before any copy.
        let error = if has_surrogate(string)? { lone_surrogate() } else { QrError::over_max_text_bytes() };
        return Err(qr_error(py, error));
    }
    let text = match string.to_str() {
        Ok(text) => text.to_owned(),
        // UTF-8 encodes every code point but a surrogate: that is the only cause.
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(py) => return Err(qr_error(py, lone_surrogate())),
        Err(e) => return Err(e),
    };
    if text.len() > MAX_TEXT_BYTES {
        return Err(qr_error(py, QrError::over_max_text_bytes()));
    }
    Ok(text)
}

/// A binary payload's bytes, as the core reads them with the GIL released.
enum Payload<'py> {
    /// A `bytes` (or a memoryview's `tobytes`): immutable, read in place.
    Shared(Bound<'py, PyBytes>),
    /// A `bytearray`'s bytes, copied: Python code could resize it meanwhile.
    Copied(Vec<u8>),
}

impl Payload<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Payload::Shared(bytes) => bytes.as_bytes(),
            Payload::Copied(bytes) => bytes,
        }
    }
}

/// `qrglue._common.PAYLOAD_TYPE_TEMPLATE`, word for word.
fn payload_type_error(value: &Bound<'_, PyAny>) -> PyErr {
    PyTypeError::new_err(format!("text must be str or bytes-like (bytes, bytearray or memoryview), not {}", type_name(value)))
}

/// `qrglue._common.MEMORYVIEW_TEMPLATE`, word for word.
fn memoryview_error(found: &str) -> PyErr {
    PyTypeError::new_err(format!("a memoryview payload must be C-contiguous bytes (format 'B', 'b' or 'c'), not {found}"))
}

/// A binary payload, checked in the order of `qrglue._common.check_input`:
/// its type (a `TypeError` for anything but bytes, bytearray or a
/// C-contiguous memoryview of bytes), its length before any copy
/// (data-too-long); empty is the core's to refuse.
fn read_payload<'py>(data: &Bound<'py, PyAny>) -> PyResult<Payload<'py>> {
    let py = data.py();
    let fits = |length: usize| if length > MAX_TEXT_BYTES { Err(qr_error(py, QrError::over_max_text_bytes())) } else { Ok(()) };
    let payload = if let Ok(bytes) = data.cast::<PyBytes>() {
        Payload::Shared(bytes.clone())
    } else if let Ok(array) = data.cast::<PyByteArray>() {
        fits(array.len())?;
        Payload::Copied(array.to_vec())
    } else if let Ok(view) = data.cast::<PyMemoryView>() {
        let format = view.getattr("format")?;
        if !matches!(format.extract::<String>()?.as_str(), "B" | "b" | "c") {
            return Err(memoryview_error(&format!("format {}", shown(&format))));
        }
        if !view.getattr("c_contiguous")?.is_truthy()? {
            return Err(memoryview_error("a non-contiguous view"));
        }
        fits(view.getattr("nbytes")?.extract::<usize>()?)?;
        Payload::Shared(view.call_method0("tobytes")?.cast_into::<PyBytes>()?)
    } else {
        return Err(payload_type_error(data));
    };
    fits(payload.as_slice().len())?;
    Ok(payload)
}

fn invalid_options(py: Python<'_>, message: String) -> PyErr {
    qr_error(py, QrError::InvalidOptions(message))
}

/// An `int` (not a `bool`: `True` as a size is a bug, not a 1) within `u32`,
/// what WIT carries; the option's own bounds are the core's to check. An int
/// outside `u32` is refused with the contract's bounds (Micro QR's with
/// `micro`), as the core words any int out of range.
fn u32_option(option: &str, value: &Bound<'_, PyAny>, micro: bool) -> PyResult<u32> {
    let is_int = value.is_instance_of::<PyInt>() && !value.is_instance_of::<PyBool>();
    if is_int && let Ok(number) = value.extract::<u32>() {
        return Ok(number);
    }
    let message = if is_int {
        let spec = contract::option(option).expect("a number option of the table");
        let (min, max) = spec.micro_bounds.filter(|_| micro).or(spec.bounds).expect("a number option has bounds");
        contract::out_of_range(option, min, max, shown(value))
    } else {
        contract::not_integer(option, shown(value))
    };
    Err(invalid_options(value.py(), message))
}

/// A colour as a CSS hex string (`#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`);
/// anything else, a non-`str` included, with the contract's colour message.
fn color(option: &str, value: &Bound<'_, PyAny>) -> PyResult<Rgba> {
    let found = value.cast::<PyString>().ok().and_then(|hex| hex.to_str().ok()).and_then(Rgba::from_hex);
    found.ok_or_else(|| invalid_options(value.py(), contract::bad_color(option, shown(value))))
}

/// `None`, or an `int` within `u32` (`u32_option`'s check and message).
fn optional_u32(option: &str, value: &Bound<'_, PyAny>, micro: bool) -> PyResult<Option<u32>> {
    if value.is_none() { Ok(None) } else { u32_option(option, value, micro).map(Some) }
}

/// Exactly `True` or `False` (WIT `bool`), with the message the other Python
/// paths (and Node) give for anything else.
fn boolean(option: &str, value: &Bound<'_, PyAny>) -> PyResult<bool> {
    if let Ok(flag) = value.cast::<PyBool>() {
        return Ok(flag.is_true());
    }
    Err(invalid_options(value.py(), format!("{option} must be a boolean, got {}", shown(value))))
}

/// The options as Python passes them (`scale`, `version`, `min_version` and
/// `mask` may be `None`), in the order `arguments` reads them.
struct RawOptions<'a, 'py> {
    ec_level: &'a Bound<'py, PyAny>,
    min_size: &'a Bound<'py, PyAny>,
    quiet_zone: &'a Bound<'py, PyAny>,
    scale: &'a Bound<'py, PyAny>,
    dark: &'a Bound<'py, PyAny>,
    light: &'a Bound<'py, PyAny>,
    micro: &'a Bound<'py, PyAny>,
    version: &'a Bound<'py, PyAny>,
    min_version: &'a Bound<'py, PyAny>,
    mask: &'a Bound<'py, PyAny>,
    boost_ec: &'a Bound<'py, PyAny>,
    eci: &'a Bound<'py, PyAny>,
}

/// The symbol options in WIT order, the host's checks alone (types, `u32`);
/// their bounds and combinations are the core's (`Symbol::validate`).
fn read_symbol(raw: &RawOptions<'_, '_>) -> PyResult<Symbol> {
    let micro = boolean("micro", raw.micro)?;
    let version = optional_u32("version", raw.version, micro)?;
    let min_version = optional_u32("min-version", raw.min_version, micro)?;
    let mask = optional_u32("mask", raw.mask, micro)?;
    let boost_ec = boolean("boost-ec", raw.boost_ec)?;
    let eci = boolean("eci", raw.eci)?;
    Ok(Symbol { micro, version, min_version, mask, boost_ec, eci })
}

/// The options in WIT order (ec-level, min-size, quiet-zone, scale, dark,
/// light, then the symbol's): only what WIT cannot carry is refused here
/// (docs/contract.md); the core checks the rest when it runs.
fn read_options(raw: &RawOptions<'_, '_>) -> PyResult<Options> {
    let level = raw.ec_level.cast::<PyString>().ok().and_then(|name| name.to_str().ok()).and_then(EcLevel::from_name);
    let Some(ec_level) = level else {
        return Err(invalid_options(raw.ec_level.py(), contract::bad_ec_level_name(shown(raw.ec_level))));
    };
    // `micro` picks the bounds an int outside u32 is shown with (read again, in its place, by read_symbol).
    let micro = raw.micro.cast::<PyBool>().is_ok_and(|flag| flag.is_true());
    let min_size = u32_option("min-size", raw.min_size, micro)?;
    let quiet_zone = u32_option("quiet-zone", raw.quiet_zone, micro)?;
    let scale = optional_u32("scale", raw.scale, micro)?;
    let dark = color("dark", raw.dark)?;
    let light = color("light", raw.light)?;
    let symbol = read_symbol(raw)?;
    Ok(Options { ec_level, min_size, quiet_zone, scale, dark, light, symbol })
}

/// A text style by its WIT case name; checked after the options' host checks
/// (the caller reads it last), with the message the other Python paths give.
fn read_style(style: &Bound<'_, PyAny>) -> PyResult<TextStyle> {
    let found = style.cast::<PyString>().ok().and_then(|name| name.to_str().ok()).and_then(TextStyle::from_name);
    found.ok_or_else(|| invalid_options(style.py(), contract::bad_text_style_name(shown(style))))
}

/// `None`, or a `str` read as exactly the text it holds (an SVG option's
/// string: `title`, `class`) within `max` UTF-8 bytes; anything else, a lone
/// surrogate or a longer string, is `invalid-options` with the messages of
/// `qrglue._common.check_svg` (the wasm paths never copy a longer one into a
/// guest, so neither is it passed on here).
fn optional_string(option: &str, value: &Bound<'_, PyAny>, max: u32) -> PyResult<Option<String>> {
    let py = value.py();
    if value.is_none() {
        return Ok(None);
    }
    let Ok(string) = value.cast::<PyString>() else {
        return Err(invalid_options(py, format!("{option} must be a string, got {}", shown(value))));
    };
    match string.to_str() {
        Ok(text) if text.len() > max as usize => Err(invalid_options(py, contract::too_long(option, max, text.len()))),
        Ok(text) => Ok(Some(text.to_owned())),
        Err(e) if e.is_instance_of::<PyUnicodeEncodeError>(py) => {
            Err(invalid_options(py, contract::OPTION_LONE_SURROGATE_TEMPLATE.replace("{option}", option)))
        }
        Err(e) => Err(e),
    }
}

/// The SVG options (WIT `svg-options`), in WIT order: the host's own type,
/// lone-surrogate and length checks; the core's `svg_with` checks the rest.
fn read_svg(view_box_only: &Bound<'_, PyAny>, title: &Bound<'_, PyAny>, class: &Bound<'_, PyAny>) -> PyResult<SvgOptions> {
    let view_box_only = boolean("view-box-only", view_box_only)?;
    let title = optional_string("title", title, qrglue_core::MAX_SVG_TITLE_BYTES)?;
    let class = optional_string("class", class, qrglue_core::MAX_SVG_CLASS_BYTES)?;
    Ok(SvgOptions { view_box_only, title, class })
}

/// Text then options: a text error is reported before an options error.
fn arguments(text: &Bound<'_, PyAny>, options: &RawOptions<'_, '_>) -> PyResult<(String, Options)> {
    let text = read_text(text)?;
    Ok((text, read_options(options)?))
}

/// Payload then options: a payload error is reported before an options error.
fn payload_arguments<'py>(data: &Bound<'py, PyAny>, options: &RawOptions<'_, 'py>) -> PyResult<(Payload<'py>, Options)> {
    let payload = read_payload(data)?;
    Ok((payload, read_options(options)?))
}

fn panic_message(payload: &(dyn Any + Send)) -> &str {
    if let Some(message) = payload.downcast_ref::<&str>() {
        message
    } else if let Some(message) = payload.downcast_ref::<String>() {
        message
    } else {
        "(no message)"
    }
}

/// Runs `call`; a panic anywhere in it (with or without the GIL) becomes
/// `NativePanic` instead of PyO3's `PanicException`, a `BaseException` that
/// `except Exception` would not catch.
fn guarded<T>(call: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    catch_unwind(AssertUnwindSafe(call))
        .unwrap_or_else(|payload| Err(NativePanic::new_err(format!("qrglue native: Rust panicked: {}", panic_message(&*payload)))))
}

/// Runs the core with the GIL released; its error as `qrglue.QrError`.
fn core<T: Send>(py: Python<'_>, work: impl Send + FnOnce() -> Result<T, QrError>) -> PyResult<T> {
    py.detach(work).map_err(|e| qr_error(py, e))
}

/// A `u32` argument of a probe, as `qrglue._generator._u32` checks it.
fn read_u32(value: &Bound<'_, PyAny>) -> PyResult<u32> {
    if !value.is_instance_of::<PyBool>()
        && value.is_instance_of::<PyInt>()
        && let Ok(number) = value.extract::<u32>()
    {
        return Ok(number);
    }
    Err(PyValueError::new_err(format!("expected an int in 0..2**32, got {}", shown(value))))
}

/// Declares one generating function: its parameters, every one a
/// `&Bound<'py, PyAny>`, are the input (`text` or `data`) and the function's
/// own (`style`, `times`, the SVG options) around `[$options]`, which stands
/// for the twelve options every generating function takes, positional in
/// WIT order (ec_level, min_size, quiet_zone, scale, dark, light, micro,
/// version, min_version, mask, boost_ec, eci); they reach `$body` gathered into
/// `$options` (a [`RawOptions`]). A macro so that the twelve shared
/// parameters and their `RawOptions` are written once, not in each of the
/// nine functions; the names, parameters and their order (Python's
/// `__text_signature__`, `_native.pyi`) are unchanged.
macro_rules! generating_function {
    (
        $(#[$attr:meta])*
        fn $name:ident<$py:lifetime>($($before:ident,)+ [$options:ident] $(, $after:ident)* $(,)?) -> $output:ty $body:block
    ) => {
        $(#[$attr])*
        #[pyfunction]
        #[allow(clippy::too_many_arguments)] // the options, positional: qrglue.native names them
        fn $name<$py>(
            $($before: &Bound<$py, PyAny>,)+
            ec_level: &Bound<$py, PyAny>,
            min_size: &Bound<$py, PyAny>,
            quiet_zone: &Bound<$py, PyAny>,
            scale: &Bound<$py, PyAny>,
            dark: &Bound<$py, PyAny>,
            light: &Bound<$py, PyAny>,
            micro: &Bound<$py, PyAny>,
            version: &Bound<$py, PyAny>,
            min_version: &Bound<$py, PyAny>,
            mask: &Bound<$py, PyAny>,
            boost_ec: &Bound<$py, PyAny>,
            eci: &Bound<$py, PyAny>,
            $($after: &Bound<$py, PyAny>,)*
        ) -> $output {
            let $options =
                RawOptions { ec_level, min_size, quiet_zone, scale, dark, light, micro, version, min_version, mask, boost_ec, eci };
            $body
        }
    };
}

generating_function! {
    /// The QR code for `text` as PNG bytes. Options positional, unresolved
    /// (`scale`, `version`, `min_version`, `mask` may be `None`):
    /// `qrglue.native.png` supplies the defaults.
    fn png<'py>(text, [options]) -> PyResult<Bound<'py, PyBytes>> {
        let py = text.py();
        guarded(|| {
            let (text, options) = arguments(text, &options)?;
            let png = core(py, move || qrglue_core::png(&text, &options))?;
            Ok(PyBytes::new(py, &png))
        })
    }
}

generating_function! {
    /// The QR code for `text` as an SVG document, written as the SVG options
    /// (`view_box_only`, `title`, `class`) ask.
    fn svg<'py>(text, [options], view_box_only, title, class) -> PyResult<Bound<'py, PyString>> {
        let py = text.py();
        guarded(|| {
            let (text, options) = arguments(text, &options)?;
            let svg = read_svg(view_box_only, title, class)?;
            let svg = core(py, move || qrglue_core::svg_with(&text, &options, &svg))?;
            Ok(PyString::new(py, &svg))
        })
    }
}

generating_function! {
    /// The module matrix for `text` as `(width, modules)`: the modules packed
    /// as WIT's `qr-matrix` packs them (`qrglue.native.matrix` wraps the pair in
    /// a `QrMatrix`).
    fn matrix<'py>(text, [options]) -> PyResult<(usize, Bound<'py, PyBytes>)> {
        let py = text.py();
        guarded(|| {
            let (text, options) = arguments(text, &options)?;
            let (width, modules) = core(py, move || qrglue_core::matrix(&text, &options).map(|m| (m.width(), m.packed_modules())))?;
            Ok((width, PyBytes::new(py, &modules)))
        })
    }
}

generating_function! {
    /// The QR code for `text` as lines of text in `style` (a WIT case name,
    /// checked after the options).
    fn text<'py>(text, style, [options]) -> PyResult<Bound<'py, PyString>> {
        let py = text.py();
        guarded(|| {
            let (text, options) = arguments(text, &options)?;
            let style = read_style(style)?;
            let drawn = core(py, move || qrglue_core::text(&text, &options, style))?;
            Ok(PyString::new(py, &drawn))
        })
    }
}

generating_function! {
    /// The QR code for a binary payload (bytes, bytearray or memoryview) as PNG
    /// bytes: `png`'s twin over `qrglue_core::png_bytes`.
    fn png_bytes<'py>(data, [options]) -> PyResult<Bound<'py, PyBytes>> {
        let py = data.py();
        guarded(|| {
            let (payload, options) = payload_arguments(data, &options)?;
            let data = payload.as_slice();
            let png = core(py, move || qrglue_core::png_bytes(data, &options))?;
            Ok(PyBytes::new(py, &png))
        })
    }
}

generating_function! {
    /// The QR code for a binary payload as an SVG document (SVG options as for `svg`).
    fn svg_bytes<'py>(data, [options], view_box_only, title, class) -> PyResult<Bound<'py, PyString>> {
        let py = data.py();
        guarded(|| {
            let (payload, options) = payload_arguments(data, &options)?;
            let svg = read_svg(view_box_only, title, class)?;
            let data = payload.as_slice();
            let svg = core(py, move || qrglue_core::svg_bytes_with(data, &options, &svg))?;
            Ok(PyString::new(py, &svg))
        })
    }
}

generating_function! {
    /// The module matrix for a binary payload as `(width, modules)`.
    fn matrix_bytes<'py>(data, [options]) -> PyResult<(usize, Bound<'py, PyBytes>)> {
        let py = data.py();
        guarded(|| {
            let (payload, options) = payload_arguments(data, &options)?;
            let data = payload.as_slice();
            let (width, modules) = core(py, move || qrglue_core::matrix_bytes(data, &options).map(|m| (m.width(), m.packed_modules())))?;
            Ok((width, PyBytes::new(py, &modules)))
        })
    }
}

generating_function! {
    /// The QR code for a binary payload as lines of text in `style` (checked
    /// after the options, as for `text`).
    fn text_bytes<'py>(data, style, [options]) -> PyResult<Bound<'py, PyString>> {
        let py = data.py();
        guarded(|| {
            let (payload, options) = payload_arguments(data, &options)?;
            // Equal colours before the style, as for `text`.
            let style = read_style(style)?;
            let data = payload.as_slice();
            let drawn = core(py, move || qrglue_core::text_bytes(data, &options, style))?;
            Ok(PyString::new(py, &drawn))
        })
    }
}

generating_function! {
    /// Probe: renders the PNG `times` times in Rust (GIL released); the last
    /// PNG's length.
    fn png_repeat<'py>(text, times, [options]) -> PyResult<u32> {
        let py = text.py();
        guarded(|| {
            let (text, options) = arguments(text, &options)?;
            let times = read_u32(times)?;
            core(py, move || probe::png_repeat(&text, &options, times))
        })
    }
}

/// Probe: does nothing; the fixed cost of one call.
#[pyfunction]
fn noop() {}

/// Probe: `data`'s length. A `bytes` is read in place (no copy); anything
/// else goes through `bytes(data)`, as on the other paths.
#[pyfunction]
fn consume(data: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(bytes) = data.cast::<PyBytes>() {
        return Ok(std::hint::black_box(bytes.as_bytes()).len());
    }
    let copied = data.py().get_type::<PyBytes>().call1((data,))?;
    Ok(std::hint::black_box(copied.cast::<PyBytes>()?.as_bytes()).len())
}

/// Probe: `length` bytes, byte i = i mod 251; over 16 MiB is
/// `invalid-options`, as on the raw path.
#[pyfunction]
fn produce<'py>(length: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let py = length.py();
    let length = read_u32(length)?;
    if length > probe::MAX_PRODUCE_BYTES {
        let message = format!("produce: len must be at most {}, got {length}", probe::MAX_PRODUCE_BYTES);
        return Err(qr_error(py, QrError::InvalidOptions(message)));
    }
    guarded(|| Ok(PyBytes::new(py, &probe::pattern(length as usize))))
}

/// Probe: panics in Rust, always, with the GIL released (the unwind crosses
/// `py.detach`), so tests can check it is raised as `NativePanic` and that
/// Python and the next call carry on.
#[pyfunction]
fn panic(py: Python<'_>) -> PyResult<()> {
    guarded(|| {
        py.detach(|| {
            if std::hint::black_box(true) {
                panic!("qrglue native: the panic probe was called");
            }
        });
        Ok(())
    })
}

pyo3::create_exception!(
    qrglue._native,
    QueryRefused,
    PyValueError,
    "The HTTP endpoint's query was refused: args are (kind, message), tests/http/README.md's words."
);

/// The query of the HTTP endpoint's `GET /qrcode` (tests/http/README.md),
/// checked by guest/http-query, the one grammar every server uses: for
/// hosts/python/server, which imports this extension for it on every tier.
/// Not part of the qrglue API (`qrglue.native` does not export it).
///
/// `query` is what the client sent after the `?`, as bytes; `alone` is for
/// the tiers that answer without a qrglue generator (static, segno): an
/// empty text is then `empty-text` and the options pass the core's own
/// checks here. Returns `(text, options)`, the options the query gives under
/// the Python API's keyword names (`ec_level`, `min_size`, ..., colours as
/// `#rrggbbaa`); an empty text (without `alone`) is `("", {})`, for the
/// generator to refuse. A refusal raises `QueryRefused(kind, message)`.
#[pyfunction]
#[pyo3(signature = (query, alone, /))]
fn http_query<'py>(py: Python<'py>, query: &[u8], alone: bool) -> PyResult<(String, Bound<'py, PyDict>)> {
    use qrglue_http_query::{Checked, Value, with_core};
    let refused = |r: qrglue_http_query::Refusal| QueryRefused::new_err((r.kind, r.message));
    let request = guarded(|| {
        if alone {
            Ok(Some(with_core::check_alone(query).map_err(refused)?))
        } else {
            match with_core::check(query).map_err(refused)? {
                Checked::Empty => Ok(None),
                Checked::Request(request) => Ok(Some(request)),
            }
        }
    })?;
    let options = PyDict::new(py);
    let Some(request) = request else { return Ok((String::new(), options)) };
    for (name, value) in request.given() {
        // The Python API's keyword: the WIT name in snake_case.
        let key = name.replace('-', "_");
        match value {
            Value::Level(level) => options.set_item(key, level.as_str())?,
            Value::Number(n) => options.set_item(key, n)?,
            Value::Color(c) => options.set_item(key, c.to_hex())?,
            Value::Flag(b) => options.set_item(key, b)?,
        }
    }
    Ok((request.text, options))
}

/// A request method's class: `served` (GET, HEAD), `not-allowed` (405) or
/// `unknown` (400: methods are case-sensitive); guest/http-query's rule, for
/// hosts/python/server.
#[pyfunction]
#[pyo3(signature = (method, /))]
fn http_method_class(method: &str) -> &'static str {
    match qrglue_http_query::method_class(method) {
        qrglue_http_query::MethodClass::Served => "served",
        qrglue_http_query::MethodClass::NotAllowed => "not-allowed",
        qrglue_http_query::MethodClass::Unknown => "unknown",
    }
}

#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add("NativePanic", module.py().get_type::<NativePanic>())?;
    module.add("MAX_TEXT_BYTES", MAX_TEXT_BYTES)?;
    module.add("MAX_PRODUCE_BYTES", probe::MAX_PRODUCE_BYTES)?;
    module.add_function(wrap_pyfunction!(png, module)?)?;
    module.add_function(wrap_pyfunction!(svg, module)?)?;
    module.add_function(wrap_pyfunction!(matrix, module)?)?;
    module.add_function(wrap_pyfunction!(text, module)?)?;
    module.add_function(wrap_pyfunction!(png_bytes, module)?)?;
    module.add_function(wrap_pyfunction!(svg_bytes, module)?)?;
    module.add_function(wrap_pyfunction!(matrix_bytes, module)?)?;
    module.add_function(wrap_pyfunction!(text_bytes, module)?)?;
    module.add_function(wrap_pyfunction!(png_repeat, module)?)?;
    module.add_function(wrap_pyfunction!(noop, module)?)?;
    module.add_function(wrap_pyfunction!(consume, module)?)?;
    module.add_function(wrap_pyfunction!(produce, module)?)?;
    module.add_function(wrap_pyfunction!(panic, module)?)?;
    module.add("QueryRefused", module.py().get_type::<QueryRefused>())?;
    module.add("HTTP_UNKNOWN_METHOD_MESSAGE", qrglue_http_query::UNKNOWN_METHOD_MESSAGE)?;
    module.add("HTTP_NO_HOST_MESSAGE", qrglue_http_query::NO_HOST_MESSAGE)?;
    module.add_function(wrap_pyfunction!(http_query, module)?)?;
    module.add_function(wrap_pyfunction!(http_method_class, module)?)?;
    Ok(())
}
