//! The query of `GET /qrcode` (`tests/http/README.md`), checked in one place
//! for every server: the native axum server (`hosts/rust/server`) and the
//! wasi:http component (`guest/http-proxy`) link this crate; the Node and
//! Python servers call it through their native addons (`hosts/node/native`,
//! `hosts/python/native`), and the Go and Java servers can through the C ABI
//! (`hosts/c`, `qrglue_parse_query`). Those three bindings enable the `core`
//! feature ([`with_core`]): the core's UTF-8 check and its option checks.
//! The shared endpoint tests compare every answer, so one implementation
//! keeps the servers equal by construction.
//!
//! The order is the contract's: bad-query (syntax, names, repeats, missing
//! text), invalid-text, empty-text, text-too-long, then invalid-options for
//! values that are not of their option's form, in the WIT field order
//! ([`NAMES`] after `text`): an ec-level name, a decimal u32 (min-size,
//! quiet-zone, scale, version, min-version, mask), a CSS hex colour (dark,
//! light), `true` or `false` (micro, boost-ec, eci). Ranges are the generator's to
//! refuse. A tier without a generator asks the core itself
//! ([`with_core::check_alone`]); only the wasi:http component's static tier,
//! which cannot link the core, uses [`check_ranges`], a restatement tested
//! against the core's checks.
//!
//! No dependencies by default, not even qrglue-core: the wasi:http component
//! imports the core as a separate component (plugged by wasm-tools compose)
//! and must not link it, so the `core` feature is off there. What
//! only the core knows comes from the caller: `check` takes the core's UTF-8
//! check (its invalid-text messages), and answers [`Checked::Empty`] for an
//! empty text so that each caller reports empty-text in the core's words.

mod contract_gen;

/// The endpoint's own text limit (the experiment's), in UTF-8 bytes.
pub const MAX_TEXT_BYTES: usize = 512;

/// The query's parameter names, the WIT names in WIT field order (`text`
/// first): also the order in which the options' forms are checked.
pub const NAMES: [&str; 13] =
    ["text", "ec-level", "min-size", "quiet-zone", "scale", "dark", "light", "micro", "version", "min-version", "mask", "boost-ec", "eci"];

/// The bad-query message for a name not in [`NAMES`].
pub const UNKNOWN_NAME_MESSAGE: &str = "unknown query parameter (known: text, ec-level, min-size, quiet-zone, scale, dark, light, micro, version, min-version, mask, boost-ec, eci)";

/// A refused query: its kind and message (the endpoint answers 400).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub kind: &'static str,
    pub message: String,
}

/// An ec-level by its contract name; each caller maps it to its own type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Low,
    Medium,
    Quartile,
    High,
}

/// A colour (WIT `rgba`); each caller maps it to its own type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: u8,
}

impl Rgba {
    /// The hosts' default dark colour, opaque black.
    pub const BLACK: Rgba = Rgba { r: 0, g: 0, b: 0, a: 255 };
    /// The hosts' default light colour, opaque white.
    pub const WHITE: Rgba = Rgba { r: 255, g: 255, b: 255, a: 255 };

    /// `#rrggbbaa`, lowercase: how the contract's messages show a colour.
    pub fn to_hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}{:02x}", self.r, self.g, self.b, self.a)
    }
}

impl Level {
    /// The contract's name (WIT case), as the query spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Low => "low",
            Level::Medium => "medium",
            Level::Quartile => "quartile",
            Level::High => "high",
        }
    }
}

/// The symbol options (WIT `symbol-options`): present in a [`Request`] only
/// when the query gives at least one of them. Each is `None` when the query
/// does not give it (the booleans too: the bindings hand on only what was
/// given); the callers apply the defaults (false for the booleans).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Symbol {
    pub micro: Option<bool>,
    pub version: Option<u32>,
    pub min_version: Option<u32>,
    pub mask: Option<u32>,
    pub boost_ec: Option<bool>,
    pub eci: Option<bool>,
}

impl Symbol {
    /// Micro QR asked for (false when not given).
    pub fn is_micro(&self) -> bool {
        self.micro == Some(true)
    }
}

/// One option's value as the query gives it, for the bindings that hand the
/// options on by name ([`Request::given`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    Level(Level),
    Number(u32),
    Color(Rgba),
    Flag(bool),
}

/// A query that passed every check made here. An option the query does not
/// give is `None`: the caller applies the hosts' default.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub text: String,
    pub ec_level: Option<Level>,
    pub min_size: Option<u32>,
    pub quiet_zone: Option<u32>,
    pub scale: Option<u32>,
    pub dark: Option<Rgba>,
    pub light: Option<Rgba>,
    /// `Some` when the query gives micro, version, min-version, mask,
    /// boost-ec or eci (WIT `symbol: none` otherwise: the automatic symbol).
    pub symbol: Option<Symbol>,
}

impl Request {
    /// The options the query gives, by their WIT names in WIT field order
    /// ([`NAMES`] after `text`): what the Node and Python bindings turn into
    /// their API's keyword names, so that no binding lists the options.
    pub fn given(&self) -> Vec<(&'static str, Value)> {
        let symbol = self.symbol.unwrap_or_default();
        let values = [
            self.ec_level.map(Value::Level),
            self.min_size.map(Value::Number),
            self.quiet_zone.map(Value::Number),
            self.scale.map(Value::Number),
            self.dark.map(Value::Color),
            self.light.map(Value::Color),
            symbol.micro.map(Value::Flag),
            symbol.version.map(Value::Number),
            symbol.min_version.map(Value::Number),
            symbol.mask.map(Value::Number),
            symbol.boost_ec.map(Value::Flag),
            symbol.eci.map(Value::Flag),
        ];
        NAMES[1..].iter().zip(values).filter_map(|(name, value)| Some((*name, value?))).collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checked {
    /// `text=` with nothing in it: empty-text, reported by the caller with
    /// the core's message (checked after invalid-text, before the rest).
    Empty,
    Request(Request),
}

fn refuse(kind: &'static str, message: impl Into<String>) -> Refusal {
    Refusal { kind, message: message.into() }
}

/// Checks `query` (the part after `?`, still percent-encoded, as bytes: the
/// Node and Python servers hand over what the client sent, which need not be
/// UTF-8). `text_from_utf8` is the core's UTF-8 check: the text or the core's
/// invalid-text message.
pub fn check(
    query: &(impl AsRef<[u8]> + ?Sized),
    text_from_utf8: impl FnOnce(Vec<u8>) -> Result<String, String>,
) -> Result<Checked, Refusal> {
    let mut found: [Option<Vec<u8>>; NAMES.len()] = Default::default();
    for part in query.as_ref().split(|&b| b == b'&').filter(|p| !p.is_empty()) {
        let (name, value) = match part.iter().position(|&b| b == b'=') {
            Some(at) => (&part[..at], &part[at + 1..]),
            None => (part, &b""[..]),
        };
        let name = decode(name)?;
        let value = decode(value)?;
        let Some(index) = NAMES.iter().position(|known| known.as_bytes() == name.as_slice()) else {
            return Err(refuse("bad-query", UNKNOWN_NAME_MESSAGE));
        };
        if found[index].is_some() {
            return Err(refuse("bad-query", format!("query parameter {} is given more than once", NAMES[index])));
        }
        found[index] = Some(value);
    }
    let [text, ec, min_size, quiet_zone, scale, dark, light, micro, version, min_version, mask, boost_ec, eci] = found;
    let text = text.ok_or_else(|| refuse("bad-query", "query parameter text is required"))?;
    let text = text_from_utf8(text).map_err(|message| refuse("invalid-text", message))?;
    if text.is_empty() {
        return Ok(Checked::Empty);
    }
    if text.len() > MAX_TEXT_BYTES {
        return Err(refuse("text-too-long", format!("text is longer than {MAX_TEXT_BYTES} UTF-8 bytes (this endpoint's limit)")));
    }
    // The options' forms, in WIT field order.
    let ec_level = match ec.as_deref() {
        None => None,
        Some(b"low") => Some(Level::Low),
        Some(b"medium") => Some(Level::Medium),
        Some(b"quartile") => Some(Level::Quartile),
        Some(b"high") => Some(Level::High),
        Some(_) => return Err(refuse("invalid-options", "ec-level must be one of low, medium, quartile, high")),
    };
    let min_size = min_size.map(|v| uint("min-size", &v)).transpose()?;
    let quiet_zone = quiet_zone.map(|v| uint("quiet-zone", &v)).transpose()?;
    let scale = scale.map(|v| uint("scale", &v)).transpose()?;
    let dark = dark.map(|v| color("dark", &v)).transpose()?;
    let light = light.map(|v| color("light", &v)).transpose()?;
    let given = [&micro, &version, &min_version, &mask, &boost_ec, &eci].iter().any(|v| v.is_some());
    let micro = micro.map(|v| boolean("micro", &v)).transpose()?;
    let version = version.map(|v| uint("version", &v)).transpose()?;
    let min_version = min_version.map(|v| uint("min-version", &v)).transpose()?;
    let mask = mask.map(|v| uint("mask", &v)).transpose()?;
    let boost_ec = boost_ec.map(|v| boolean("boost-ec", &v)).transpose()?;
    let eci = eci.map(|v| boolean("eci", &v)).transpose()?;
    let symbol = given.then_some(Symbol { micro, version, min_version, mask, boost_ec, eci });
    Ok(Checked::Request(Request { text, ec_level, min_size, quiet_zone, scale, dark, light, symbol }))
}

/// The generator's own option checks (qrglue-core's `Options::validate`), in
/// its order and words, with the hosts' defaults for what the request does
/// not give: for the one tier that answers without a generator and cannot
/// link the core (the wasi:http component's `static` feature). Min-size, quiet-zone, scale, equal
/// colours, then the symbol: version, min-version (1..=40, 1..=4 for Micro
/// QR), both given, mask (0..=7, 0..=3), Micro QR at level high, Micro QR
/// with ECI.
pub fn check_ranges(request: &Request) -> Result<(), Refusal> {
    use crate::contract_gen::*;
    let invalid = |message: String| Err(refuse("invalid-options", message));
    let within = |name: &str, (min, max): (u32, u32), value: u32| {
        if (min..=max).contains(&value) { Ok(()) } else { invalid(out_of_range(name, min, max, value)) }
    };
    within("min-size", MIN_SIZE_BOUNDS, request.min_size.unwrap_or(DEFAULT_MIN_SIZE))?;
    within("quiet-zone", QUIET_ZONE_BOUNDS, request.quiet_zone.unwrap_or(DEFAULT_QUIET_ZONE))?;
    if let Some(scale) = request.scale {
        within("scale", SCALE_BOUNDS, scale)?;
    }
    let dark = request.dark.unwrap_or(DEFAULT_DARK);
    if dark == request.light.unwrap_or(DEFAULT_LIGHT) {
        return invalid(same_colors(&dark.to_hex()));
    }
    let Some(symbol) = request.symbol else { return Ok(()) };
    let micro = symbol.is_micro();
    let (version_bounds, mask_bounds) = if micro { (MICRO_VERSION_BOUNDS, MICRO_MASK_BOUNDS) } else { (VERSION_BOUNDS, MASK_BOUNDS) };
    if let Some(v) = symbol.version {
        within("version", version_bounds, v)?;
    }
    if let Some(v) = symbol.min_version {
        within("min-version", if micro { MICRO_MIN_VERSION_BOUNDS } else { MIN_VERSION_BOUNDS }, v)?;
    }
    if symbol.version.is_some() && symbol.min_version.is_some() {
        return invalid(VERSION_CONFLICT_MESSAGE.to_owned());
    }
    if let Some(mask) = symbol.mask {
        within("mask", mask_bounds, mask)?;
    }
    if micro && request.ec_level == Some(Level::High) {
        return invalid(MICRO_EC_LEVEL_MESSAGE.to_owned());
    }
    if micro && symbol.eci == Some(true) {
        return invalid(MICRO_ECI_MESSAGE.to_owned());
    }
    Ok(())
}

/// 1 to 10 ASCII digits with a value that fits a u32 (the WIT type).
fn uint(name: &str, value: &[u8]) -> Result<u32, Refusal> {
    let digits = !value.is_empty() && value.len() <= 10 && value.iter().all(u8::is_ascii_digit);
    match std::str::from_utf8(value).ok().filter(|_| digits).and_then(|s| s.parse::<u64>().ok()) {
        Some(n) if n <= u64::from(u32::MAX) => Ok(n as u32),
        _ => Err(refuse("invalid-options", format!("{name} must be a decimal integer within 0..=4294967295"))),
    }
}

/// A CSS hex colour as the hosts take it: `#rgb`, `#rgba`, `#rrggbb` or
/// `#rrggbbaa`, hex digits in either case. The message never shows the value.
fn color(name: &str, value: &[u8]) -> Result<Rgba, Refusal> {
    let parsed = value.strip_prefix(b"#").and_then(|digits| {
        let nibbles: Vec<u8> = digits.iter().map(|&b| hex(b)).collect::<Option<_>>()?;
        let (channels, alpha) = match nibbles.len() {
            3 | 4 => (nibbles.iter().map(|n| n * 17).collect::<Vec<_>>(), nibbles.len() == 4),
            6 | 8 => (nibbles.chunks(2).map(|p| p[0] << 4 | p[1]).collect(), nibbles.len() == 8),
            _ => return None,
        };
        Some(Rgba { r: channels[0], g: channels[1], b: channels[2], a: if alpha { channels[3] } else { 255 } })
    });
    parsed.ok_or_else(|| refuse("invalid-options", format!("{name} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)")))
}

/// Exactly `true` or `false`.
fn boolean(name: &str, value: &[u8]) -> Result<bool, Refusal> {
    match value {
        b"true" => Ok(true),
        b"false" => Ok(false),
        _ => Err(refuse("invalid-options", format!("{name} must be true or false"))),
    }
}

/// `+` is a space; `%XY` is the byte 0xXY; a `%` without two hex digits is
/// malformed (bad-query).
fn decode(bytes: &[u8]) -> Result<Vec<u8>, Refusal> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match (bytes.get(i + 1).and_then(|&b| hex(b)), bytes.get(i + 2).and_then(|&b| hex(b))) {
                (Some(hi), Some(lo)) => {
                    out.push(hi << 4 | lo);
                    i += 2;
                }
                _ => {
                    return Err(refuse("bad-query", "malformed percent-encoding in the query (a % must be followed by two hex digits)"));
                }
            },
            b => out.push(b),
        }
        i += 1;
    }
    Ok(out)
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// How the endpoint answers a request method (tests/http/README.md, "Request
/// targets and methods"); the same rule on every server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodClass {
    /// GET and HEAD.
    Served,
    /// The other methods of RFC 9110 (POST, PUT, DELETE, CONNECT, OPTIONS,
    /// TRACE) and PATCH: 405 on a known path.
    NotAllowed,
    /// Anything else: methods are case-sensitive, so `get` and `Get` are not
    /// GET, and `FOO` or `PROPFIND` are no method of this endpoint. 400, as
    /// llhttp (the parser behind the Node and Python servers) refuses most of
    /// them before any handler runs.
    Unknown,
}

pub fn method_class(method: &str) -> MethodClass {
    match method {
        "GET" | "HEAD" => MethodClass::Served,
        "POST" | "PUT" | "DELETE" | "CONNECT" | "OPTIONS" | "TRACE" | "PATCH" => MethodClass::NotAllowed,
        _ => MethodClass::Unknown,
    }
}

/// The 400 for [`MethodClass::Unknown`] (kind `bad-request`).
pub const UNKNOWN_METHOD_MESSAGE: &str = "unknown method (methods are case-sensitive: GET and HEAD are served)";
/// The 400 for an HTTP/1.1 request without a Host header (RFC 9112 section 3.2).
pub const NO_HOST_MESSAGE: &str = "an HTTP/1.1 request must have a Host header";

/// The path and the query (after the first `?`, still percent-encoded) of a
/// request target, as every server reads it: a fragment (a raw `#` and what
/// follows, which a client must not send) is dropped, as `http::Uri` and
/// httptools drop it; an absolute-form target (`http://host:port/path?query`,
/// which a server must accept) stands for its path and query, whatever its
/// scheme and authority; an empty path is `/`. The path is not decoded.
pub fn path_and_query(target: &str) -> (&str, &str) {
    let target = target.split_once('#').map_or(target, |(before, _)| before);
    let target = match target.split_once("://") {
        Some((scheme, rest))
            if !target.starts_with('/')
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) =>
        {
            rest.find(['/', '?']).map_or("", |at| &rest[at..])
        }
        _ => target,
    };
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    (if path.is_empty() { "/" } else { path }, query)
}

/// The endpoint's error body, `{"kind":…,"message":…}`.
pub fn error_json(kind: &str, message: &str) -> String {
    format!("{{\"kind\":{},\"message\":{}}}", json_string(kind), json_string(message))
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What every caller with the core linked in shares (feature `core`): the
/// axum server, and the Node, Python and C bindings through which the other
/// servers reach this crate. The core's UTF-8 check, the mapping to its
/// `Options`, and the core's own option checks for the tiers that answer
/// without a generator: written once here, not in each binding.
#[cfg(feature = "core")]
pub mod with_core {
    use super::{Checked, Level, Refusal, Request, Rgba};
    use qrglue_core::{EcLevel, Options, QrError, Rgba as CoreRgba, Symbol as CoreSymbol};

    /// [`super::check`] with the core's UTF-8 check (its invalid-text messages).
    pub fn check(query: &(impl AsRef<[u8]> + ?Sized)) -> Result<Checked, Refusal> {
        super::check(query, |bytes| qrglue_core::text_from_utf8(&bytes).map(str::to_owned).map_err(|e| e.to_string()))
    }

    /// A core error as the endpoint's refusal: its kind and the core's message.
    pub fn refusal(error: QrError) -> Refusal {
        Refusal { kind: error.kind().as_str(), message: error.to_string() }
    }

    pub fn ec_level(level: Level) -> EcLevel {
        match level {
            Level::Low => EcLevel::Low,
            Level::Medium => EcLevel::Medium,
            Level::Quartile => EcLevel::Quartile,
            Level::High => EcLevel::High,
        }
    }

    pub fn rgba(c: Rgba) -> CoreRgba {
        CoreRgba { r: c.r, g: c.g, b: c.b, a: c.a }
    }

    /// The core's options for a request: what it gives, the hosts' defaults
    /// for the rest (`Options::default`); no symbol option given is the
    /// automatic symbol.
    pub fn options(request: &Request) -> Options {
        let defaults = Options::default();
        Options {
            ec_level: request.ec_level.map_or(defaults.ec_level, ec_level),
            min_size: request.min_size.unwrap_or(defaults.min_size),
            quiet_zone: request.quiet_zone.unwrap_or(defaults.quiet_zone),
            scale: request.scale,
            dark: request.dark.map_or(defaults.dark, rgba),
            light: request.light.map_or(defaults.light, rgba),
            symbol: request.symbol.map_or(defaults.symbol, |s| CoreSymbol {
                micro: s.micro.unwrap_or(false),
                version: s.version,
                min_version: s.min_version,
                mask: s.mask,
                boost_ec: s.boost_ec.unwrap_or(false),
                eci: s.eci.unwrap_or(false),
            }),
        }
    }

    /// For a tier that answers without a qrglue generator (static, and the
    /// baselines node-qrcode and segno): [`check`], then an empty text is the
    /// core's empty-text and the options must pass the core's own checks
    /// (`Options::validate`), in its order and words: every refusal the
    /// generator would make before it encodes. The request comes back
    /// resolved: every option at its value or the core's default
    /// (`Options::default`; scale, version, min-version and mask stay `None`
    /// when not given), so that a baseline reads no default of its own.
    pub fn check_alone(query: &(impl AsRef<[u8]> + ?Sized)) -> Result<Request, Refusal> {
        match check(query)? {
            Checked::Empty => Err(refusal(QrError::EmptyText)),
            Checked::Request(request) => {
                let options = options(&request);
                options.validate().map_err(refusal)?;
                Ok(resolved(request.text, &options))
            }
        }
    }

    /// `options` as a request with every option given.
    fn resolved(text: String, options: &Options) -> Request {
        let level = match options.ec_level {
            EcLevel::Low => Level::Low,
            EcLevel::Medium => Level::Medium,
            EcLevel::Quartile => Level::Quartile,
            EcLevel::High => Level::High,
        };
        let color = |c: CoreRgba| Rgba { r: c.r, g: c.g, b: c.b, a: c.a };
        let s = options.symbol;
        Request {
            text,
            ec_level: Some(level),
            min_size: Some(options.min_size),
            quiet_zone: Some(options.quiet_zone),
            scale: options.scale,
            dark: Some(color(options.dark)),
            light: Some(color(options.light)),
            symbol: Some(super::Symbol {
                micro: Some(s.micro),
                version: s.version,
                min_version: s.min_version,
                mask: s.mask,
                boost_ec: Some(s.boost_ec),
                eci: Some(s.eci),
            }),
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::Value;
        use super::*;

        #[test]
        fn alone() {
            let refused = |query: &str| check_alone(query).map(|_| ()).map_err(|r| (r.kind, r.message));
            assert_eq!(refused("text="), Err(("empty-text", qrglue_core::contract::EMPTY_TEXT_MESSAGE.to_owned())));
            assert_eq!(refused("text=&bogus=1").map_err(|r| r.0), Err("bad-query"));
            assert_eq!(refused("text=a&scale=21"), Err(("invalid-options", "scale must be within 1..=20, got 21".to_owned())));
            assert_eq!(refused("text=a&micro=true&eci=true").map_err(|r| r.1), Err(qrglue_core::contract::MICRO_ECI_MESSAGE.to_owned()));
            // Resolved: the core's defaults for what the query does not give.
            let request = check_alone("text=a&micro=true&mask=3").expect("valid");
            assert_eq!(
                request.given(),
                vec![
                    ("ec-level", Value::Level(Level::Low)),
                    ("min-size", Value::Number(200)),
                    ("quiet-zone", Value::Number(4)),
                    ("dark", Value::Color(Rgba::BLACK)),
                    ("light", Value::Color(Rgba::WHITE)),
                    ("micro", Value::Flag(true)),
                    ("mask", Value::Number(3)),
                    ("boost-ec", Value::Flag(false)),
                    ("eci", Value::Flag(false)),
                ]
            );
            assert_eq!(
                options(&request),
                options(
                    &check(b"text=a&micro=true&mask=3")
                        .map(|c| match c {
                            Checked::Request(r) => r,
                            Checked::Empty => unreachable!(),
                        })
                        .expect("valid")
                )
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the core's check: any message the caller gives is kept.
    fn utf8(bytes: Vec<u8>) -> Result<String, String> {
        String::from_utf8(bytes).map_err(|_| "not utf-8 (caller's message)".to_owned())
    }

    fn run(query: &str) -> Result<Checked, Refusal> {
        check(query, utf8)
    }

    fn request(query: &str) -> Request {
        match run(query) {
            Ok(Checked::Request(request)) => request,
            other => panic!("{query:?}: {other:?}"),
        }
    }

    fn refused(query: &str) -> (&'static str, String) {
        match run(query) {
            Err(Refusal { kind, message }) => (kind, message),
            other => panic!("{query:?}: {other:?}"),
        }
    }

    const MALFORMED: &str = "malformed percent-encoding in the query (a % must be followed by two hex digits)";
    const UNKNOWN: &str = UNKNOWN_NAME_MESSAGE;
    const EC: &str = "ec-level must be one of low, medium, quartile, high";

    /// A request with `text` and no option.
    fn plain(text: &str) -> Request {
        Request { text: text.into(), ec_level: None, min_size: None, quiet_zone: None, scale: None, dark: None, light: None, symbol: None }
    }

    #[test]
    fn plain_request() {
        let r = request("text=hi&ec-level=quartile&min-size=300&quiet-zone=0");
        assert_eq!(r, Request { ec_level: Some(Level::Quartile), min_size: Some(300), quiet_zone: Some(0), ..plain("hi") });
        assert_eq!(request("text=a"), plain("a"));
        for (name, level) in [("low", Level::Low), ("medium", Level::Medium), ("quartile", Level::Quartile), ("high", Level::High)] {
            assert_eq!(request(&format!("ec-level={name}&text=a")).ec_level, Some(level));
        }
    }

    #[test]
    fn every_option() {
        let r = request(
            "text=hi&ec-level=medium&min-size=1&quiet-zone=2&scale=3&dark=%23F00&light=%2300ff0080&micro=true&version=4&min-version=0&mask=1&boost-ec=false&eci=false",
        );
        let symbol =
            Symbol { micro: Some(true), version: Some(4), min_version: Some(0), mask: Some(1), boost_ec: Some(false), eci: Some(false) };
        let want = Request {
            ec_level: Some(Level::Medium),
            min_size: Some(1),
            quiet_zone: Some(2),
            scale: Some(3),
            dark: Some(Rgba { r: 255, g: 0, b: 0, a: 255 }),
            light: Some(Rgba { r: 0, g: 255, b: 0, a: 128 }),
            symbol: Some(symbol),
            ..plain("hi")
        };
        assert_eq!(r, want);
        // Only given symbol options make a symbol record; the others take their defaults.
        assert_eq!(request("text=a&scale=1&dark=%23000&light=%23fff").symbol, None);
        assert_eq!(request("text=a&micro=false").symbol, Some(Symbol { micro: Some(false), ..Symbol::default() }));
        assert_eq!(request("text=a&boost-ec=true").symbol, Some(Symbol { boost_ec: Some(true), ..Symbol::default() }));
        assert_eq!(request("text=a&eci=true").symbol, Some(Symbol { eci: Some(true), ..Symbol::default() }));
        assert_eq!(request("text=a&eci=false").symbol, Some(Symbol { eci: Some(false), ..Symbol::default() }));
        assert_eq!(request("text=a&mask=7").symbol, Some(Symbol { mask: Some(7), ..Symbol::default() }));
        // The four colour forms, either case.
        for (value, rgba) in [
            ("%23abc", Rgba { r: 0xaa, g: 0xbb, b: 0xcc, a: 255 }),
            ("%23ABCD", Rgba { r: 0xaa, g: 0xbb, b: 0xcc, a: 0xdd }),
            ("%23a1B2c3", Rgba { r: 0xa1, g: 0xb2, b: 0xc3, a: 255 }),
            ("%23a1b2c3D4", Rgba { r: 0xa1, g: 0xb2, b: 0xc3, a: 0xd4 }),
        ] {
            assert_eq!(request(&format!("text=a&dark={value}")).dark, Some(rgba), "{value}");
        }
    }

    #[test]
    fn given_options() {
        assert_eq!(request("text=a").given(), vec![]);
        let every = request(
            "eci=false&boost-ec=true&mask=1&min-version=2&version=3&micro=false&light=%23fff&dark=%23000&scale=5&quiet-zone=4&min-size=9&ec-level=high&text=a",
        );
        let white = Rgba::WHITE;
        let black = Rgba::BLACK;
        assert_eq!(
            every.given(),
            vec![
                ("ec-level", Value::Level(Level::High)),
                ("min-size", Value::Number(9)),
                ("quiet-zone", Value::Number(4)),
                ("scale", Value::Number(5)),
                ("dark", Value::Color(black)),
                ("light", Value::Color(white)),
                ("micro", Value::Flag(false)),
                ("version", Value::Number(3)),
                ("min-version", Value::Number(2)),
                ("mask", Value::Number(1)),
                ("boost-ec", Value::Flag(true)),
                ("eci", Value::Flag(false)),
            ]
        );
        assert_eq!(request("text=a&eci=true").given(), vec![("eci", Value::Flag(true))]);
        assert_eq!(Level::Quartile.as_str(), "quartile");
    }

    #[test]
    fn bytes() {
        // Raw bytes that are not UTF-8 outside the text's value are not the
        // query's syntax: an unknown name, or the caller's invalid-text.
        assert_eq!(check(b"text=a&\xff=1".as_slice(), utf8).map_err(|r| r.kind), Err("bad-query"));
        assert_eq!(check(b"text=\xff".as_slice(), utf8), Err(refuse("invalid-text", "not utf-8 (caller's message)")));
        assert_eq!(check(b"text=%C3%A9\xc3\xa9".as_slice(), utf8), Ok(Checked::Request(plain("éé"))));
    }

    #[test]
    fn decoding() {
        assert_eq!(request("text=a+b%20c").text, "a b c");
        assert_eq!(request("text=%E2%82%ac%2B%25").text, "€+%");
        assert_eq!(request("te%78t=x").text, "x");
        // Empty parts are skipped; a name without `=` has an empty value.
        assert_eq!(request("&&text=x&").text, "x");
        assert_eq!(run("text"), Ok(Checked::Empty));
        for query in ["text=%", "text=%4", "text=%zz", "text=a%G1", "%=x&text=a", "text=a&min-size=%"] {
            assert_eq!(refused(query), ("bad-query", MALFORMED.to_owned()), "{query}");
        }
    }

    #[test]
    fn bad_query() {
        assert_eq!(refused("text=a&size=3"), ("bad-query", UNKNOWN.to_owned()));
        assert_eq!(refused("Text=a"), ("bad-query", UNKNOWN.to_owned()));
        assert_eq!(refused(""), ("bad-query", "query parameter text is required".to_owned()));
        assert_eq!(refused("ec-level=low"), ("bad-query", "query parameter text is required".to_owned()));
        for name in NAMES {
            let query = format!("text=a&{name}=1&{name}=1");
            assert_eq!(refused(&query), ("bad-query", format!("query parameter {name} is given more than once")), "{query}");
        }
        // Syntax before anything else: a repeat beats a bad text and bad options.
        assert_eq!(refused("text=%FF&ec-level=x&text=a").1, "query parameter text is given more than once");
        assert_eq!(refused("text=%FF&ec-level=x&bogus=1").1, UNKNOWN);
    }

    #[test]
    fn invalid_text_uses_the_callers_message() {
        assert_eq!(refused("text=%FF"), ("invalid-text", "not utf-8 (caller's message)".to_owned()));
        assert_eq!(check("text=a", |_| Err("from the core".into())), Err(refuse("invalid-text", "from the core")));
    }

    #[test]
    fn order() {
        // invalid-text before the options.
        assert_eq!(refused("text=%FF&ec-level=bogus").0, "invalid-text");
        assert_eq!(refused("min-size=x&text=%C3").0, "invalid-text");
        // empty-text before the options.
        assert_eq!(run("text=&ec-level=bogus&min-size=-1"), Ok(Checked::Empty));
        // text-too-long before the options.
        let long = "a".repeat(MAX_TEXT_BYTES + 1);
        assert_eq!(refused(&format!("text={long}&ec-level=bogus")).0, "text-too-long");
        // ec-level before min-size before quiet-zone.
        assert_eq!(refused("text=a&quiet-zone=x&min-size=x&ec-level=x").1, EC);
        assert_eq!(refused("text=a&quiet-zone=x&min-size=x").1, "min-size must be a decimal integer within 0..=4294967295");
    }

    #[test]
    fn text_length() {
        assert_eq!(request(&format!("text={}", "a".repeat(512))).text.len(), 512);
        // The limit is in UTF-8 bytes: 171 × "€" is 513 bytes.
        let (kind, message) = refused(&format!("text={}", "%E2%82%AC".repeat(171)));
        assert_eq!((kind, message.as_str()), ("text-too-long", "text is longer than 512 UTF-8 bytes (this endpoint's limit)"));
        assert_eq!(request(&format!("text={}", "%E2%82%AC".repeat(170))).text.len(), 510);
    }

    #[test]
    fn invalid_options() {
        for value in ["", "LOW", "Low", "l", "low+", "%00"] {
            assert_eq!(refused(&format!("text=a&ec-level={value}")), ("invalid-options", EC.to_owned()), "{value:?}");
        }
        assert_eq!(request("text=a&min-size=4294967295").min_size, Some(u32::MAX));
        assert_eq!(request("text=a&quiet-zone=0000000000").quiet_zone, Some(0));
        assert_eq!(request("text=a&min-size=0").min_size, Some(0));
        for name in ["min-size", "quiet-zone", "scale", "version", "min-version", "mask"] {
            let message = format!("{name} must be a decimal integer within 0..=4294967295");
            for value in ["", "4294967296", "99999999999", "00000000001", "-1", "+1", "1.0", "1e3", "%201", "0x10", "%EF%BC%91"] {
                assert_eq!(refused(&format!("text=a&{name}={value}")), ("invalid-options", message.clone()), "{name}={value:?}");
            }
        }
        for name in ["dark", "light"] {
            let message = format!("{name} must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)");
            let long = format!("%23{}", "0".repeat(1024));
            for value in [
                "",
                "%23",
                "ff0000",
                "%23ff",
                "%23fffff",
                "%23fffffff",
                "%23fffffffff",
                "%23ggg",
                "%23%2Bfff",
                "%23fff%00",
                "%23%20fff",
                "%23%23fff",
                "red",
                long.as_str(),
            ] {
                assert_eq!(refused(&format!("text=a&{name}={value}")), ("invalid-options", message.clone()), "{name}={value:?}");
            }
        }
        for name in ["micro", "boost-ec", "eci"] {
            let message = format!("{name} must be true or false");
            for value in ["", "1", "0", "TRUE", "True", "yes", "true+", "%20true", "false%00"] {
                assert_eq!(refused(&format!("text=a&{name}={value}")), ("invalid-options", message.clone()), "{name}={value:?}");
            }
        }
    }

    #[test]
    fn option_order() {
        // Each option's form is checked in WIT field order, whatever the query's order.
        let order = [
            ("ec-level", "x", "ec-level must be one of low, medium, quartile, high"),
            ("min-size", "x", "min-size must be a decimal integer within 0..=4294967295"),
            ("quiet-zone", "x", "quiet-zone must be a decimal integer within 0..=4294967295"),
            ("scale", "x", "scale must be a decimal integer within 0..=4294967295"),
            ("dark", "x", "dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)"),
            ("light", "x", "light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa (%23 in a URL)"),
            ("micro", "x", "micro must be true or false"),
            ("version", "x", "version must be a decimal integer within 0..=4294967295"),
            ("min-version", "x", "min-version must be a decimal integer within 0..=4294967295"),
            ("mask", "x", "mask must be a decimal integer within 0..=4294967295"),
            ("boost-ec", "x", "boost-ec must be true or false"),
            ("eci", "x", "eci must be true or false"),
        ];
        for first in 0..order.len() {
            let query: String = order[first..].iter().rev().map(|(name, value, _)| format!("{name}={value}&")).collect();
            assert_eq!(refused(&format!("{query}text=a")), ("invalid-options", order[first].2.to_owned()), "{query}");
        }
    }

    /// check_ranges says what qrglue-core's validate says, in its order,
    /// for every option at, inside and past its bounds.
    #[test]
    fn check_ranges_is_the_cores() {
        use qrglue_core::{EcLevel, Options, Rgba as CoreRgba, Symbol as CoreSymbol};
        let level = |l: Level| match l {
            Level::Low => EcLevel::Low,
            Level::Medium => EcLevel::Medium,
            Level::Quartile => EcLevel::Quartile,
            Level::High => EcLevel::High,
        };
        let rgba = |c: Rgba| CoreRgba { r: c.r, g: c.g, b: c.b, a: c.a };
        let mut ran = 0;
        for min_size in [None, Some(0), Some(1), Some(4096), Some(4097)] {
            for quiet_zone in [None, Some(16), Some(17)] {
                for scale in [None, Some(0), Some(1), Some(20), Some(21)] {
                    for (dark, light) in
                        [(None, None), (Some(Rgba::WHITE), None), (None, Some(Rgba::BLACK)), (Some(Rgba::WHITE), Some(Rgba::BLACK))]
                    {
                        for ec_level in [None, Some(Level::Quartile), Some(Level::High)] {
                            for micro in [None, Some(false), Some(true)] {
                                for (version, min_version) in [
                                    (None, None),
                                    (Some(0), None),
                                    (Some(4), None),
                                    (Some(5), None),
                                    (Some(41), None),
                                    (None, Some(5)),
                                    (None, Some(0)),
                                    (Some(2), Some(3)),
                                ] {
                                    for mask in [None, Some(3), Some(4), Some(8)] {
                                        let given = micro.is_some() || version.is_some() || min_version.is_some() || mask.is_some();
                                        let symbol = given.then(|| Symbol {
                                            micro,
                                            version,
                                            min_version,
                                            mask,
                                            boost_ec: None,
                                            eci: (micro == Some(true) && mask == Some(3)).then_some(true),
                                        });
                                        let request = Request { ec_level, min_size, quiet_zone, scale, dark, light, symbol, ..plain("a") };
                                        let options = Options {
                                            ec_level: ec_level.map_or(EcLevel::Low, level),
                                            min_size: min_size.unwrap_or(200),
                                            quiet_zone: quiet_zone.unwrap_or(4),
                                            scale,
                                            dark: rgba(dark.unwrap_or(Rgba::BLACK)),
                                            light: rgba(light.unwrap_or(Rgba::WHITE)),
                                            symbol: symbol.map_or(CoreSymbol::default(), |s| CoreSymbol {
                                                micro: s.micro.unwrap_or(false),
                                                version: s.version,
                                                min_version: s.min_version,
                                                mask: s.mask,
                                                boost_ec: s.boost_ec.unwrap_or(false),
                                                eci: s.eci.unwrap_or(false),
                                            }),
                                        };
                                        let want = options.validate().map_err(|e| refuse(e.kind().as_str(), e.to_string()));
                                        assert_eq!(check_ranges(&request), want, "{request:?}");
                                        ran += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(ran > 10_000);
    }

    #[test]
    fn targets() {
        assert_eq!(path_and_query("/qrcode?text=a"), ("/qrcode", "text=a"));
        assert_eq!(path_and_query("/qrcode?text=a?b"), ("/qrcode", "text=a?b"));
        assert_eq!(path_and_query("/qrcode?text=a#b?c"), ("/qrcode", "text=a"));
        assert_eq!(path_and_query("/qrcode#x?text=a"), ("/qrcode", ""));
        assert_eq!(path_and_query("/%71rcode?text=a"), ("/%71rcode", "text=a"));
        assert_eq!(path_and_query("http://127.0.0.1:8080/qrcode?text=a"), ("/qrcode", "text=a"));
        assert_eq!(path_and_query("https://x.example?text=a"), ("/", "text=a"));
        assert_eq!(path_and_query("http://x.example"), ("/", ""));
        assert_eq!(path_and_query("*"), ("*", ""));
        assert_eq!(path_and_query("/a://b"), ("/a://b", ""));
        assert_eq!(path_and_query("1x://y/qrcode"), ("1x://y/qrcode", ""));
    }

    #[test]
    fn methods() {
        assert_eq!(method_class("GET"), MethodClass::Served);
        assert_eq!(method_class("HEAD"), MethodClass::Served);
        for m in ["POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH"] {
            assert_eq!(method_class(m), MethodClass::NotAllowed, "{m}");
        }
        for m in ["get", "Get", "head", "FOO", "PROPFIND", ""] {
            assert_eq!(method_class(m), MethodClass::Unknown, "{m}");
        }
    }

    /// tests/http/query_cases.json: the same cases the Node and Python parsers
    /// run in their own unit tests, with the core's invalid-text messages.
    #[test]
    fn shared_cases() {
        let cases: serde_json::Value = serde_json::from_str(include_str!("../../../tests/http/query_cases.json")).expect("JSON");
        let core_utf8 = |bytes: Vec<u8>| qrglue_core::text_from_utf8(&bytes).map(str::to_owned).map_err(|e| e.to_string());
        let mut ran = 0;
        for case in cases["queries"].as_array().expect("queries") {
            let query = case["query"].as_str().expect("query");
            let got = check(query, core_utf8);
            if let Some(want) = case.get("request") {
                let level = |name: &str| match name {
                    "low" => Level::Low,
                    "medium" => Level::Medium,
                    "quartile" => Level::Quartile,
                    _ => Level::High,
                };
                let number = |key: &str| want.get(key).map(|v| u32::try_from(v.as_u64().expect("u32")).expect("u32"));
                let flag = |key: &str| want.get(key).map(|v| v.as_bool().expect("bool"));
                // '#rrggbbaa', the canonical form every parser answers.
                let colour = |key: &str| {
                    want.get(key).map(|v| {
                        let hex = v.as_str().expect("colour").strip_prefix('#').expect("#");
                        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex");
                        assert_eq!(hex.len(), 8, "{v}");
                        Rgba { r: byte(0), g: byte(2), b: byte(4), a: byte(6) }
                    })
                };
                let given = ["micro", "version", "min-version", "mask", "boost-ec", "eci"].iter().any(|key| want.get(key).is_some());
                let request = Request {
                    text: want["text"].as_str().expect("text").to_owned(),
                    ec_level: want.get("ec-level").map(|v| level(v.as_str().expect("level"))),
                    min_size: number("min-size"),
                    quiet_zone: number("quiet-zone"),
                    scale: number("scale"),
                    dark: colour("dark"),
                    light: colour("light"),
                    symbol: given.then(|| Symbol {
                        micro: flag("micro"),
                        version: number("version"),
                        min_version: number("min-version"),
                        mask: number("mask"),
                        boost_ec: flag("boost-ec"),
                        eci: flag("eci"),
                    }),
                };
                // What the bindings hand on: the given options' names, in the case's order.
                let names: Vec<&str> = request.given().iter().map(|(name, _)| *name).collect();
                let keys: Vec<&str> = want.as_object().expect("request").keys().map(String::as_str).filter(|k| *k != "text").collect();
                let mut sorted_keys = keys.clone();
                sorted_keys.sort_by_key(|k| NAMES.iter().position(|n| n == k));
                assert_eq!(names, sorted_keys, "{query:?}");
                assert_eq!(got, Ok(Checked::Request(request)), "{query:?}");
            } else if case.get("empty").is_some() {
                assert_eq!(got, Ok(Checked::Empty), "{query:?}");
            } else {
                let want = &case["refused"];
                let got = got.expect_err(query);
                assert_eq!(
                    (got.kind, got.message.as_str()),
                    (want["kind"].as_str().unwrap(), want["message"].as_str().unwrap()),
                    "{query:?}"
                );
            }
            ran += 1;
        }
        for target in cases["targets"].as_array().expect("targets") {
            let t = |i: usize| target[i].as_str().expect("string");
            assert_eq!(path_and_query(t(0)), (t(1), t(2)), "{:?}", t(0));
        }
        for (class, want) in [("served", MethodClass::Served), ("not-allowed", MethodClass::NotAllowed), ("unknown", MethodClass::Unknown)]
        {
            for method in cases["methods"][class].as_array().expect("methods") {
                assert_eq!(method_class(method.as_str().unwrap()), want, "{method}");
            }
        }
        assert!(ran >= 240, "only {ran} query cases");
    }

    #[test]
    fn error_body() {
        assert_eq!(error_json("bad-query", "a \"b\" \\ \n\u{1f} é"), r#"{"kind":"bad-query","message":"a \"b\" \\ \u000a\u001f é"}"#);
    }
}
