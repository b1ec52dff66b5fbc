//! `qrglue`: QR codes from the command line, through any of the three paths.
//!
//! ```text
//! qrglue png TEXT [-o FILE] [--path auto|component|raw|native] [--ec-level low|medium|quartile|high] [--min-size N] [--quiet-zone N]
//! qrglue svg TEXT [same options]
//! qrglue text TEXT [--style half-blocks|half-blocks-inverted|ascii] [same options]
//! qrglue png --text-stdin [same options]   (the text from standard input)
//! ```
//!
//! The options' help lines are the contract's (`contract::help_for`, from
//! `contract::OPTIONS`, the table the Node and Python CLIs' flag tables are
//! generated from); `--ec-level` takes the WIT names, as every library does.
//!
//! Output goes to FILE, or to standard output with `-o -` or no `-o`. A PNG
//! is never written to a terminal unless asked for with `-o -`.
//! Exit status: 0 written, 1 the generator refused the input (the message
//! names the error kind), 2 bad command line, 3 the output could not be written
//! or the wasm runtime failed.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use qrglue_core::contract;
use qrglue_host::{EcLevel, Error, Options, Path, QrError, Rgba, SvgOptions, Symbol, TextStyle};

#[derive(Parser)]
#[command(name = "qrglue", version, about = "QR codes as PNG or SVG, through wasm (component or raw ABI) or natively")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the code as a 1-bit grayscale PNG.
    Png(Request),
    /// Write the code as an SVG document.
    Svg(SvgRequest),
    /// Write the code as text for a terminal or a file (half blocks by
    /// default; on a dark terminal use --style half-blocks-inverted).
    Text(TextRequest),
}

#[derive(Args)]
struct TextRequest {
    #[command(flatten)]
    request: Request,
    #[arg(long, value_enum, default_value_t = StyleArg::HalfBlocks, help = contract::help_for("text-style"))]
    style: StyleArg,
}

#[derive(Args)]
struct SvgRequest {
    #[command(flatten)]
    request: Request,
    #[arg(long, help = contract::help_for("view-box-only"))]
    view_box_only: bool,
    #[arg(long, value_name = "TEXT", help = contract::help_for("title"))]
    title: Option<String>,
    #[arg(long, value_name = "NAMES", help = contract::help_for("class"))]
    class: Option<String>,
}

impl SvgRequest {
    fn svg_options(&self) -> SvgOptions {
        SvgOptions { view_box_only: self.view_box_only, title: self.title.clone(), class: self.class.clone() }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum StyleArg {
    HalfBlocks,
    HalfBlocksInverted,
    Ascii,
}

impl StyleArg {
    fn style(self) -> TextStyle {
        match self {
            StyleArg::HalfBlocks => TextStyle::HalfBlocks,
            StyleArg::HalfBlocksInverted => TextStyle::HalfBlocksInverted,
            StyleArg::Ascii => TextStyle::Ascii,
        }
    }
}

/// What to write.
#[derive(Clone, Copy, PartialEq)]
enum Output {
    Png,
    Svg,
    Text(TextStyle),
}

#[derive(Args)]
struct Request {
    /// The text to encode (UTF-8, at most 7089 bytes). Taken as the OS gave
    /// it: an argument that is not UTF-8 is refused (invalid-text), not repaired.
    #[arg(required_unless_present_any = ["text_stdin", "data_file"])]
    text: Option<OsString>,
    /// Read the text from standard input instead, byte for byte (any text,
    /// NUL included, which no argument can carry; the servers' cli tiers use it).
    #[arg(long, conflicts_with = "text")]
    text_stdin: bool,
    /// Read the payload's bytes from PATH (- for standard input) instead of
    /// TEXT: any bytes, not only UTF-8 (the *-bytes generators).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["text", "text_stdin"])]
    data_file: Option<PathBuf>,
    /// Where to write; `-` is standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Which implementation runs the generator (auto: native, which this binary always has).
    #[arg(long, value_enum, default_value_t = PathArg::Auto)]
    path: PathArg,
    // The options' help: the contract's lines (contract::help_for); clap adds the defaults.
    #[arg(long, value_enum, default_value_t = EcArg::Low, help = contract::help_for("ec-level"))]
    ec_level: EcArg,
    #[arg(long, default_value_t = Options::default().min_size, help = contract::help_for("min-size"))]
    min_size: u32,
    #[arg(long, default_value_t = Options::default().quiet_zone, help = contract::help_for("quiet-zone"))]
    quiet_zone: u32,
    #[arg(long, help = contract::help_for("scale"))]
    scale: Option<u32>,
    #[arg(long, default_value_t = Options::default().dark.to_hex(), value_name = "HEX", help = contract::help_for("dark"))]
    dark: String,
    #[arg(long, default_value_t = Options::default().light.to_hex(), value_name = "HEX", help = contract::help_for("light"))]
    light: String,
    #[arg(long, help = contract::help_for("micro"))]
    micro: bool,
    // --symbol-version: --version prints this program's version.
    #[arg(long, value_name = "N", help = contract::help_for("version"))]
    symbol_version: Option<u32>,
    #[arg(long, value_name = "N", help = contract::help_for("min-version"))]
    min_version: Option<u32>,
    #[arg(long, value_name = "N", help = contract::help_for("mask"))]
    mask: Option<u32>,
    #[arg(long, help = contract::help_for("boost-ec"))]
    boost_ec: bool,
    #[arg(long, help = contract::help_for("eci"))]
    eci: bool,
}

#[derive(Clone, Copy, ValueEnum)]
enum PathArg {
    /// The fastest path this build has: native (the core is linked into this binary).
    Auto,
    Component,
    Raw,
    Native,
}

/// The WIT `ec-level` names, exactly, as the libraries and the HTTP query take them.
#[derive(Clone, Copy, ValueEnum)]
enum EcArg {
    Low,
    Medium,
    Quartile,
    High,
}

impl Request {
    /// The options, or the contract's `invalid-options` message for a colour
    /// that does not parse (a host error, raised before the generator's
    /// checks: see main). The generator checks everything else.
    fn options(&self) -> (Options, Option<QrError>) {
        let ec_level = match self.ec_level {
            EcArg::Low => EcLevel::Low,
            EcArg::Medium => EcLevel::Medium,
            EcArg::Quartile => EcLevel::Quartile,
            EcArg::High => EcLevel::High,
        };
        let mut bad_color = None;
        let mut color = |option: &str, value: &str, default: Rgba| {
            Rgba::from_hex(value).unwrap_or_else(|| {
                bad_color.get_or_insert_with(|| QrError::InvalidOptions(contract::bad_color(option, format!("{value:?}"))));
                default
            })
        };
        let defaults = Options::default();
        let dark = color("dark", &self.dark, defaults.dark);
        let light = color("light", &self.light, defaults.light);
        let symbol = Symbol {
            micro: self.micro,
            version: self.symbol_version,
            min_version: self.min_version,
            mask: self.mask,
            boost_ec: self.boost_ec,
            eci: self.eci,
        };
        let options = Options { ec_level, min_size: self.min_size, quiet_zone: self.quiet_zone, scale: self.scale, dark, light, symbol };
        (options, bad_color)
    }

    fn path(&self) -> Path {
        match self.path {
            PathArg::Component => Path::Component,
            PathArg::Raw => Path::Raw,
            PathArg::Native | PathArg::Auto => Path::Native,
        }
    }
}

/// The text the bytes spell, or the generator's own error for them (a Rust
/// `&str` must be UTF-8; any path gives the same `invalid-text` for bytes).
fn text_or_error(bytes: &[u8]) -> Result<&str, Error> {
    if bytes.len() > qrglue_host::MAX_TEXT_BYTES {
        return Err(Error::Qr(QrError::over_max_text_bytes()));
    }
    qrglue_core::text_from_utf8(bytes).map_err(Error::Qr)
}

/// Up to one byte more than any text or payload may have: a longer input is
/// refused by its length (data-too-long) without being held in memory.
fn read_bounded(input: impl std::io::Read) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    input.take(qrglue_host::MAX_TEXT_BYTES as u64 + 1).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What to encode: a text (checked as UTF-8 by the generator) or a payload.
enum Input {
    Text(Vec<u8>),
    Payload(Vec<u8>),
}

impl Request {
    fn input(&self) -> Result<Input, String> {
        match (&self.text, &self.data_file) {
            (Some(text), _) => Ok(Input::Text(text.as_encoded_bytes().to_vec())),
            (None, Some(path)) if path.as_os_str() == "-" => read_bounded(std::io::stdin().lock())
                .map(Input::Payload)
                .map_err(|e| format!("cannot read the payload from standard input: {e}")),
            (None, Some(path)) => std::fs::File::open(path)
                .and_then(read_bounded)
                .map(Input::Payload)
                .map_err(|e| format!("cannot read the payload from {}: {e}", path.display())),
            (None, None) => {
                read_bounded(std::io::stdin().lock()).map(Input::Text).map_err(|e| format!("cannot read the text from standard input: {e}"))
            }
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let (request, output) = match &cli.command {
        Command::Png(request) => (request, Output::Png),
        Command::Svg(SvgRequest { request, .. }) => (request, Output::Svg),
        Command::Text(TextRequest { request, style }) => (request, Output::Text(style.style())),
    };
    let svg = match &cli.command {
        Command::Svg(request) => request.svg_options(),
        _ => SvgOptions::default(),
    };
    let is_png = output == Output::Png;
    let to_stdout = request.output.as_deref().is_none_or(|p| p.as_os_str() == "-");
    // Binary on a terminal garbles it; `-o -` says the caller means it.
    if is_png && request.output.is_none() && std::io::stdout().is_terminal() {
        eprintln!("qrglue: refusing to write a PNG to a terminal; use -o FILE, or -o - to force it");
        return ExitCode::from(2);
    }

    // Unix: the argument's raw bytes; Windows: WTF-8, where an unpaired
    // surrogate is not UTF-8 either. Both are checked, never repaired. A
    // payload (--data-file) is bytes as they are.
    let input = match request.input() {
        Ok(input) => input,
        Err(message) => {
            eprintln!("qrglue: {message}");
            return ExitCode::from(3);
        }
    };
    let generated = qrglue_host::generator(request.path()).and_then(|mut generator| {
        let (options, bad_color) = request.options();
        if let Some(bad_color) = bad_color {
            // A colour this CLI cannot read is a host error (the library takes
            // an Rgba): raised after the input's own host checks (its UTF-8,
            // its length) and before any of the generator's, as every host
            // raises what its boundary cannot carry (docs/contract.md).
            let checked = match &input {
                Input::Text(text) => text_or_error(text).map(drop),
                Input::Payload(data) if data.len() > qrglue_host::MAX_TEXT_BYTES => Err(Error::Qr(QrError::over_max_text_bytes())),
                Input::Payload(_) => Ok(()),
            };
            return Err(checked.err().unwrap_or(Error::Qr(bad_color)));
        }
        match (&input, output) {
            (Input::Text(text), Output::Png) => generator.png_from_utf8(text, &options),
            (Input::Text(text), Output::Svg) => generator.svg_from_utf8_with(text, &options, &svg).map(String::into_bytes),
            (Input::Text(text), Output::Text(style)) => generator.text_from_utf8(text, &options, style).map(String::into_bytes),
            (Input::Payload(data), Output::Png) => generator.png_bytes(data, &options),
            (Input::Payload(data), Output::Svg) => generator.svg_bytes_with(data, &options, &svg).map(String::into_bytes),
            (Input::Payload(data), Output::Text(style)) => generator.text_bytes(data, &options, style).map(String::into_bytes),
        }
    });
    let bytes = match generated {
        Ok(bytes) => bytes,
        Err(Error::Qr(error)) => {
            eprintln!("qrglue: {}: {error}", error.kind().as_str());
            return ExitCode::from(1);
        }
        Err(error) => {
            eprintln!("qrglue: {error}");
            return ExitCode::from(3);
        }
    };

    let written = if to_stdout {
        let mut stdout = std::io::stdout().lock();
        stdout.write_all(&bytes).and_then(|()| stdout.flush())
    } else {
        std::fs::write(request.output.as_ref().expect("not stdout, so a file"), &bytes)
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            let target = if to_stdout { "standard output".into() } else { request.output.as_ref().unwrap().display().to_string() };
            eprintln!("qrglue: cannot write {target}: {error}");
            ExitCode::from(3)
        }
    }
}
