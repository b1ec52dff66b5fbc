//! qrglue-core as an Extism plug-in: the raw ABI's calls (guest/raw/ABI.md)
//! with Extism's PDK doing the alloc/pointer work. README.md beside this
//! file is the contract: each export's input (the raw ABI's option words,
//! little-endian, then the payload), its output (the raw ABI's payload), and
//! how a contract error travels (Extism's error string `"<kind>: <message>"`
//! and the kind's raw status code as the call's return code).
//!
//! The options are decoded by `qrglue_core::flat`, the decoder guest/raw
//! uses: the two guests differ only in how bytes cross the boundary.

#![cfg(target_arch = "wasm32")]

use extism_pdk::{Error, FnResult, WithReturnCode, plugin_fn};
use qrglue_core::flat::{self, OPTION_WORDS};
use qrglue_core::{Options, QrError};

/// Return code of a call whose input does not follow README.md (a host bug,
/// not a contract error): past the four contract kinds' codes (1..=4).
const MALFORMED_INPUT: i32 = 5;

/// The input cut into its parts: `words` little-endian u32s, then the rest.
struct Input {
    words: Vec<u32>,
    rest: Vec<u8>,
}

fn split(mut input: Vec<u8>, words: usize) -> Result<Input, WithReturnCode<Error>> {
    let head = words * 4;
    if input.len() < head {
        return Err(malformed(format!("input is {} bytes, shorter than its {words} option words ({head} bytes)", input.len())));
    }
    let parsed = input[..head].chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect();
    // The payload is moved, not copied: drain the head off the front.
    input.drain(..head);
    Ok(Input { words: parsed, rest: input })
}

fn malformed(message: String) -> WithReturnCode<Error> {
    WithReturnCode::new(Error::msg(format!("malformed-input: {message}")), MALFORMED_INPUT)
}

/// A contract error as Extism's error: the message is `"<kind>: <message>"`
/// (the WIT case name, then the same text as the raw ABI's error payload),
/// the return code the raw ABI's status for that kind.
fn contract_error(error: QrError) -> WithReturnCode<Error> {
    let kind = error.kind();
    WithReturnCode::new(Error::msg(format!("{}: {error}", kind.as_str())), kind.code() as i32)
}

/// The first eleven words as the option array.
fn option_words(words: &[u32]) -> [u32; OPTION_WORDS] {
    words[..OPTION_WORDS].try_into().expect("split checked the length")
}

/// What the payload is: a text (UTF-8, checked) or any bytes (`*_bytes`).
#[derive(Clone, Copy)]
enum Payload {
    Text,
    Bytes,
}

/// The common body of every generating call, in the contract's check order
/// (as guest/raw's `generate`): the text checks, then the options, then `f`.
fn generate(
    payload: Payload,
    data: &[u8],
    words: [u32; OPTION_WORDS],
    f: impl FnOnce(&[u8], Options) -> Result<Vec<u8>, QrError>,
) -> FnResult<Vec<u8>> {
    let run = || {
        if let Payload::Text = payload {
            qrglue_core::text_from_utf8(data)?;
        }
        qrglue_core::validate_payload(data)?;
        f(data, flat::options(words)?)
    };
    run().map_err(contract_error)
}

fn png(payload: Payload, input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, rest } = split(input, OPTION_WORDS)?;
    generate(payload, &rest, option_words(&words), |data, options| qrglue_core::png_bytes(data, &options))
}

fn matrix(payload: Payload, input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, rest } = split(input, OPTION_WORDS)?;
    generate(payload, &rest, option_words(&words), |data, options| {
        let matrix = qrglue_core::matrix_bytes(data, &options)?;
        let mut out = (matrix.width() as u32).to_le_bytes().to_vec();
        out.extend(matrix.packed_modules());
        Ok(out)
    })
}

/// SVG: after the options, `svg_flags, title_len, strings_len`; the payload
/// follows the `strings_len` bytes of title and class.
fn svg(payload: Payload, input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, mut rest } = split(input, OPTION_WORDS + 3)?;
    let [svg_flags, title_len, strings_len] = [words[OPTION_WORDS], words[OPTION_WORDS + 1], words[OPTION_WORDS + 2]];
    if strings_len as usize > rest.len() {
        return Err(malformed(format!("strings-len {strings_len} is past the input's end ({} bytes left)", rest.len())));
    }
    let data = rest.split_off(strings_len as usize);
    let strings = rest;
    generate(payload, &data, option_words(&words), |data, options| {
        // The SVG options are checked after the options (contract order).
        options.validate()?;
        let svg = flat::svg_options(svg_flags, title_len, &strings)?;
        qrglue_core::svg_bytes_with(data, &options, &svg).map(String::into_bytes)
    })
}

/// Text: after the options, `style`.
fn text(payload: Payload, input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, rest } = split(input, OPTION_WORDS + 1)?;
    let style = words[OPTION_WORDS];
    generate(payload, &rest, option_words(&words), |data, options| {
        options.validate()?;
        qrglue_core::text_bytes(data, &options, flat::text_style(style)?).map(String::into_bytes)
    })
}

#[plugin_fn]
pub fn qr_png(input: Vec<u8>) -> FnResult<Vec<u8>> {
    png(Payload::Text, input)
}

#[plugin_fn]
pub fn qr_png_bytes(input: Vec<u8>) -> FnResult<Vec<u8>> {
    png(Payload::Bytes, input)
}

#[plugin_fn]
pub fn qr_svg(input: Vec<u8>) -> FnResult<Vec<u8>> {
    svg(Payload::Text, input)
}

#[plugin_fn]
pub fn qr_svg_bytes(input: Vec<u8>) -> FnResult<Vec<u8>> {
    svg(Payload::Bytes, input)
}

#[plugin_fn]
pub fn qr_matrix(input: Vec<u8>) -> FnResult<Vec<u8>> {
    matrix(Payload::Text, input)
}

#[plugin_fn]
pub fn qr_matrix_bytes(input: Vec<u8>) -> FnResult<Vec<u8>> {
    matrix(Payload::Bytes, input)
}

#[plugin_fn]
pub fn qr_text(input: Vec<u8>) -> FnResult<Vec<u8>> {
    text(Payload::Text, input)
}

#[plugin_fn]
pub fn qr_text_bytes(input: Vec<u8>) -> FnResult<Vec<u8>> {
    text(Payload::Bytes, input)
}

/// Probe: the fixed cost of an Extism call (no input read, no output).
#[plugin_fn]
pub fn qr_noop() -> FnResult<()> {
    Ok(())
}

/// Probe: reads the input (any bytes) and returns its length as 4
/// little-endian bytes: the cost of moving bytes in.
#[plugin_fn]
pub fn qr_consume(input: Vec<u8>) -> FnResult<Vec<u8>> {
    Ok((input.len() as u32).to_le_bytes().to_vec())
}

/// Probe: input `len` (4 little-endian bytes), output `len` bytes, byte i =
/// i mod 251: the cost of moving bytes out.
#[plugin_fn]
pub fn qr_produce(input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, .. } = split(input, 1)?;
    let len = words[0];
    if len > qrglue_core::probe::MAX_PRODUCE_BYTES {
        return Err(contract_error(QrError::InvalidOptions(format!(
            "produce: len must be at most {}, got {len}",
            qrglue_core::probe::MAX_PRODUCE_BYTES
        ))));
    }
    Ok(qrglue_core::probe::pattern(len as usize))
}

/// Probe: the guest-only cost, as guest/raw's `qr_png_repeat`: the options,
/// then `times`, then the text; output the last PNG's length (4 bytes LE).
#[plugin_fn]
pub fn qr_png_repeat(input: Vec<u8>) -> FnResult<Vec<u8>> {
    let Input { words, rest } = split(input, OPTION_WORDS + 1)?;
    let times = words[OPTION_WORDS];
    generate(Payload::Text, &rest, option_words(&words), |data, options| {
        let text = qrglue_core::text_from_utf8(data)?;
        qrglue_core::probe::png_repeat(text, &options, times).map(|n| n.to_le_bytes().to_vec())
    })
}
