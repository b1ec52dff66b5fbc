//! The `qrglue` binary: the reference URL through all three paths gives three
//! identical files equal to the golden digest; and its refusals.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The corpus's golden digests (tests/vectors/expected.json), through the
/// shared reader.
mod corpus {
    use qrglue_vectors::Outcome;

    pub use qrglue_vectors::sha256_hex;

    fn image(id: &str) -> (String, String, std::collections::BTreeMap<String, String>) {
        match qrglue_vectors::expected().remove(id) {
            Some(Outcome::Image { png_sha256, svg_sha256, text_sha256: Some(texts), .. }) => (png_sha256, svg_sha256, texts),
            other => panic!("{id}: expected an image, expected.json has {other:?}"),
        }
    }

    /// The golden digest of the case's text in `style` (`"ascii"`).
    pub fn expected_text_sha256(id: &str, style: &str) -> String {
        image(id).2.remove(style).unwrap_or_else(|| panic!("{id}: no {style} text digest"))
    }

    pub fn expected_png_sha256(id: &str) -> String {
        image(id).0
    }

    pub fn expected_svg_sha256(id: &str) -> String {
        image(id).1
    }
}

const REFERENCE_URL: &str = "https://www.reddit.com/r/rustjerk/top/?t=all";

fn qrglue(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qrglue")).args(args).output().expect("run qrglue")
}

fn os<'a>(args: &'a [&'a str]) -> Vec<&'a std::ffi::OsStr> {
    args.iter().map(std::ffi::OsStr::new).collect()
}

fn scratch_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("qrglue-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn three_paths_write_the_golden_png() {
    let dir = scratch_dir();
    let want = corpus::expected_png_sha256("ref-02");
    for path in ["native", "component", "raw"] {
        let file = dir.join(format!("{path}.png"));
        let out = qrglue(&os(&["png", REFERENCE_URL, "-o", file.to_str().unwrap(), "--path", path]));
        assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(corpus::sha256_hex(&std::fs::read(&file).unwrap()), want, "{path}");
    }
}

#[test]
fn svg_and_stdout() {
    let out = qrglue(&os(&["svg", REFERENCE_URL, "--path", "raw"]));
    assert!(out.status.success());
    assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_svg_sha256("ref-02"));
    // Standard output here is a pipe, not a terminal: the PNG goes through.
    let out = qrglue(&os(&["png", REFERENCE_URL, "--ec-level", "high", "-o", "-"]));
    assert!(out.status.success());
    assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_png_sha256("ref-02-ec-high"));
}

/// `qrglue text` prints the golden text in every style, on every path, and
/// refuses a style it does not know as a usage error.
#[test]
fn text_prints_the_golden_text_in_every_style() {
    for path in ["native", "component", "raw"] {
        for (style, flag) in [("half-blocks", None), ("half-blocks-inverted", Some("half-blocks-inverted")), ("ascii", Some("ascii"))] {
            let mut args = vec!["text", REFERENCE_URL, "--path", path];
            if let Some(flag) = flag {
                args.extend(["--style", flag]);
            }
            let out = qrglue(&os(&args));
            assert!(out.status.success(), "{path} {style}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_text_sha256("ref-02", style), "{path} {style}");
        }
    }
    let out = qrglue(&os(&["text", "", "--style", "ascii"]));
    assert_eq!(
        (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()),
        (Some(1), "qrglue: empty-text: text is empty\n".into())
    );
    assert_eq!(qrglue(&os(&["text", "x", "--style", "ansi"])).status.code(), Some(2));
}

/// --scale, --dark and --light give the corpus's golden images on every
/// path; a colour that does not parse is refused with the contract's message,
/// after the generator's own checks (an empty text is still empty-text).
#[test]
fn scale_and_colours_give_the_golden_image_and_bad_colours_are_refused_in_order() {
    let url = REFERENCE_URL;
    for path in ["native", "component", "raw"] {
        for (id, flags) in [
            ("opt-scale-7-quiet-2", vec!["--scale", "7", "--quiet-zone", "2"]),
            ("opt-both-translucent", vec!["--dark", "#00008080", "--light", "#ffff0040"]),
            ("opt-short-hex", vec!["--dark", "#0a0", "--light", "#FFFA"]),
        ] {
            let mut args = vec!["png", url, "-o", "-", "--path", path];
            args.extend(flags);
            let out = qrglue(&os(&args));
            assert!(out.status.success(), "{path} {id}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_png_sha256(id), "{path} {id}");
        }
        for (args, kind, message) in [
            (
                vec!["svg", url, "--dark", "red"],
                "invalid-options",
                r#"dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red""#,
            ),
            (
                vec!["svg", url, "--dark", "#12", "--light", "nope"],
                "invalid-options",
                r##"dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "#12""##,
            ),
            (
                vec!["text", url, "--light", "#ffffff0"],
                "invalid-options",
                r##"light must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "#ffffff0""##,
            ),
            // A colour the CLI cannot read is its own error: before any of the generator's (docs/contract.md).
            (
                vec!["svg", "", "--dark", "red"],
                "invalid-options",
                r#"dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red""#,
            ),
            (vec!["svg", "", "--dark", "#000"], "empty-text", "text is empty"),
            (
                vec!["svg", url, "--min-size", "0", "--dark", "red"],
                "invalid-options",
                r#"dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red""#,
            ),
            (vec!["svg", url, "--scale", "21", "--dark", "#000"], "invalid-options", "scale must be within 1..=20, got 21"),
            (
                vec!["svg", url, "--mask", "9", "--dark", "red"],
                "invalid-options",
                r#"dark must be a colour as #rgb, #rgba, #rrggbb or #rrggbbaa, got "red""#,
            ),
            (
                vec!["png", url, "-o", "-", "--dark", "#fff", "--light", "#ffffff"],
                "invalid-options",
                "dark and light must be different colours, both are #ffffffff",
            ),
        ] {
            let mut args = args.clone();
            args.extend(["--path", path]);
            let out = qrglue(&os(&args));
            assert_eq!(out.status.code(), Some(1), "{path} {args:?}");
            assert_eq!(String::from_utf8_lossy(&out.stderr), format!("qrglue: {kind}: {message}\n"), "{path} {args:?}");
        }
    }
}

/// The symbol flags reach the generator on every path: the corpus's golden
/// images, and the contract's messages for bad values in its order.
#[test]
fn symbol_flags_give_the_golden_image_and_bad_values_are_refused_in_order() {
    let url = REFERENCE_URL;
    for path in ["native", "component", "raw"] {
        for (id, text, flags) in [
            ("sym-version-10", url, vec!["--symbol-version", "10"]),
            ("sym-min-version-7", url, vec!["--min-version", "7"]),
            ("sym-mask-5", url, vec!["--mask", "5"]),
            ("sym-boost-ec-to-high", "hello", vec!["--boost-ec"]),
            ("eci-capacity-17-bytes-v2-with", "abcdefghijklmnopq", vec!["--eci"]),
            ("sym-micro-version-4-mask-3", "micro", vec!["--micro", "--symbol-version", "4", "--mask", "3", "--scale", "8"]),
        ] {
            let mut args = vec!["png", text, "-o", "-", "--path", path];
            args.extend(flags);
            let out = qrglue(&os(&args));
            assert!(out.status.success(), "{path} {id}: {}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_png_sha256(id), "{path} {id}");
        }
        for (args, kind, message) in [
            (vec!["svg", url, "--symbol-version", "41"], "invalid-options", "version must be within 1..=40, got 41"),
            (vec!["svg", "12345", "--micro", "--mask", "4"], "invalid-options", "mask must be within 0..=3, got 4"),
            (vec!["svg", "12345", "--micro", "--eci"], "invalid-options", "eci is not available in Micro QR (it has no ECI mode)"),
            (
                vec!["svg", url, "--symbol-version", "5", "--min-version", "5"],
                "invalid-options",
                "version and min-version exclude each other: give one",
            ),
            (
                vec!["text", "12345", "--micro", "--ec-level", "high"],
                "invalid-options",
                "ec-level high is not available in Micro QR (M4 goes up to quartile)",
            ),
            (
                vec!["svg", url, "--symbol-version", "2"],
                "data-too-long",
                "text does not fit in version 2 at level low: it needs 364 data bits, version 2 holds 272",
            ),
            (
                vec!["svg", url, "--micro"],
                "data-too-long",
                "text does not fit in a Micro QR code at level low: it needs 360 data bits, M4 holds 128",
            ),
        ] {
            let mut args = args.clone();
            args.extend(["--path", path]);
            let out = qrglue(&os(&args));
            assert_eq!(out.status.code(), Some(1), "{path} {args:?}");
            assert_eq!(String::from_utf8_lossy(&out.stderr), format!("qrglue: {kind}: {message}\n"), "{path} {args:?}");
        }
    }
}

/// A refusal: exit 1, nothing on standard output, and exactly
/// `qrglue: <kind>: <message>` on standard error.
#[test]
fn bad_input_exits_non_zero_with_the_error_kind_and_message() {
    let too_long = "9".repeat(7090);
    for (args, kind, message) in [
        (vec!["png", "", "-o", "-"], "empty-text", "text is empty"),
        (vec!["png", "hello", "--min-size", "0", "-o", "-", "--path", "raw"], "invalid-options", "min-size must be within 1..=4096, got 0"),
        (vec!["svg", "hello", "--quiet-zone", "17", "--path", "native"], "invalid-options", "quiet-zone must be within 0..=16, got 17"),
        (vec!["text", "hello", "--min-size", "5000", "--path", "raw"], "invalid-options", "min-size must be within 1..=4096, got 5000"),
        (
            vec!["png", too_long.as_str(), "-o", "-", "--path", "component"],
            "data-too-long",
            "text does not fit in any QR code: it is over 7089 bytes, the most one holds",
        ),
    ] {
        let out = qrglue(&os(&args));
        assert_eq!(out.status.code(), Some(1), "{:?}", &args[..2]);
        assert!(out.stdout.is_empty(), "{:?}: nothing is written on error", &args[..2]);
        assert_eq!(String::from_utf8_lossy(&out.stderr), format!("qrglue: {kind}: {message}\n"), "{:?}", &args[..2]);
    }

    // --ec-level takes the WIT names alone, as the libraries do: no letters, no other case.
    for args in [
        vec!["png", "x", "--ec-level", "X"],
        vec!["png", "x", "--ec-level", "M"],
        vec!["png", "x", "--ec-level", "HIGH"],
        vec!["png", "x", "--path", "jit"],
        vec!["png"],
        vec!["gif", "x"],
    ] {
        assert_eq!(qrglue(&os(&args)).status.code(), Some(2), "{args:?}: a usage error");
    }
}

#[cfg(unix)]
#[test]
fn a_non_utf8_argument_is_invalid_text_on_every_path() {
    use std::os::unix::ffi::OsStrExt;
    for path in ["native", "component", "raw"] {
        let text = std::ffi::OsStr::from_bytes(b"caf\xe9");
        let args = [std::ffi::OsStr::new("png"), text, "-o".as_ref(), "-".as_ref(), "--path".as_ref(), path.as_ref()];
        let out = qrglue(&args);
        assert_eq!(out.status.code(), Some(1), "{path}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("invalid-text"), "{path}");
    }
}

/// Standard output on a terminal: a PNG is refused unless `-o -` forces it,
/// an SVG (text) goes through. `script` (util-linux) runs the binary on a
/// pseudo-terminal and copies what reached it to its own standard output.
#[cfg(target_os = "linux")]
#[test]
fn a_png_is_not_written_to_a_terminal_unless_forced() {
    use std::process::Stdio;
    let on_a_terminal = |args: &str| -> Output {
        let command = format!("'{}' {args}", env!("CARGO_BIN_EXE_qrglue"));
        Command::new("script")
            .args(["--quiet", "--return", "--command", &command, "/dev/null"])
            .stdin(Stdio::null())
            .output()
            .expect("this test needs `script` from util-linux (Debian: bsdutils) to get a terminal")
    };
    let contains = |haystack: &[u8], needle: &[u8]| haystack.windows(needle.len()).any(|w| w == needle);

    let refused = on_a_terminal("png hello");
    assert_eq!(refused.status.code(), Some(2), "{}", String::from_utf8_lossy(&refused.stdout));
    assert!(contains(&refused.stdout, b"refusing to write a PNG to a terminal"));
    assert!(!contains(&refused.stdout, b"\x89PNG"), "no PNG byte reaches the terminal");

    let forced = on_a_terminal("png hello -o -");
    assert!(forced.status.success());
    assert!(contains(&forced.stdout, b"\x89PNG"));

    let svg = on_a_terminal("svg hello");
    assert!(svg.status.success());
    assert!(contains(&svg.stdout, b"<svg"));
}

/// `qrglue` with `stdin` written to its standard input.
fn qrglue_with_stdin(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_qrglue"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run qrglue");
    // A child that refuses early may close its input first: its exit says why.
    let _ = child.stdin.take().unwrap().write_all(stdin);
    child.wait_with_output().unwrap()
}

#[test]
fn text_from_stdin_carries_any_text() {
    // The reference URL: the golden bytes, as from the argument.
    let out = qrglue_with_stdin(&["png", "--text-stdin", "-o", "-", "--path", "raw"], REFERENCE_URL.as_bytes());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_png_sha256("ref-02"));
    // A NUL, which no argument can carry: the library's PNG for that text.
    for path in ["native", "component", "raw"] {
        let out = qrglue_with_stdin(&["png", "--text-stdin", "-o", "-", "--path", path], b"a\0b");
        assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.stdout, qrglue_core::png("a\0b", &qrglue_core::Options::default()).unwrap(), "{path}");
    }
    // Bad input is refused as from the argument: not UTF-8, empty, too long
    // (read no further than one byte past the bound).
    for (stdin, kind) in [(&b"ok\xff"[..], "invalid-text"), (b"", "empty-text"), (&[b'7'; 1 << 20][..], "data-too-long")] {
        let out = qrglue_with_stdin(&["png", "--text-stdin", "-o", "-", "--path", "native"], stdin);
        assert_eq!(out.status.code(), Some(1), "{kind}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with(&format!("qrglue: {kind}: ")), "{kind}");
    }
    // Both a text and --text-stdin, or neither: a bad command line.
    assert_eq!(qrglue_with_stdin(&["png", "x", "--text-stdin", "-o", "-"], b"y").status.code(), Some(2));
    assert_eq!(qrglue_with_stdin(&["png", "-o", "-"], b"y").status.code(), Some(2));
}

#[test]
fn data_file_carries_a_binary_payload() {
    let dir = scratch_dir();
    let file = dir.join("payload.bin");
    let payload = b"\xff\xfe\x00\x01\xed\xa0\x80 not a text";
    std::fs::write(&file, payload).unwrap();
    let options = qrglue_core::Options::default();
    for path in ["native", "component", "raw"] {
        // From a file and from standard input: the core's png-bytes, svg-bytes and text-bytes.
        let out = qrglue(&os(&["png", "-o", "-", "--path", path, "--data-file", file.to_str().unwrap()]));
        assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(out.stdout, qrglue_core::png_bytes(payload, &options).unwrap(), "{path}");
        let out = qrglue_with_stdin(&["svg", "-o", "-", "--path", path, "--data-file", "-"], payload);
        assert_eq!(out.stdout, qrglue_core::svg_bytes(payload, &options).unwrap().into_bytes(), "{path}");
        let out = qrglue_with_stdin(&["text", "--style", "ascii", "--path", path, "--data-file", "-"], payload);
        let ascii = qrglue_core::text_bytes(payload, &options, qrglue_core::TextStyle::Ascii).unwrap();
        assert_eq!(String::from_utf8(out.stdout).unwrap(), ascii, "{path}");
    }
    // A text's bytes as a payload: the text's golden PNG.
    let out = qrglue_with_stdin(&["png", "--data-file", "-", "-o", "-", "--path", "raw"], REFERENCE_URL.as_bytes());
    assert_eq!(corpus::sha256_hex(&out.stdout), corpus::expected_png_sha256("ref-02"));
    // Empty, too long (read no further than one byte past the bound), then the
    // options in order (a bad option after a bad payload is not reported).
    for (stdin, extra, kind) in [
        (&b""[..], &[][..], "empty-text"),
        (&[0u8; 1 << 20][..], &[][..], "data-too-long"),
        (b"\xff", &["--min-size", "0", "--dark", "nope"][..], "invalid-options: dark"),
        (b"\xff", &["--min-size", "0"][..], "invalid-options: min-size"),
        (b"\xff", &["--dark", "nope"][..], "invalid-options: dark"),
        (b"", &["--dark", "nope"][..], "invalid-options: dark"),
        (&[0u8; 1 << 20][..], &["--dark", "nope"][..], "data-too-long"),
    ] {
        let mut args = vec!["png", "-o", "-", "--path", "native", "--data-file", "-"];
        args.extend_from_slice(extra);
        let out = qrglue_with_stdin(&args, stdin);
        assert_eq!(out.status.code(), Some(1), "{kind}");
        assert!(
            String::from_utf8_lossy(&out.stderr).starts_with(&format!("qrglue: {kind}")),
            "{kind}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // A file that is not there: an I/O failure (3), named; a text with it: a bad command line (2).
    let out = qrglue(&os(&["png", "-o", "-", "--data-file", dir.join("absent").to_str().unwrap()]));
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read the payload from"));
    assert_eq!(qrglue(&os(&["png", "x", "-o", "-", "--data-file", file.to_str().unwrap()])).status.code(), Some(2));
    assert_eq!(qrglue_with_stdin(&["png", "--text-stdin", "--data-file", "-", "-o", "-"], b"y").status.code(), Some(2));
}

/// `--help` shows the core's defaults, which qrglue-host re-exports (and
/// hosts/rust/tests/host/contract.rs checks against target/contract.json).
#[test]
fn help_shows_the_contracts_defaults() {
    let defaults = qrglue_core::Options::default();
    let help = qrglue(&os(&["png", "--help"]));
    assert!(help.status.success());
    let help = String::from_utf8(help.stdout).expect("UTF-8 help");
    for default in [format!("[default: {}]", defaults.min_size), format!("[default: {}]", defaults.quiet_zone)] {
        assert!(help.contains(&default), "qrglue png --help lacks {default}:\n{help}");
    }
}

#[test]
fn svg_options_reach_the_generator_and_bad_ones_are_refused_in_order() {
    let options = qrglue_core::Options::default();
    let svg = qrglue_core::SvgOptions { view_box_only: true, title: Some("Pay <me> & go".into()), class: Some("qr big".into()) };
    for path in ["native", "component", "raw"] {
        let out =
            qrglue(&os(&["svg", "hi", "-o", "-", "--path", path, "--view-box-only", "--title", "Pay <me> & go", "--class", "qr big"]));
        assert!(out.status.success(), "{path}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), qrglue_core::svg_with("hi", &options, &svg).unwrap(), "{path}");
        // A payload takes them too.
        let out = qrglue_with_stdin(&["svg", "-o", "-", "--path", path, "--data-file", "-", "--title", "t"], b"\xff");
        let title = qrglue_core::SvgOptions { title: Some("t".into()), ..Default::default() };
        assert_eq!(String::from_utf8(out.stdout).unwrap(), qrglue_core::svg_bytes_with(b"\xff", &options, &title).unwrap(), "{path}");
    }
    for (args, message) in [
        (&["--title", "bell\u{7}"][..], "qrglue: invalid-options: title holds U+0007 at byte 4, which XML 1.0 cannot carry"),
        (&["--class", "a  b"][..], "qrglue: invalid-options: class must be CSS class names"),
        (&["--class", "", "--min-size", "0"][..], "qrglue: invalid-options: min-size must be within 1..=4096, got 0"),
    ] {
        let mut argv = vec!["svg", "hi", "-o", "-", "--path", "raw"];
        argv.extend_from_slice(args);
        let out = qrglue(&os(&argv));
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with(message), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The SVG flags are the svg command's alone.
    assert_eq!(qrglue(&os(&["png", "hi", "-o", "-", "--title", "t"])).status.code(), Some(2));
}
