//! The hand-written alloc/pointer ABI: qrglue-core as a plain core module.
//!
//! guest/raw/ABI.md is the contract; this file implements it. In short:
//! - the host gets buffers from `qr_alloc`, writes the text (or a binary
//!   payload), and passes (ptr, len) to `qr_png`/`qr_svg`/`qr_matrix`/`qr_text`
//!   (or their `_bytes` twins), which take ownership of that buffer;
//! - every generating call returns a pointer to a 12-byte result record
//!   `{status, payload_ptr, payload_len}` (u32, little-endian); status 0 is
//!   success, 1..=4 the WIT `qr-error` kinds with a UTF-8 message as payload;
//! - the host copies the payload out, then calls `qr_free(record)`, which
//!   frees the record and its payload.
//!
//! Every buffer the guest hands out is recorded in a registry. A pointer or
//! length that does not match a live buffer is answered with an error (or
//! ignored, for `qr_free`), never dereferenced: no host can make the guest
//! read or free memory it did not hand out.

#![cfg(target_arch = "wasm32")]
// The exports pass the contract's options as flat integers (the ABI's shape,
// ABI.md), one argument each: up to seventeen arguments is the design, not a smell.
#![allow(clippy::too_many_arguments)]

use std::cell::RefCell;
use std::collections::BTreeMap;

use qrglue_core::{Options, QrError, contract, flat};

/// The largest buffer `qr_alloc` hands out: 16 MiB, a quarter of the
/// guest's 64 MiB memory (texts are capped far lower, at 7089 bytes, but
/// the `consume` probe measures lowering up to this size).
const MAX_ALLOC: u32 = 16 << 20;

/// Status of a result record on success.
const STATUS_OK: u32 = 0;

/// What the registry holds for a pointer the guest handed out.
enum Owned {
    /// A buffer from `qr_alloc`, for the host to fill.
    Input(Vec<u8>),
    /// A result record; the payload it points to is freed with it.
    Result { _record: Box<[u32; 3]>, _payload: Vec<u8> },
}

thread_local! {
    // wasm32-unknown-unknown without threads: one instance, one registry.
    static LIVE: RefCell<BTreeMap<u32, Owned>> = const { RefCell::new(BTreeMap::new()) };
}

/// Hands out `len` bytes (1..=16 MiB) for the host to write into. Returns 0
/// if `len` is 0 or too large, or memory is exhausted.
#[unsafe(no_mangle)]
pub extern "C" fn qr_alloc(len: u32) -> u32 {
    if len == 0 || len > MAX_ALLOC {
        return 0;
    }
    let mut buffer = Vec::new();
    if buffer.try_reserve_exact(len as usize).is_err() {
        return 0;
    }
    buffer.resize(len as usize, 0);
    let ptr = buffer.as_ptr() as u32;
    LIVE.with_borrow_mut(|live| live.insert(ptr, Owned::Input(buffer)));
    ptr
}

/// Frees a buffer from `qr_alloc` or a result record (with its payload).
/// Returns 0 if freed, 1 if `ptr` is not a live buffer (nothing is done).
#[unsafe(no_mangle)]
pub extern "C" fn qr_free(ptr: u32) -> u32 {
    match LIVE.with_borrow_mut(|live| live.remove(&ptr)) {
        Some(_) => 0,
        None => 1,
    }
}

/// The version of this ABI; a host checks it before the first call.
#[unsafe(no_mangle)]
pub extern "C" fn qr_abi_version() -> u32 {
    contract::RAW_ABI_VERSION
}

/// Declares one generating export with the ABI's flat parameters: (ptr, len),
/// then the eleven option integers every generating call takes, then the
/// export's own (`$extra`). They reach `$body` as `ptr`, `len`, the options
/// gathered into `$options` (`[u32; 11]`, the order of [`flat::options`]) and the
/// extras by their names. A macro so that the thirteen shared parameters are
/// written once, not in each of the nine exports (a text export and its
/// `_bytes` twin differ only in [`Payload`]); the exported names, parameters
/// and their order stay ABI.md's.
macro_rules! generating_export {
    (
        $(#[$attr:meta])*
        fn $name:ident($ptr:ident, $len:ident, $options:ident $(, $extra:ident)* $(,)?) $body:block
    ) => {
        $(#[$attr])*
        #[unsafe(no_mangle)]
        pub extern "C" fn $name(
            $ptr: u32,
            $len: u32,
            ec_level: u32,
            min_size: u32,
            quiet_zone: u32,
            has_scale: u32,
            scale: u32,
            dark: u32,
            light: u32,
            symbol_flags: u32,
            version: u32,
            min_version: u32,
            mask: u32,
            $($extra: u32,)*
        ) -> u32 {
            let $options = [ec_level, min_size, quiet_zone, has_scale, scale, dark, light, symbol_flags, version, min_version, mask];
            $body
        }
    };
}

generating_export! {
    /// PNG for the text in (ptr, len). Takes ownership of the buffer.
    fn qr_png(ptr, len, options) {
        result_record(generate(Payload::Text, ptr, len, options, |data, options| qrglue_core::png_bytes(data, &options)))
    }
}

generating_export! {
    /// PNG for the binary payload in (ptr, len) (any bytes, not only UTF-8). Takes ownership of the buffer.
    fn qr_png_bytes(ptr, len, options) {
        result_record(generate(Payload::Bytes, ptr, len, options, |data, options| qrglue_core::png_bytes(data, &options)))
    }
}

generating_export! {
    /// SVG for the text in (ptr, len). Takes ownership of the buffer.
    fn qr_svg(ptr, len, options, svg_flags, title_len, strings_ptr, strings_len) {
        // Taken first, so that the guest owns (and frees) it whatever the outcome.
        let svg = svg_options(svg_flags, title_len, strings_ptr, strings_len);
        result_record(generate(Payload::Text, ptr, len, options, |data, options| svg_payload(data, &options, svg)))
    }
}

generating_export! {
    /// SVG for the binary payload in (ptr, len). Takes ownership of the buffer.
    fn qr_svg_bytes(ptr, len, options, svg_flags, title_len, strings_ptr, strings_len) {
        // Taken first, so that the guest owns (and frees) it whatever the outcome.
        let svg = svg_options(svg_flags, title_len, strings_ptr, strings_len);
        result_record(generate(Payload::Bytes, ptr, len, options, |data, options| svg_payload(data, &options, svg)))
    }
}

generating_export! {
    /// The module matrix for the text in (ptr, len): the payload is the width as
    /// a little-endian u32, then the packed modules (wit/qr.wit's `qr-matrix`). Takes ownership of the buffer.
    fn qr_matrix(ptr, len, options) {
        result_record(generate(Payload::Text, ptr, len, options, matrix_payload))
    }
}

generating_export! {
    /// The module matrix for the binary payload in (ptr, len). Takes ownership of the buffer.
    fn qr_matrix_bytes(ptr, len, options) {
        result_record(generate(Payload::Bytes, ptr, len, options, matrix_payload))
    }
}

generating_export! {
    /// The text form of the code for the text in (ptr, len), in `style` (0..=2,
    /// WIT order; checked after the options). Takes ownership of the buffer.
    fn qr_text(ptr, len, options, style) {
        result_record(generate(Payload::Text, ptr, len, options, |data, options| text_payload(data, &options, style)))
    }
}

generating_export! {
    /// The text form of the code for the binary payload in (ptr, len), in
    /// `style`. Takes ownership of the buffer.
    fn qr_text_bytes(ptr, len, options, style) {
        result_record(generate(Payload::Bytes, ptr, len, options, |data, options| text_payload(data, &options, style)))
    }
}

/// The payload of `qr_matrix`: the width as a little-endian u32, then the
/// packed modules.
fn matrix_payload(data: &[u8], options: Options) -> Result<Vec<u8>, QrError> {
    let matrix = qrglue_core::matrix_bytes(data, &options)?;
    let mut payload = (matrix.width() as u32).to_le_bytes().to_vec();
    payload.extend(matrix.packed_modules());
    Ok(payload)
}

/// `qr_svg`'s SVG options from its arguments (ABI.md): the flags word, then
/// one buffer holding the title's UTF-8 (its first `title_len` bytes) and the
/// class's (the rest). The buffer is taken out of the registry here, used or
/// not (never leaked); its errors wait for [`svg_payload`], after the
/// payload's and the options' own.
fn svg_options(flags: u32, title_len: u32, ptr: u32, len: u32) -> Result<qrglue_core::SvgOptions, QrError> {
    let strings = take_input(ptr, len).map_err(|_| {
        QrError::InvalidOptions(format!("svg strings buffer ({ptr:#x}, {len}) is not a live qr_alloc buffer of at least {len} bytes"))
    });
    // The flags word is checked before the buffer (the order this ABI has always had).
    if flags > contract::RAW_SVG_FLAGS_MAX {
        return Err(QrError::InvalidOptions(contract::out_of_range("svg-flags", 0, contract::RAW_SVG_FLAGS_MAX, flags)));
    }
    flat::svg_options(flags, title_len, &strings?)
}

/// The payload of `qr_svg`: the SVG options are checked after the options.
fn svg_payload(data: &[u8], options: &Options, svg: Result<qrglue_core::SvgOptions, QrError>) -> Result<Vec<u8>, QrError> {
    options.validate()?;
    qrglue_core::svg_bytes_with(data, options, &svg?).map(String::into_bytes)
}

/// The payload of `qr_text`: the style (an index) is checked after the options.
fn text_payload(data: &[u8], options: &Options, style: u32) -> Result<Vec<u8>, QrError> {
    options.validate()?;
    let style = flat::text_style(style)?;
    qrglue_core::text_bytes(data, options, style).map(String::into_bytes)
}

/// Probe: does nothing.
#[unsafe(no_mangle)]
pub extern "C" fn qr_noop() {}

/// Probe: takes ownership of the buffer (ptr, len) and returns `len`, or
/// u32::MAX if (ptr, len) is not a live buffer of at least `len` bytes.
/// (0, 0) is the empty list.
#[unsafe(no_mangle)]
pub extern "C" fn qr_consume(ptr: u32, len: u32) -> u32 {
    match take_input(ptr, len) {
        Ok(bytes) => bytes.len() as u32,
        Err(_) => u32::MAX,
    }
}

/// Probe: a result record whose payload is `len` bytes, byte i = i mod 251;
/// `invalid-options` if `len` is over 16 MiB.
#[unsafe(no_mangle)]
pub extern "C" fn qr_produce(len: u32) -> u32 {
    let outcome = if len <= qrglue_core::probe::MAX_PRODUCE_BYTES {
        Ok(qrglue_core::probe::pattern(len as usize))
    } else {
        Err(QrError::InvalidOptions(format!("produce: len must be at most {}, got {len}", qrglue_core::probe::MAX_PRODUCE_BYTES)))
    };
    result_record(outcome)
}

generating_export! {
    /// Probe: renders the PNG `times` times in the guest; on success the payload
    /// is the last PNG's length as 4 little-endian bytes. Takes ownership of the
    /// text buffer.
    fn qr_png_repeat(ptr, len, options, times) {
        let outcome = generate(Payload::Text, ptr, len, options, |data, options| {
            // generate checked that the data is UTF-8.
            let text = qrglue_core::text_from_utf8(data)?;
            qrglue_core::probe::png_repeat(text, &options, times).map(|n| n.to_le_bytes().to_vec())
        });
        result_record(outcome)
    }
}

/// Probe: traps, always (wasm `unreachable`), so hosts can test recovery.
#[unsafe(no_mangle)]
pub extern "C" fn qr_trap() {
    core::arch::wasm32::unreachable()
}

/// Probe: the linear memory size in 64 KiB pages (bounded-memory tests).
#[unsafe(no_mangle)]
pub extern "C" fn qr_memory_pages() -> u32 {
    core::arch::wasm32::memory_size(0) as u32
}

/// What the buffer of a generating call holds: a text (its UTF-8, checked) or
/// a binary payload (the `*_bytes` calls: any bytes).
#[derive(Clone, Copy)]
enum Payload {
    Text,
    Bytes,
}

/// The common body of every generating call: takes the host's buffer out of
/// the registry ((0, 0) is the empty payload), checks it (UTF-8 for a text),
/// then the payload's length and the options (the contract's order), and
/// runs `f` on the payload's bytes.
fn generate(
    payload: Payload,
    ptr: u32,
    len: u32,
    arguments: [u32; flat::OPTION_WORDS],
    f: impl FnOnce(&[u8], Options) -> Result<Vec<u8>, QrError>,
) -> Result<Vec<u8>, QrError> {
    let bytes = take_input(ptr, len)?;
    if let Payload::Text = payload {
        qrglue_core::text_from_utf8(&bytes)?;
    }
    qrglue_core::validate_payload(&bytes)?;
    f(&bytes, flat::options(arguments)?)
}

/// Removes the input buffer at `ptr` from the registry and returns its first
/// `len` bytes. Anything but a live `qr_alloc` buffer of at least `len`
/// bytes is `invalid-text`, and the registry is left as it was.
fn take_input(ptr: u32, len: u32) -> Result<Vec<u8>, QrError> {
    if ptr == 0 && len == 0 {
        return Ok(Vec::new());
    }
    LIVE.with_borrow_mut(|live| match live.get(&ptr) {
        Some(Owned::Input(buffer)) if len as usize <= buffer.len() => {
            let Some(Owned::Input(mut buffer)) = live.remove(&ptr) else { unreachable!("checked just above") };
            buffer.truncate(len as usize);
            Ok(buffer)
        }
        _ => Err(QrError::InvalidText(format!("text buffer ({ptr:#x}, {len}) is not a live qr_alloc buffer of at least {len} bytes"))),
    })
}

/// Registers a result record for `outcome` and returns its address.
fn result_record(outcome: Result<Vec<u8>, QrError>) -> u32 {
    let (status, payload) = match outcome {
        Ok(bytes) => (STATUS_OK, bytes),
        // Status codes are the core's ErrorKind::code (the contract's status_codes).
        Err(error) => (error.kind().code(), error.to_string().into_bytes()),
    };
    // The record's layout is ABI.md's; its size is the contract's RAW_RECORD_BYTES.
    let record = Box::new([status, payload.as_ptr() as u32, payload.len() as u32]);
    let ptr = &*record as *const [u32; 3] as u32;
    LIVE.with_borrow_mut(|live| live.insert(ptr, Owned::Result { _record: record, _payload: payload }));
    ptr
}

// The record is three u32s: the contract's RAW_RECORD_BYTES.
const _: () = assert!(size_of::<[u32; 3]>() == contract::RAW_RECORD_BYTES as usize);
