//! The query of `GET /qrcode`, checked as `tests/http/README.md` orders it:
//! bad-query (syntax, names, repeats, missing text), invalid-text,
//! empty-text, text-too-long, then invalid-options for values that are not
//! an ec-level name or a decimal u32. Ranges are the generator's to refuse.

use qrglue_core::EcLevel;

/// The endpoint's own text limit (the experiment's), in UTF-8 bytes.
pub const MAX_TEXT_BYTES: usize = 512;

pub struct HttpError {
    pub kind: &'static str,
    pub message: String,
}

pub enum Checked {
    /// `text=` with nothing in it: the generator reports empty-text.
    Empty,
    Request {
        text: String,
        ec_level: Option<EcLevel>,
        min_size: Option<u32>,
        quiet_zone: Option<u32>,
    },
}

fn bad(kind: &'static str, message: impl Into<String>) -> HttpError {
    HttpError { kind, message: message.into() }
}

/// `+` is a space; `%XY` is the byte 0xXY; a `%` without two hex digits is
/// malformed.
fn decode(part: &str) -> Result<Vec<u8>, HttpError> {
    let bytes = part.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                    (Some(hi), Some(lo)) => out.push((hi * 16 + lo) as u8),
                    _ => return Err(bad("bad-query", "malformed percent-encoding in the query (a % must be followed by two hex digits)")),
                }
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    Ok(out)
}

/// 1 to 10 ASCII digits with a value that fits a u32 (the WIT type).
fn uint(name: &str, value: &[u8]) -> Result<u32, HttpError> {
    let digits = value.len() <= 10 && !value.is_empty() && value.iter().all(u8::is_ascii_digit);
    match std::str::from_utf8(value).ok().filter(|_| digits).and_then(|s| s.parse::<u64>().ok()) {
        Some(n) if n <= u64::from(u32::MAX) => Ok(n as u32),
        _ => Err(bad("invalid-options", format!("{name} must be a decimal integer within 0..=4294967295"))),
    }
}

pub fn check(query: &str) -> Result<Checked, HttpError> {
    let mut text = None;
    let mut ec = None;
    let mut min_size = None;
    let mut quiet_zone = None;
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        let name = decode(name)?;
        let value = decode(value)?;
        let slot = match name.as_slice() {
            b"text" => &mut text,
            b"ec-level" => &mut ec,
            b"min-size" => &mut min_size,
            b"quiet-zone" => &mut quiet_zone,
            _ => return Err(bad("bad-query", "unknown query parameter (known: text, ec-level, min-size, quiet-zone)")),
        };
        if slot.is_some() {
            let name = String::from_utf8(name).unwrap_or_default();
            return Err(bad("bad-query", format!("query parameter {name} is given more than once")));
        }
        *slot = Some(value);
    }
    let text = text.ok_or_else(|| bad("bad-query", "query parameter text is required"))?;
    let text = match qrglue_core::text_from_utf8(&text) {
        Ok(text) => text.to_owned(),
        Err(err) => return Err(bad("invalid-text", err.to_string())),
    };
    if text.is_empty() {
        return Ok(Checked::Empty);
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(bad("text-too-long", format!("text is longer than {MAX_TEXT_BYTES} UTF-8 bytes (this endpoint's limit)")));
    }
    let ec_level = match ec.as_deref() {
        None => None,
        Some(name) => Some(
            std::str::from_utf8(name)
                .ok()
                .and_then(EcLevel::from_name)
                .ok_or_else(|| bad("invalid-options", "ec-level must be one of low, medium, quartile, high"))?,
        ),
    };
    let min_size = min_size.map(|v| uint("min-size", &v)).transpose()?;
    let quiet_zone = quiet_zone.map(|v| uint("quiet-zone", &v)).transpose()?;
    Ok(Checked::Request { text, ec_level, min_size, quiet_zone })
}
