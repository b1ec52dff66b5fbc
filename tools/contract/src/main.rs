//! The contract's generator (`just contract`): reads the option table
//! (`qrglue_core::contract::OPTIONS`), checks it field by field against
//! `wit/qr.wit` (parsed with `wit-parser`, the parser wasmtime and
//! wit-bindgen use), and writes what the hosts read:
//!
//! - `target/contract.json` (`contract::to_json`), which the hosts' tests
//!   compare their constants with;
//! - the checked-in option layers: `hosts/node/lib/options.js`,
//!   `hosts/node/lib/option-types.d.ts` and `hosts/python/src/qrglue/_options.py`;
//! - the types of Python's native extension (`hosts/python/src/qrglue/_native.pyi`);
//! - the Node and Python CLIs' flag tables (`hosts/node/lib/cli-flags.js`,
//!   `hosts/python/src/qrglue/_cli_flags.py`; the Rust CLI reads the table
//!   itself, `contract::help_for`);
//! - Go's option layer (`hosts/go/options_gen.go`: names, defaults, bounds,
//!   messages, the raw ABI's flag words, the `With*` options and the CLI's
//!   flag table) and Java's (`Contract.java`: constants, messages and the CLI's
//!   flag table; `Options.java`: the record and its builder at the defaults);
//! - the option table in docs/contract.md, between its `options` markers.
//!
//! `contract write OUT.json` writes them all (a file only when its bytes
//! change, so a rebuild does not touch its mtime); `contract check` writes
//! nothing and fails when a checked-in file is not what the table makes
//! (`just lint`). Why a table beside the core and not WIT doc comments:
//! docs/contract.md.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

mod go_symbol;
mod java_generic;
mod python_native;
mod rust_query;

use qrglue_core::contract::{DefaultValue, OPTIONS, OptionSpec, Place, Raw, Ty};
use qrglue_core::{EcLevel, ErrorKind, TextStyle};
use wit_parser::{Resolve, Type, TypeDefKind};

/// The first line of every generated file: tools and people can tell it from a hand-written one.
/// (`{c}` is the language's comment marker.)
const NOTICE: &str =
    "{c} generated; do not edit.\n{c} tools/contract writes it from guest/core/src/contract.rs (`just contract`); `just lint` checks it.\n";

fn notice(comment: &str) -> String {
    NOTICE.replace("{c}", comment)
}

fn main() -> ExitCode {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    if let Err(problem) = check_wit(&root.join("wit")) {
        eprintln!("contract: the option table and wit/qr.wit disagree: {problem}");
        return ExitCode::FAILURE;
    }
    let json = qrglue_core::contract::to_json();
    let contract: serde_json::Value = serde_json::from_str(&json).expect("the contract is valid JSON");
    let files = generated(&contract, &root);
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["write", out] => {
            write_if_changed(Path::new(out), &json);
            for (path, text) in &files {
                write_if_changed(&root.join(path), text);
            }
            ExitCode::SUCCESS
        }
        ["check"] => {
            let stale: Vec<_> =
                files.iter().filter(|(path, text)| std::fs::read_to_string(root.join(path)).ok().as_deref() != Some(text)).collect();
            for (path, _) in &stale {
                eprintln!("contract: {path} is not what guest/core/src/contract.rs makes: run `just contract` and commit it");
            }
            if stale.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE }
        }
        _ => {
            eprintln!("usage: contract write OUT.json | contract check");
            ExitCode::FAILURE
        }
    }
}

fn write_if_changed(path: &Path, text: &str) {
    if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
        std::fs::write(path, text).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}

/// The generated files, by path from the repository root.
fn generated(contract: &serde_json::Value, root: &Path) -> Vec<(&'static str, String)> {
    let docs = std::fs::read_to_string(root.join(DOCS)).unwrap_or_else(|e| panic!("read {DOCS}: {e}"));
    vec![
        ("hosts/node/lib/options.js", node_js(contract)),
        ("hosts/node/lib/option-types.d.ts", node_dts()),
        ("hosts/node/lib/cli-flags.js", node_cli()),
        ("hosts/python/src/qrglue/_options.py", python(contract)),
        ("hosts/python/src/qrglue/_cli_flags.py", python_cli()),
        ("hosts/python/src/qrglue/_native.pyi", python_native::native_pyi()),
        ("hosts/go/options_gen.go", go(contract)),
        ("hosts/java/src/main/java/dev/qrglue/Contract.java", java(contract)),
        ("hosts/java/src/main/java/dev/qrglue/Options.java", java_options()),
        ("guest/http-query/src/contract_gen.rs", rust_query::query_contract()),
        (DOCS, docs_with_options(&docs)),
    ]
}

// ---------------------------------------------------------------- WIT check

/// The table against wit/qr.wit: every field of `options`, `symbol-options`
/// and `svg-options` is in the table, in WIT order, with a type the table's
/// kind lowers to, and nothing else is; the enums' cases are the core's.
fn check_wit(dir: &Path) -> Result<(), String> {
    let mut resolve = Resolve::default();
    resolve.push_path(dir).map_err(|e| format!("parse {}: {e:#}", dir.display()))?;
    let types =
        resolve.interfaces.iter().find(|(_, i)| i.name.as_deref() == Some("types")).map(|(_, i)| i).ok_or("no interface `types`")?;
    let typedef = |name: &str| -> Result<&TypeDefKind, String> {
        let id = types.types.get(name).ok_or_else(|| format!("no type `{name}` in `types`"))?;
        Ok(&resolve.types[*id].kind)
    };
    let type_name = |ty: &Type| -> String {
        match ty {
            Type::Bool => "bool".into(),
            Type::U32 => "u32".into(),
            Type::String => "string".into(),
            Type::Id(id) => {
                let def = &resolve.types[*id];
                match (&def.name, &def.kind) {
                    (Some(name), _) => name.clone(),
                    (None, TypeDefKind::Option(inner)) => match inner {
                        Type::U32 => "option<u32>".into(),
                        Type::String => "option<string>".into(),
                        Type::Id(inner) => format!("option<{}>", resolve.types[*inner].name.clone().unwrap_or_default()),
                        other => format!("option<{other:?}>"),
                    },
                    (None, kind) => format!("{kind:?}"),
                }
            }
            other => format!("{other:?}"),
        }
    };
    for place in [Place::Options, Place::Symbol, Place::Svg] {
        let TypeDefKind::Record(record) = typedef(place.wit_record())? else {
            return Err(format!("`{}` is not a record", place.wit_record()));
        };
        let mut table = OPTIONS.iter().filter(|s| s.place == place);
        for field in &record.fields {
            // options.symbol is the symbol-options record itself, not an option.
            if place == Place::Options && field.name == "symbol" {
                if type_name(&field.ty) != "option<symbol-options>" {
                    return Err(format!("options.symbol is {}, not option<symbol-options>", type_name(&field.ty)));
                }
                continue;
            }
            let spec = table.next().ok_or_else(|| format!("{}.{} is not in the table", place.wit_record(), field.name))?;
            if spec.wit != field.name {
                return Err(format!("{}: the table has {} where the WIT has {}", place.wit_record(), spec.wit, field.name));
            }
            let wit_type = type_name(&field.ty);
            if wit_type != wit_type_of(spec.ty) {
                return Err(format!("{} is {wit_type} in the WIT, {} in the table", spec.wit, wit_type_of(spec.ty)));
            }
        }
        if let Some(extra) = table.next() {
            return Err(format!("{} is in the table but not in WIT {}", extra.wit, place.wit_record()));
        }
    }
    let cases = |name: &str| -> Result<Vec<String>, String> {
        match typedef(name)? {
            TypeDefKind::Enum(e) => Ok(e.cases.iter().map(|c| c.name.clone()).collect()),
            TypeDefKind::Variant(v) => Ok(v.cases.iter().map(|c| c.name.clone()).collect()),
            other => Err(format!("`{name}` is {other:?}")),
        }
    };
    let expect = |name: &str, core: Vec<&str>| -> Result<(), String> {
        let wit = cases(name)?;
        if wit != core { Err(format!("{name}: the WIT has {wit:?}, the core {core:?}")) } else { Ok(()) }
    };
    expect("ec-level", EcLevel::ALL.iter().map(|l| l.as_str()).collect())?;
    expect("text-style", TextStyle::ALL.iter().map(|s| s.as_str()).collect())?;
    expect("qr-error", ErrorKind::ALL.iter().map(|k| k.as_str()).collect())?;
    let style = OPTIONS.iter().filter(|s| s.place == Place::TextStyle).collect::<Vec<_>>();
    if style.len() != 1 || style[0].ty != Ty::TextStyle {
        return Err("the table must have one text-style option, text's own argument".into());
    }
    Ok(())
}

fn wit_type_of(ty: Ty) -> &'static str {
    match ty {
        Ty::EcLevel => "ec-level",
        Ty::TextStyle => "text-style",
        Ty::U32 => "u32",
        Ty::OptionU32 => "option<u32>",
        Ty::Rgba => "rgba",
        Ty::Bool => "bool",
        Ty::OptionString => "option<string>",
    }
}

// ---------------------------------------------------------------- shared helpers

fn places(places: &[Place]) -> impl Iterator<Item = &'static OptionSpec> + '_ {
    OPTIONS.iter().filter(move |s| places.contains(&s.place))
}

fn quoted(items: impl IntoIterator<Item = impl AsRef<str>>, quote: char) -> String {
    items.into_iter().map(|s| format!("{quote}{}{quote}", s.as_ref())).collect::<Vec<_>>().join(", ")
}

fn kind_name(ty: Ty) -> &'static str {
    match ty {
        Ty::EcLevel => "ec-level",
        Ty::TextStyle => "text-style",
        Ty::U32 => "u32",
        Ty::OptionU32 => "option-u32",
        Ty::Rgba => "rgba",
        Ty::Bool => "bool",
        Ty::OptionString => "option-string",
    }
}

/// A camelCase flag name for the raw ABI's `has-*` bits (`hasMinVersion`).
fn camel(wit: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in wit.chars() {
        if c == '-' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        if !line.is_empty() && line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

fn messages(contract: &serde_json::Value) -> &serde_json::Map<String, serde_json::Value> {
    contract["messages"].as_object().expect("messages")
}

// ---------------------------------------------------------------- Node

fn js_default(default: DefaultValue) -> String {
    match default {
        DefaultValue::EcLevel(level) => format!("'{}'", level.as_str()),
        DefaultValue::TextStyle(style) => format!("'{}'", style.as_str()),
        DefaultValue::U32(n) => n.to_string(),
        DefaultValue::Rgba(rgba) => format!("'{}'", rgba.to_hex()),
        DefaultValue::Bool(b) => b.to_string(),
        DefaultValue::None => "undefined".into(),
    }
}

/// A default as resolveOptions keeps it: colours as 0xRRGGBBAA numbers.
fn js_resolved_default(default: DefaultValue) -> String {
    match default {
        DefaultValue::Rgba(rgba) => format!("0x{:08x}", rgba.to_u32()),
        other => js_default(other),
    }
}

fn js_bounds(bounds: Option<(u32, u32)>) -> String {
    bounds.map_or("null".into(), |(min, max)| format!("Object.freeze([{min}, {max}])"))
}

fn node_js(contract: &serde_json::Value) -> String {
    let mut out = notice("//") + "//\n";
    out += "// The Node host's option layer: every option's name, default, type and bounds, the\n";
    out += "// resolver's table (lib/common.js reads it) and the raw ABI's flag bits. Runtime-agnostic\n";
    out += "// like the rest of lib/: the page (hosts/web) imports it too.\n\n";
    let levels = quoted(EcLevel::ALL.iter().map(|l| l.as_str()), '\'');
    let styles = quoted(TextStyle::ALL.iter().map(|s| s.as_str()), '\'');
    let order = quoted(contract["error_check_order"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()), '\'');
    let _ = writeln!(out, "/** Error-correction levels in WIT order; the index is the raw ABI's encoding. */");
    let _ = writeln!(out, "export const EC_LEVELS = Object.freeze([{levels}]);\n");
    let _ = writeln!(out, "/** text()'s styles in WIT `text-style` order; the index is the raw ABI's encoding. */");
    let _ = writeln!(out, "export const TEXT_STYLES = Object.freeze([{styles}]);\n");
    let _ = writeln!(out, "/** The WIT `qr-error` cases, in the order the contract checks them. */");
    let _ = writeln!(out, "export const ERROR_KINDS = Object.freeze([{order}]);\n");
    let _ = writeln!(out, "/** No QR code holds more than this many UTF-8 bytes: longer texts never reach a guest. */");
    let _ = writeln!(out, "export const MAX_TEXT_BYTES = {};\n", contract["max_text_bytes"]);
    let _ = writeln!(out, "/** The most renders one pngRepeat probe call may ask for. */");
    let _ = writeln!(out, "export const MAX_PNG_REPEAT_TIMES = {};\n", contract["max_png_repeat_times"]);
    let title = qrglue_core::contract::option("title").unwrap().bounds.unwrap().1;
    let class = qrglue_core::contract::option("class").unwrap().bounds.unwrap().1;
    let _ = writeln!(out, "/** The SVG strings' bounds in UTF-8 bytes: never copied into a guest past them. */");
    let _ = writeln!(out, "export const MAX_SVG_TITLE_BYTES = {title};\nexport const MAX_SVG_CLASS_BYTES = {class};\n");
    let _ = writeln!(out, "/** The contract's messages and templates, by the contract file's names. */");
    out += "export const MESSAGES = Object.freeze({\n";
    for (name, message) in messages(contract) {
        let _ = writeln!(out, "  '{name}': {},", serde_json::to_string(message).unwrap().replace('\'', "\\'"));
    }
    out += "});\n\n";
    out += "/**\n * Every option's default (WIT has none): undefined is none. The colours as CSS hex, as the\n";
    out += " * options take them; `style` is text()'s own, viewBoxOnly, title and class svg()'s.\n */\n";
    out += "export const DEFAULTS = Object.freeze({\n";
    for spec in OPTIONS {
        let _ = writeln!(out, "  {}: {},", spec.js, js_default(spec.default));
    }
    out += "});\n\n";
    out += "/**\n * The options resolveOptions reads, in check order (WIT `options`, then `symbol-options`):\n";
    out += " * the JS name, the WIT name (the messages'), the type ('ec-level', 'u32', 'option-u32', 'rgba',\n";
    out += " * 'bool'), the bounds and Micro QR's (the guest checks them; a host names them for an integer\n";
    out += " * outside u32) and whether it is a field of the symbol record.\n */\n";
    let fields = |places_: &[Place]| {
        places(places_)
            .map(|s| {
                format!(
                    "  Object.freeze({{ name: '{}', wit: '{}', type: '{}', bounds: {}, microBounds: {}, symbol: {} }}),\n",
                    s.js,
                    s.wit,
                    kind_name(s.ty),
                    js_bounds(s.bounds),
                    js_bounds(s.micro_bounds),
                    s.place == Place::Symbol
                )
            })
            .collect::<String>()
    };
    let _ = writeln!(out, "export const OPTION_FIELDS = Object.freeze([\n{}]);\n", fields(&[Place::Options, Place::Symbol]));
    out += "/** svg()'s own options (WIT `svg-options`), checked after every other option. */\n";
    let _ = writeln!(out, "export const SVG_OPTION_FIELDS = Object.freeze([\n{}]);\n", fields(&[Place::Svg]));
    let style = places(&[Place::TextStyle]).next().unwrap();
    out += "/** text()'s own option (WIT `text-style`), checked after every other option. */\n";
    let _ = writeln!(out, "export const TEXT_STYLE_OPTION = '{}';\n", style.js);
    let symbol_bits = places(&[Place::Symbol])
        .map(|s| match s.raw {
            Raw::SymbolFlag(bit) => (s.js.to_string(), bit),
            Raw::SymbolParam(bit) => (camel(&format!("has-{}", s.wit)), bit),
            other => panic!("{}: {other:?} is not a symbol_flags slot", s.wit),
        })
        .collect::<Vec<_>>();
    let svg_bits = places(&[Place::Svg])
        .map(|s| match s.raw {
            Raw::SvgFlag(bit) => (s.js.to_string(), bit),
            Raw::SvgBuffer(bit) => (camel(&format!("has-{}", s.wit)), bit),
            other => panic!("{}: {other:?} is not an svg_flags slot", s.wit),
        })
        .collect::<Vec<_>>();
    let object = |bits: &[(String, u32)]| bits.iter().map(|(name, bit)| format!("{name}: {bit}")).collect::<Vec<_>>().join(", ");
    out += "/** The raw ABI's `symbol_flags` bits (guest/raw/ABI.md). */\n";
    let _ = writeln!(out, "export const SYMBOL_FLAGS = Object.freeze({{ {} }});\n", object(&symbol_bits));
    out += "/** The raw ABI's `svg_flags` bits (guest/raw/ABI.md). */\n";
    let _ = writeln!(out, "export const SVG_FLAGS = Object.freeze({{ {} }});\n", object(&svg_bits));

    let resolved = std::iter::once("ecIndex: 0".to_string())
        .chain(places(&[Place::Options, Place::Symbol]).map(|s| format!("{}: {}", s.js, js_resolved_default(s.default))))
        .collect::<Vec<_>>()
        .join(", ");
    out += "/**\n * Resolved options at their defaults (resolveOptions's shape: `ecIndex` the level's index,\n";
    out += " * the colours as 0xRRGGBBAA). A fresh literal each call: V8 builds it from one boilerplate.\n */\n";
    let _ = writeln!(out, "export function defaultResolved() {{\n  return {{ {resolved} }};\n}}\n");
    let symbol = places(&[Place::Symbol]).collect::<Vec<_>>();
    let at_default = symbol
        .iter()
        .map(|s| match s.default {
            DefaultValue::None => format!("resolved.{} === undefined", s.js),
            other => format!("resolved.{} === {}", s.js, js_default(other)),
        })
        .collect::<Vec<_>>()
        .join("\n    && ");
    out += "/** Whether resolved options ask for the automatic symbol (WIT `symbol: none`, the cheaper lowering). */\n";
    let _ = writeln!(out, "export function isAutoSymbol(resolved) {{\n  return {at_default};\n}}\n");
    let record = symbol.iter().map(|s| format!("{0}: resolved.{0}", s.js)).collect::<Vec<_>>().join(", ");
    out += "/** Resolved options' WIT `symbol-options` record, in jco's shape. */\n";
    let _ = writeln!(out, "export function witSymbol(resolved) {{\n  return {{ {record} }};\n}}\n");
    let flag_expr = |specs: &[&OptionSpec], var: &str| {
        specs
            .iter()
            .map(|s| match s.raw {
                Raw::SymbolFlag(bit) | Raw::SvgFlag(bit) => format!("({var}.{} ? {bit} : 0)", s.js),
                Raw::SymbolParam(bit) | Raw::SvgBuffer(bit) => format!("({var}.{} === undefined ? 0 : {bit})", s.js),
                Raw::Param => unreachable!(),
            })
            .collect::<Vec<_>>()
            .join("\n    | ")
    };
    out += "/** Resolved options' raw `symbol_flags` word (SYMBOL_FLAGS); 0 for the automatic symbol. */\n";
    let _ = writeln!(out, "export function symbolFlags(resolved) {{\n  return {};\n}}\n", flag_expr(&symbol, "resolved"));
    let svg = places(&[Place::Svg]).collect::<Vec<_>>();
    out += "/** Resolved SVG options' raw `svg_flags` word (SVG_FLAGS); 0 for the defaults. */\n";
    let _ = writeln!(out, "export function svgFlags(svg) {{\n  return {};\n}}\n", flag_expr(&svg, "svg"));
    let flat = places(&[Place::Options, Place::Symbol])
        .map(|s| if s.ty == Ty::EcLevel { "resolved.ecIndex".to_string() } else { format!("resolved.{}", s.js) })
        .collect::<Vec<_>>()
        .join(", ");
    out += "/**\n * Calls `fn` as the flat exports take the options (guest/bindgen, the native addon): the\n";
    out += " * input, the level's index, every other field in WIT order, then the output's own arguments.\n */\n";
    let _ = writeln!(out, "export function callFlat(fn, data, resolved, ...extra) {{\n  return fn(data, {flat}, ...extra);\n}}");
    out
}

fn ts_type(spec: &OptionSpec) -> &'static str {
    match spec.ty {
        Ty::EcLevel => "EcLevel",
        Ty::TextStyle => "TextStyle",
        Ty::U32 | Ty::OptionU32 => "number",
        Ty::Rgba => "HexColor",
        Ty::Bool => "boolean",
        Ty::OptionString => "string",
    }
}

fn default_doc(spec: &OptionSpec) -> String {
    let bounds = match (spec.bounds, spec.micro_bounds, spec.ty) {
        (_, _, Ty::OptionString) => String::new(),
        (Some((min, max)), Some((mmin, mmax)), _) => format!(" {min}..={max} ({mmin}..={mmax} with micro)."),
        (Some((min, max)), None, _) => format!(" {min}..={max}."),
        _ => String::new(),
    };
    let default = match spec.default {
        DefaultValue::None => "none".to_string(),
        other => js_default(other),
    };
    format!("{}{bounds} Default {default}.", spec.doc)
}

fn node_dts() -> String {
    let mut out = notice("//") + "//\n// The option types of every entry point (index.d.ts re-exports them).\n\n";
    let _ = writeln!(out, "/** Error-correction level: about 7 %, 15 %, 25 %, 30 % of codewords recoverable. */");
    let _ = writeln!(out, "export type EcLevel = {};\n", quoted(EcLevel::ALL.iter().map(|l| l.as_str()), '\'').replace(", ", " | "));
    let _ = writeln!(out, "/** How text() draws a code. */");
    let _ = writeln!(out, "export type TextStyle = {};\n", quoted(TextStyle::ALL.iter().map(|s| s.as_str()), '\'').replace(", ", " | "));
    let kinds = ErrorKind::ALL.iter().map(|k| k.as_str());
    let _ = writeln!(out, "/** The WIT `qr-error` cases. */");
    let _ = writeln!(out, "export type QrErrorKind = {};\n", quoted(kinds, '\'').replace(", ", " | "));
    out += "/**\n * A CSS hex colour: '#rgb', '#rgba', '#rrggbb' or '#rrggbbaa' (either case). The type catches a\n";
    out += " * colour name ('red'); the digits are checked when the call runs (invalid-options).\n */\n";
    out += "export type HexColor = `#${string}`;\n\n";
    let interface = |out: &mut String, name: &str, extends: &str, specs: &mut dyn Iterator<Item = &OptionSpec>| {
        let _ = writeln!(out, "export interface {name}{extends} {{");
        for spec in specs {
            let _ = writeln!(out, "  /** {} */\n  {}?: {};", default_doc(spec), spec.js, ts_type(spec));
        }
        out.push_str("}\n\n");
    };
    out += "/** png(), matrix() and the data URLs' options: every field optional, a missing one at its default. */\n";
    interface(&mut out, "Options", "", &mut places(&[Place::Options, Place::Symbol]));
    out += "/** svg()'s and svgDataUrl()'s options: Options and the SVG options, checked after every other option. */\n";
    interface(&mut out, "SvgOptions", " extends Options", &mut places(&[Place::Svg]));
    out += "/** text()'s options: Options and the style, checked after every other option. */\n";
    interface(&mut out, "TextOptions", " extends Options", &mut places(&[Place::TextStyle]));
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

// ---------------------------------------------------------------- Python

fn py_default(default: DefaultValue) -> String {
    match default {
        DefaultValue::EcLevel(level) => format!("\"{}\"", level.as_str()),
        DefaultValue::TextStyle(style) => format!("\"{}\"", style.as_str()),
        DefaultValue::U32(n) => n.to_string(),
        DefaultValue::Rgba(rgba) => format!("\"{}\"", rgba.to_hex()),
        DefaultValue::Bool(b) => if b { "True" } else { "False" }.into(),
        DefaultValue::None => "None".into(),
    }
}

fn py_type(spec: &OptionSpec) -> &'static str {
    match spec.ty {
        Ty::EcLevel => "EcLevel",
        Ty::TextStyle => "TextStyle",
        Ty::U32 => "int",
        Ty::OptionU32 => "int | None",
        Ty::Rgba => "str",
        Ty::Bool => "bool",
        Ty::OptionString => "str | None",
    }
}

fn python(contract: &serde_json::Value) -> String {
    let mut out = notice("#");
    out += "\"\"\"The Python host's option layer: every option's keyword, WIT name, default and bounds,\n";
    out += "the `Literal` types of the enums and error kinds, and the raw ABI's flag bits.\"\"\"\n\n";
    out += "from __future__ import annotations\n\nfrom collections.abc import Mapping\nfrom typing import Literal, NamedTuple, TypedDict, cast\n\n";
    let literal = |items: Vec<&str>| format!("Literal[{}]", quoted(items, '"'));
    // Each public name has a docstring after it: pdoc shows it (hosts/python/tests/test_api_docs.py checks it).
    let _ = writeln!(out, "EcLevel = {}", literal(EcLevel::ALL.iter().map(|l| l.as_str()).collect()));
    out += "\"\"\"The error-correction levels (WIT `ec-level`): about 7, 15, 25 or 30 % of codewords recoverable.\"\"\"\n";
    let _ = writeln!(out, "TextStyle = {}", literal(TextStyle::ALL.iter().map(|s| s.as_str()).collect()));
    out += "\"\"\"How `text` draws the modules (WIT `text-style`).\"\"\"\n";
    let _ = writeln!(out, "ErrorKind = {}", literal(ErrorKind::ALL.iter().map(|k| k.as_str()).collect()));
    out += "\"\"\"`QrError.kind`: why no code was made (WIT `qr-error`).\"\"\"\n\n";
    out += "# WIT enum `ec-level` and `text-style` in declaration order; the raw ABI passes the index.\n";
    let _ = writeln!(out, "EC_LEVELS: tuple[EcLevel, ...] = ({})", quoted(EcLevel::ALL.iter().map(|l| l.as_str()), '"'));
    out += "\"\"\"Every `EcLevel`, in WIT order.\"\"\"\n";
    let _ = writeln!(out, "TEXT_STYLES: tuple[TextStyle, ...] = ({})", quoted(TextStyle::ALL.iter().map(|s| s.as_str()), '"'));
    out += "\"\"\"Every `TextStyle`, in WIT order.\"\"\"\n";
    out += "# WIT `qr-error` cases in declaration order, and the order the contract checks them in.\n";
    let _ = writeln!(out, "ERROR_KINDS: tuple[ErrorKind, ...] = ({})", quoted(ErrorKind::ALL.iter().map(|k| k.as_str()), '"'));
    out += "\"\"\"Every `ErrorKind`, in WIT order.\"\"\"\n";
    let order = contract["error_check_order"].as_array().unwrap().iter().map(|k| k.as_str().unwrap()).collect::<Vec<_>>();
    let _ = writeln!(out, "ERROR_CHECK_ORDER: tuple[ErrorKind, ...] = ({})\n", quoted(order, '"'));
    let _ = writeln!(out, "MAX_TEXT_BYTES = {}", contract["max_text_bytes"]);
    out += "\"\"\"No QR code holds more bytes (numeric, version 40-L): a longer input is data-too-long.\"\"\"\n";
    let _ = writeln!(out, "MAX_PNG_REPEAT_TIMES = {}\n", contract["max_png_repeat_times"]);
    out += "# The contract's messages and templates (str.format placeholders), by the contract file's\n";
    out += "# names: `{name}_MESSAGE` for a fixed text, `{name}_TEMPLATE` for one to fill in.\n";
    for (name, message) in messages(contract) {
        let text = message.as_str().expect("a message is a string");
        let suffix = if text.contains('{') { "TEMPLATE" } else { "MESSAGE" };
        let constant = format!("{}_{suffix}", name.to_uppercase().replace('-', "_"));
        let pieces = wrap(text, 90);
        if pieces.len() == 1 {
            let _ = writeln!(out, "{constant} = {}", serde_json::to_string(text).unwrap());
        } else {
            // In pieces, each a literal of its own (the lines stay within ruff's bound).
            let last = pieces.len() - 1;
            let literals = pieces
                .iter()
                .enumerate()
                .map(|(i, piece)| serde_json::to_string(&if i < last { format!("{piece} ") } else { piece.clone() }).unwrap())
                .collect::<Vec<_>>()
                .join("\n    ");
            let _ = writeln!(out, "{constant} = (\n    {literals}\n)");
        }
    }
    out += "\n";
    out += "# Each option's default (WIT has none; None is WIT's none).\n";
    let mut public = Vec::new();
    for spec in OPTIONS {
        let name = if spec.ty == Ty::TextStyle { "DEFAULT_TEXT_STYLE".to_string() } else { format!("DEFAULT_{}", spec.py.to_uppercase()) };
        let name = if spec.py == "svg_class" { "DEFAULT_CLASS".to_string() } else { name };
        let _ = writeln!(out, "{name}: {} = {}", py_type(spec), py_default(spec.default));
        let _ = writeln!(out, "\"\"\"The default of the `{}` keyword (WIT `{}`).\"\"\"", spec.py, spec.wit);
        public.push(name);
    }
    out += "# What `qrglue` re-exports from here (`from ._options import *`): the defaults, so that a\n";
    out += "# new option's default reaches the package without a hand-written line.\n";
    // Sorted, one a line: ruff's order for `__all__` (RUF022) and its line length.
    public.sort();
    let _ = writeln!(out, "__all__ = [\n{}]", public.iter().map(|name| format!("    \"{name}\",\n")).collect::<String>());
    out += "\n# Inclusive bounds, by WIT name (the SVG strings' in UTF-8 bytes): the guest checks them.\n";
    for spec in OPTIONS.iter().filter(|s| s.bounds.is_some()) {
        let (min, max) = spec.bounds.unwrap();
        let name = match spec.ty {
            Ty::OptionString => format!("SVG_{}_BYTES_BOUNDS", spec.wit.to_uppercase()),
            _ => format!("{}_BOUNDS", spec.py.to_uppercase()),
        };
        let _ = writeln!(out, "{name} = ({min}, {max})");
        if let Some((min, max)) = spec.micro_bounds {
            let _ = writeln!(out, "MICRO_{name} = ({min}, {max})");
        }
    }
    out += "\n\nclass OptionSpec(NamedTuple):\n";
    out += "    \"\"\"One option: its keyword, WIT name (the messages'), type, bounds and Micro QR's.\"\"\"\n\n";
    out +=
        "    keyword: str\n    wit: str\n    type: str\n    bounds: tuple[int, int] | None\n    micro_bounds: tuple[int, int] | None\n\n\n";
    let row = |s: &OptionSpec| {
        let pair = |b: Option<(u32, u32)>| b.map_or("None".into(), |(min, max)| format!("({min}, {max})"));
        let (bounds, micro) = (pair(s.bounds), pair(s.micro_bounds));
        format!("    OptionSpec(\"{}\", \"{}\", \"{}\", {bounds}, {micro}),\n", s.py, s.wit, kind_name(s.ty))
    };
    out += "# The options every generator takes (WIT `options`, then `symbol-options`), in check order.\n";
    let _ = writeln!(out, "OPTIONS = (\n{})", places(&[Place::Options, Place::Symbol]).map(row).collect::<String>());
    out += "# svg's own options (WIT `svg-options`) and text's own `style`, checked after the others.\n";
    let _ = writeln!(out, "SVG_OPTIONS = (\n{})", places(&[Place::Svg]).map(row).collect::<String>());
    let _ = writeln!(out, "TEXT_OPTIONS = (\n{})\n", places(&[Place::TextStyle]).map(row).collect::<String>());
    let mut symbol = BTreeMap::new();
    for s in places(&[Place::Symbol]) {
        match s.raw {
            Raw::SymbolFlag(bit) => symbol.insert(bit, s.wit.to_string()),
            Raw::SymbolParam(bit) => symbol.insert(bit, format!("has-{}", s.wit)),
            _ => None,
        };
    }
    let mut svg = BTreeMap::new();
    for s in places(&[Place::Svg]) {
        match s.raw {
            Raw::SvgFlag(bit) => svg.insert(bit, s.wit.to_string()),
            Raw::SvgBuffer(bit) => svg.insert(bit, format!("has-{}", s.wit)),
            _ => None,
        };
    }
    let dict = |bits: &BTreeMap<u32, String>| bits.iter().map(|(bit, name)| format!("\"{name}\": {bit}")).collect::<Vec<_>>().join(", ");
    out += "# The raw ABI's `symbol_flags` and `svg_flags` bits (guest/raw/ABI.md).\n";
    let _ = writeln!(out, "RAW_SYMBOL_FLAGS = {{{}}}", dict(&symbol));
    let _ = writeln!(out, "RAW_SVG_FLAGS = {{{}}}", dict(&svg));
    // The symbol record as the glues take it: a NamedTuple by keyword, its raw flags word, its WIT fields.
    let symbol = places(&[Place::Symbol]).collect::<Vec<_>>();
    out += "\n\nclass Symbol(NamedTuple):\n";
    out += "    \"\"\"Checked symbol options (WIT `symbol-options`), not all at their defaults: the bools\n";
    out += "    exact bools, the numbers None or ints within u32 (the guest checks their bounds).\"\"\"\n\n";
    for s in &symbol {
        let _ = writeln!(out, "    {}: {} = {}", s.py, py_type(s), py_default(s.default));
    }
    out += "\n\ndef symbol_flags(symbol: Symbol) -> int:\n";
    out += "    \"\"\"`symbol`'s raw `symbol_flags` word (RAW_SYMBOL_FLAGS).\"\"\"\n";
    let terms = symbol
        .iter()
        .map(|s| match s.raw {
            Raw::SymbolFlag(bit) => format!("({bit} if symbol.{} else 0)", s.py),
            Raw::SymbolParam(bit) => format!("(0 if symbol.{} is None else {bit})", s.py),
            other => panic!("{}: {other:?} is not a symbol_flags slot", s.wit),
        })
        .collect::<Vec<_>>()
        .join("\n            | ");
    let _ = writeln!(out, "    return ({terms})");
    out += "\n\ndef symbol_fields(symbol: Symbol) -> dict[str, object]:\n";
    out += "    \"\"\"`symbol`'s fields by their WIT names (the component's `symbol-options` record).\"\"\"\n";
    let fields = symbol.iter().map(|s| format!("\"{}\": symbol.{}", s.wit, s.py)).collect::<Vec<_>>().join(",\n            ");
    let _ = writeln!(out, "    return {{{fields}}}");
    // The keyword arguments, as TypedDicts for `**options: Unpack[...]`.
    let typed_dict = |out: &mut String, name: &str, base: &str, doc: &str, specs: &mut dyn Iterator<Item = &OptionSpec>| {
        let _ = writeln!(out, "\n\nclass {name}({base}, total=False):\n    \"\"\"{doc}\"\"\"\n");
        for spec in specs {
            let doc = wrap(&default_doc(spec), 100).join("\n    ");
            let _ = writeln!(out, "    {}: {}\n    \"\"\"{doc}\"\"\"", spec.py, py_type(spec));
        }
    };
    typed_dict(
        &mut out,
        "OptionKeywords",
        "TypedDict",
        "The keywords png, matrix and the data URIs take, each optional.",
        &mut places(&[Place::Options, Place::Symbol]),
    );
    typed_dict(&mut out, "SvgKeywords", "OptionKeywords", "svg's keywords: the others and the SVG options.", &mut places(&[Place::Svg]));
    typed_dict(&mut out, "TextKeywords", "OptionKeywords", "text's keywords: the others and the style.", &mut places(&[Place::TextStyle]));
    let keywords = |specs: &[Place]| places(specs).map(|s| format!("    \"{}\",\n", s.py)).collect::<String>();
    out += "\n\n# Each function's keywords, in check order: anything else is an unknown option.\n";
    let _ = writeln!(out, "KEYWORDS = (\n{})", keywords(&[Place::Options, Place::Symbol]));
    out += "\"\"\"The keywords of png, matrix and the data URIs, in check order.\"\"\"\n";
    let _ = writeln!(out, "SVG_KEYWORDS = (\n    *KEYWORDS,\n{})", keywords(&[Place::Svg]));
    out += "\"\"\"svg's keywords, in check order.\"\"\"\n";
    let _ = writeln!(out, "TEXT_KEYWORDS = (\n    *KEYWORDS,\n{})", keywords(&[Place::TextStyle]));
    out += "\"\"\"text's keywords, in check order.\"\"\"\n";
    let specs = places(&[Place::Options, Place::Symbol]).collect::<Vec<_>>();
    let tuple_type = specs.iter().map(|s| py_type(s).replace("EcLevel", "str")).collect::<Vec<_>>().join(", ");
    let defaults = |s: &OptionSpec| match s.default {
        DefaultValue::None => "None".to_string(),
        _ if s.py == "svg_class" => "DEFAULT_CLASS".to_string(),
        _ => format!("DEFAULT_{}", s.py.to_uppercase()),
    };
    let values = specs.iter().map(|s| format!("get(\"{}\", {})", s.py, defaults(s))).collect::<Vec<_>>().join(",\n        ");
    out += "\n\ndef option_values(options: Mapping[str, object]) -> OptionValues:\n";
    out += "    \"\"\"The values of `KEYWORDS` in check order, a missing one its default's own object\n";
    out += "    (the checks recognise the defaults by identity). Not checked: callers check them.\"\"\"\n";
    out += "    get = options.get\n";
    let _ = writeln!(out, "    return cast(\"OptionValues\", (\n        {values},\n    ))");
    let svg = places(&[Place::Svg]).collect::<Vec<_>>();
    let svg_type = svg.iter().map(|s| py_type(s)).collect::<Vec<_>>().join(", ");
    let svg_values = svg.iter().map(|s| format!("get(\"{}\", {})", s.py, defaults(s))).collect::<Vec<_>>().join(",\n        ");
    out += "\n\ndef svg_values(options: Mapping[str, object]) -> tuple[object, object, object]:\n";
    let _ = writeln!(out, "    \"\"\"svg's own keywords ({svg_type}) in check order, as `option_values`.\"\"\"");
    out += "    get = options.get\n";
    let _ = writeln!(out, "    return (\n        {svg_values},\n    )");
    let marker = "\n\nclass OptionSpec(NamedTuple):";
    let alias = format!("\n# option_values's tuple: the options' types in check order.\nOptionValues = tuple[{tuple_type}]\n");
    out = out.replacen(marker, &format!("{alias}{marker}"), 1);
    out
}

// ---------------------------------------------------------------- the CLIs and the docs

/// One CLI flag per option, in the table's order: the flag (without its
/// dashes), the option's spelling in the host, its type, the value's name
/// (None for a flag that takes none), the one subcommand that takes it (None:
/// every one) and the help line, with the default and the possible values
/// appended as clap appends them to the Rust CLI's.
struct Flag {
    flag: &'static str,
    wit: &'static str,
    js: &'static str,
    py: &'static str,
    kind: &'static str,
    value: Option<String>,
    command: Option<&'static str>,
    help: String,
}

fn flags() -> Vec<Flag> {
    OPTIONS
        .iter()
        .map(|spec| {
            // The value's name as the Rust CLI shows it (its `value_name`s; clap's default elsewhere).
            let value = match (spec.ty, spec.place, spec.wit) {
                (Ty::Bool, ..) => None,
                (Ty::Rgba, ..) => Some("HEX".to_string()),
                (Ty::OptionU32, Place::Symbol, _) => Some("N".to_string()),
                (Ty::OptionString, _, "title") => Some("TEXT".to_string()),
                (Ty::OptionString, ..) => Some("NAMES".to_string()),
                _ => Some(spec.cli.to_uppercase().replace('-', "_")),
            };
            let command = match spec.place {
                Place::Svg => Some("svg"),
                Place::TextStyle => Some("text"),
                _ => None,
            };
            let mut help = qrglue_core::contract::help(spec);
            match spec.default {
                DefaultValue::None | DefaultValue::Bool(false) => {}
                DefaultValue::U32(n) => help += &format!(" [default: {n}]"),
                DefaultValue::EcLevel(level) => help += &format!(" [default: {}]", level.as_str()),
                DefaultValue::TextStyle(style) => help += &format!(" [default: {}]", style.as_str()),
                DefaultValue::Rgba(rgba) => help += &format!(" [default: {}]", rgba.to_hex()),
                DefaultValue::Bool(true) => help += " [default: true]",
            }
            match spec.ty {
                Ty::EcLevel => help += &format!(" [possible values: {}]", EcLevel::ALL.map(|l| l.as_str()).join(", ")),
                Ty::TextStyle => help += &format!(" [possible values: {}]", TextStyle::ALL.map(|s| s.as_str()).join(", ")),
                _ => {}
            }
            Flag { flag: spec.cli, wit: spec.wit, js: spec.js, py: spec.py, kind: kind_name(spec.ty), value, command, help }
        })
        .collect()
}

fn node_cli() -> String {
    let mut out = notice("//") + "//\n";
    out += "// The CLI's option flags (cli.js reads them), one per option of the contract's table, in\n";
    out += "// its order: the flag, the option's JS name, its type, the value's name (null: a flag that\n";
    out += "// takes none), the one subcommand that takes it (null: every one) and the help line, the\n";
    out += "// default and the possible values appended as clap appends them to the Rust CLI's.\n\n";
    out += "export const CLI_FLAGS = Object.freeze([\n";
    let js = |value: &str| serde_json::to_string(value).unwrap().replace('\'', "\\'").trim_matches('"').to_string();
    for f in flags() {
        let value = f.value.map_or("null".to_string(), |v| format!("'{v}'"));
        let command = f.command.map_or("null".to_string(), |c| format!("'{c}'"));
        let _ = writeln!(
            out,
            "  Object.freeze({{\n    flag: '{}', name: '{}', type: '{}', value: {value}, command: {command},\n    help: '{}',\n  }}),",
            f.flag,
            f.js,
            f.kind,
            js(&f.help)
        );
    }
    out += "]);\n";
    out
}

fn python_cli() -> String {
    let mut out = notice("#");
    out += "\"\"\"The CLI's option flags (`__main__` reads them), one per option of the contract's table, in its\n";
    out += "order: the flag, the keyword, the type, the metavar (None: a flag that takes none), the one\n";
    out += "subcommand that takes it (None: every one) and the help line (argparse's: `%` doubled), the\n";
    out += "default and the possible values appended as clap appends them to the Rust CLI's.\"\"\"\n\n";
    out += "from __future__ import annotations\n\nfrom typing import NamedTuple\n\n\n";
    out += "class CliFlag(NamedTuple):\n    flag: str\n    keyword: str\n    type: str\n    metavar: str | None\n";
    out += "    command: str | None\n    help: str\n\n\n";
    out += "CLI_FLAGS = (\n";
    for f in flags() {
        let value = f.value.map_or("None".to_string(), |v| format!("\"{v}\""));
        let command = f.command.map_or("None".to_string(), |c| format!("\"{c}\""));
        // In pieces of at most 90 characters, each a literal of its own (the lines stay within ruff's bound).
        let pieces = wrap(&f.help.replace('%', "%%"), 90);
        let last = pieces.len() - 1;
        let help = pieces
            .iter()
            .enumerate()
            .map(|(i, piece)| serde_json::to_string(&if i < last { format!("{piece} ") } else { piece.clone() }).unwrap())
            .collect::<Vec<_>>()
            .join("\n            ");
        let _ = writeln!(out, "    CliFlag(\"{}\", \"{}\", \"{}\", {value}, {command},\n            {help}),", f.flag, f.py, f.kind);
    }
    out += ")\n";
    out
}

/// docs/contract.md, where the generated option table lives.
const DOCS: &str = "docs/contract.md";
const DOCS_BEGIN: &str = "<!-- options: generated by tools/contract from contract::OPTIONS (`just contract`); do not edit -->\n";
const DOCS_END: &str = "<!-- end of options -->\n";

/// `docs` with the option table between its markers (appended, with its
/// heading, when the page has none yet).
fn docs_with_options(docs: &str) -> String {
    let mut table = String::from(DOCS_BEGIN);
    table += "\n| WIT | JavaScript | Python | CLI flag | query | type | default | what it does |\n";
    table += "|---|---|---|---|---|---|---|---|\n";
    for spec in OPTIONS {
        let default = match spec.default {
            DefaultValue::None => "none".to_string(),
            other => js_default(other).trim_matches('\'').to_string(),
        };
        let _ = writeln!(
            table,
            "| `{}` | `{}` | `{}` | `--{}` | {} | {} | `{default}` | {} |",
            spec.wit,
            spec.js,
            spec.py,
            spec.cli,
            spec.query.map_or("-".to_string(), |q| format!("`{q}`")),
            wit_type_of(spec.ty),
            qrglue_core::contract::help(spec).replace('|', "\\|").replace('<', "&lt;"),
        );
    }
    table += "\n";
    table += DOCS_END;
    match (docs.find(DOCS_BEGIN), docs.find(DOCS_END)) {
        (Some(begin), Some(end)) if begin < end => format!("{}{table}{}", &docs[..begin], &docs[end + DOCS_END.len()..]),
        _ => format!("{docs}\n## The options\n\n{table}"),
    }
}

// ---------------------------------------------------------------- Go and Java

/// A contract message's name in upper snake case (`too-long` -> `TOO_LONG`).
fn upper(name: &str) -> String {
    name.to_uppercase().replace('-', "_")
}

/// A Go string literal (JSON's escapes are Go's for these texts).
fn go_str(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A `{name}` template as a Go format string: numbers as %d, `{char}` as
/// U+%04X, the rest as %s (a `{value}` is a number in the two byte/range
/// templates, a quoted string elsewhere).
fn go_format(key: &str, template: &str) -> String {
    let numeric_value = matches!(key, "too-long" | "out-of-range");
    template
        .replace("{option}", "%s")
        .replace("{index}", "%d")
        .replace("{min}", "%d")
        .replace("{max}", "%d")
        .replace("{char}", "U+%04X")
        .replace("{value}", if numeric_value { "%d" } else { "%s" })
}

fn go(contract: &serde_json::Value) -> String {
    let mut out = String::from("// Code generated by tools/contract from guest/core/src/contract.rs; DO NOT EDIT.\n");
    out += "// `just contract` writes it; `just lint` checks it is fresh.\n\n";
    out += "package qrglue\n\n";
    out += "// The Go host's option layer: the contract's names, defaults, bounds, messages and the raw\n";
    out += "// ABI's flag bits, from the one option table. options.go, raw.go, check.go and errors.go use\n";
    out += "// them; nothing there restates them.\n\n";
    let list = |items: Vec<&str>| items.iter().map(|s| go_str(s)).collect::<Vec<_>>().join(", ");
    let _ = writeln!(out, "// ecLevelNames are the WIT `ec-level` cases; the index is the raw ABI's encoding.");
    let _ = writeln!(out, "var ecLevelNames = [...]string{{{}}}\n", list(EcLevel::ALL.iter().map(|l| l.as_str()).collect()));
    let _ = writeln!(out, "// textStyleNames are the WIT `text-style` cases; the index is the raw ABI's encoding.");
    let _ = writeln!(out, "var textStyleNames = [...]string{{{}}}\n", list(TextStyle::ALL.iter().map(|s| s.as_str()).collect()));
    let _ = writeln!(out, "// MaxTextBytes: no QR code holds more (numeric, version 40-L); a longer text or payload is");
    let _ = writeln!(out, "// data-too-long before any byte enters the guest.");
    let _ = writeln!(out, "const MaxTextBytes = {}\n", contract["max_text_bytes"]);
    let _ = writeln!(out, "// MaxPNGRepeatTimes: the most renders one PNGRepeat probe call may ask for.");
    let _ = writeln!(out, "const MaxPNGRepeatTimes = {}\n", contract["max_png_repeat_times"]);
    // One const group: go/doc gives the group's comment to each name (hosts/go/doc_test.go checks it).
    out += "// The contract's defaults for the options Go cannot leave at their zero value.\nconst (\n";
    let defaults: Vec<(String, String)> = OPTIONS
        .iter()
        .filter_map(|spec| {
            let value = match spec.default {
                DefaultValue::U32(n) => n.to_string(),
                DefaultValue::Rgba(rgba) => go_str(&rgba.to_hex()),
                _ => return None,
            };
            Some((format!("Default{}", upper_camel(spec.wit)), value))
        })
        .collect();
    // Aligned as gofmt aligns a const group.
    let width = defaults.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, value) in &defaults {
        let _ = writeln!(out, "\t{name:width$} = {value}");
    }
    out += ")\n";
    out += "\n// The contract's bounds, inclusive (the guest checks them; the host only what it cannot carry).\n";
    let mut svg_bounds = String::from("\n// The SVG strings' bounds in UTF-8 bytes: never copied into a guest past them.\n");
    for spec in OPTIONS.iter().filter(|s| s.bounds.is_some()) {
        let (min, max) = spec.bounds.unwrap();
        if spec.ty == Ty::OptionString {
            let _ = writeln!(svg_bounds, "const svg{}MaxBytes = {max}", upper_camel(spec.wit));
            continue;
        }
        let name = go_lower_camel(spec.wit);
        let _ = writeln!(out, "var {name}Bounds = [2]uint32{{{min}, {max}}}");
        if let Some((min, max)) = spec.micro_bounds {
            let _ = writeln!(out, "var micro{}Bounds = [2]uint32{{{min}, {max}}}", upper_camel(spec.wit));
        }
    }
    out += &svg_bounds;
    out += "\n// The contract's messages, as format strings (a template's {name}s in order).\n";
    for (key, message) in messages(contract) {
        let text = message.as_str().unwrap();
        let suffix = if text.contains('{') { "Template" } else { "Message" };
        let _ = writeln!(out, "const {}{suffix} = {}", go_lower_camel(key), go_str(&go_format(key, text)));
    }
    let raw = &contract["raw_abi"];
    out += "\n// The raw ABI (guest/raw/ABI.md): the version this glue is written against, the result record's\n";
    out += "// size ({status, payload_ptr, payload_len}), and the bits of symbol_flags and svg_flags.\n";
    let _ = writeln!(out, "const rawABIVersion = {}", raw["version"]);
    let _ = writeln!(out, "const rawRecordBytes = {}", raw["record_bytes"]);
    for (prefix, key) in [("symbol", "symbol_flags"), ("svg", "svg_flags")] {
        for (name, bit) in raw[key].as_object().unwrap() {
            let _ = writeln!(out, "const {prefix}{} = {bit}", upper_camel(name));
        }
    }
    out += &go_settings();
    out += &go_flag_option();
    out += &go_symbol::go_symbol_flags();
    out += "\n// CLIFlag is one CLI option flag, as the Rust CLI (clap) declares it.\n";
    out += "type CLIFlag struct {\n";
    out += "\t// Flag is the flag's name without dashes.\n\tFlag string\n";
    out += "\t// Name is the option's WIT name.\n\tName string\n";
    out += "\t// Kind is the option's type, one of the contract table's kinds.\n\tKind string\n";
    out += "\t// Value is the value's name in the help (\"\" for a flag that takes none).\n\tValue string\n";
    out += "\t// Command is the one subcommand that takes the flag (\"\": every one).\n\tCommand string\n";
    out += "\t// Help is the help line, the default and possible values appended as clap appends them.\n\tHelp string\n";
    out += "}\n\n";
    out += "// CLIFlags is the CLI's option flags, one per option of the contract's table, in its order.\n";
    out += "var CLIFlags = []CLIFlag{\n";
    for f in flags() {
        let _ = writeln!(
            out,
            "\t{{{}, {}, {}, {}, {}, {}}},",
            go_str(f.flag),
            go_str(f.wit),
            go_str(f.kind),
            go_str(f.value.as_deref().unwrap_or("")),
            go_str(f.command.unwrap_or("")),
            go_str(&f.help)
        );
    }
    out += "}\n";
    out
}

/// `min-version` -> `MinVersion`; `eci` -> `ECI`, `ec` -> `EC` (Go's initialisms).
fn upper_camel(wit: &str) -> String {
    wit.split('-')
        .map(|part| match part {
            "ec" | "eci" | "id" | "utf8" | "xml" => part.to_uppercase(),
            _ => {
                let mut c = part.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            }
        })
        .collect()
}

/// `min-version` -> `minVersion`, `micro-ec-level` -> `microECLevel`.
fn go_lower_camel(wit: &str) -> String {
    let (first, rest) = wit.split_once('-').unwrap_or((wit, ""));
    format!("{first}{}", upper_camel(rest))
}

/// A Java string literal.
fn java_str(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

fn java(contract: &serde_json::Value) -> String {
    let mut out = notice("//") + "\n";
    out += "package dev.qrglue;\n\nimport java.util.List;\nimport java.util.Map;\n\n";
    out += "/**\n * The contract's constants (guest/core/src/contract.rs): defaults, bounds, kinds, messages, the raw\n";
    out += " * ABI's codes and the CLI's option flags, generated from the one option table so the jar stands\n";
    out += " * alone and nothing hand-written restates them.\n */\n";
    out += "public final class Contract {\n    private Contract() {}\n\n";
    let list = |items: Vec<String>| items.iter().map(|s| java_str(s)).collect::<Vec<_>>().join(", ");
    let strings = |v: &serde_json::Value| v.as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_string()).collect::<Vec<_>>();
    out += "    /** WIT {@code ec-level} cases; the index is the raw ABI's encoding. */\n";
    let _ = writeln!(out, "    public static final List<String> EC_LEVELS = List.of({});", list(strings(&contract["ec_levels"])));
    out += "    /** WIT {@code text-style} cases; the index is the raw ABI's encoding. */\n";
    let _ = writeln!(out, "    public static final List<String> TEXT_STYLES = List.of({});", list(strings(&contract["text_styles"])));
    out += "    /** WIT {@code qr-error} cases, in declaration order. */\n";
    let _ = writeln!(out, "    public static final List<String> ERROR_KINDS = List.of({});", list(strings(&contract["error_kinds"])));
    out += "    /** The order in which the checks run: with two mistakes at once, the first is reported. */\n";
    let _ = writeln!(
        out,
        "    public static final List<String> ERROR_CHECK_ORDER = List.of({});\n",
        list(strings(&contract["error_check_order"]))
    );
    out += "    // Each option's default (WIT has none); an absent one is none.\n";
    for spec in OPTIONS {
        let name = format!("DEFAULT_{}", upper(spec.wit));
        let line = match spec.default {
            DefaultValue::U32(n) => format!("public static final int {name} = {n};"),
            DefaultValue::Rgba(rgba) => format!("public static final String {name} = {};", java_str(&rgba.to_hex())),
            DefaultValue::Bool(b) => format!("public static final boolean {name} = {b};"),
            DefaultValue::EcLevel(l) => format!("public static final String {name} = {};", java_str(l.as_str())),
            DefaultValue::TextStyle(s) => format!("public static final String {name} = {};", java_str(s.as_str())),
            DefaultValue::None => continue,
        };
        let _ = writeln!(out, "    /** Default of {{@code {}}}: {} */", spec.wit, spec.doc.replace('<', "&lt;"));
        let _ = writeln!(out, "    {line}");
    }
    out += "\n    // Inclusive bounds (the guest checks them); the SVG strings' in UTF-8 bytes.\n";
    for spec in OPTIONS.iter().filter(|s| s.bounds.is_some()) {
        let (min, max) = spec.bounds.unwrap();
        if spec.ty == Ty::OptionString {
            let _ = writeln!(out, "    /** The most UTF-8 bytes the SVG's {{@code {}}} may hold. */", spec.wit);
            let _ = writeln!(out, "    public static final int MAX_SVG_{}_BYTES = {max};", upper(spec.wit));
            continue;
        }
        let _ = writeln!(out, "    /** {{@code {}}}'s bounds: {{min, max}}, inclusive. */", spec.wit);
        let _ = writeln!(out, "    public static final long[] {}_BOUNDS = {{{min}, {max}}};", upper(spec.wit));
        if let Some((min, max)) = spec.micro_bounds {
            let _ = writeln!(out, "    /** {{@code {}}}'s bounds with {{@code micro}}: {{min, max}}, inclusive. */", spec.wit);
            let _ = writeln!(out, "    public static final long[] MICRO_{}_BOUNDS = {{{min}, {max}}};", upper(spec.wit));
        }
    }
    out += "\n    /** No QR code holds more bytes: longer inputs are data-too-long before entering the guest. */\n";
    let _ = writeln!(out, "    public static final int MAX_TEXT_BYTES = {};", contract["max_text_bytes"]);
    out += "    /** The most renders one pngRepeat probe call may ask for. */\n";
    let _ = writeln!(out, "    public static final int MAX_PNG_REPEAT_TIMES = {};\n", contract["max_png_repeat_times"]);
    out += "    // The contract's messages; a template's {name}s are filled by fill().\n";
    for (key, message) in messages(contract) {
        let text = message.as_str().unwrap();
        let suffix = if text.contains('{') { "TEMPLATE" } else { "MESSAGE" };
        let what = if text.contains('{') { "message template (its {name}s filled by the case)" } else { "message" };
        let _ = writeln!(out, "    /** The contract's {{@code {key}}} {what}. */");
        let _ = writeln!(out, "    public static final String {}_{suffix} = {};", upper(key), java_str(text));
    }
    let raw = &contract["raw_abi"];
    out += "\n    /** The raw ABI's version (guest/raw/ABI.md) that the bundled guest implements. */\n";
    let _ = writeln!(out, "    public static final int RAW_ABI_VERSION = {};", raw["version"]);
    out += "    /** Bytes in a raw ABI result record: status, payload pointer, payload length (u32 each). */\n";
    let _ = writeln!(out, "    public static final int RAW_RECORD_BYTES = {};", raw["record_bytes"]);
    out += "    /** Status code to kind; 0 is ok. */\n";
    let codes = raw["status_codes"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(kind, code)| (code.as_u64().unwrap(), kind.clone()))
        .collect::<BTreeMap<_, _>>()
        .into_iter()
        .map(|(code, kind)| format!("{code}, {}", java_str(&kind)))
        .collect::<Vec<_>>()
        .join(", ");
    let _ = writeln!(out, "    public static final Map<Integer, String> RAW_STATUS_KINDS = Map.of({codes});\n");
    for (prefix, key) in [("SYMBOL", "symbol_flags"), ("SVG", "svg_flags")] {
        for (name, bit) in raw[key].as_object().unwrap() {
            let _ = writeln!(out, "    /** The raw ABI's {{@code {key}}} bit {{@code {name}}} (guest/raw/ABI.md). */");
            let _ = writeln!(out, "    public static final int RAW_{prefix}_{} = {bit};", upper(name));
        }
    }
    out += "\n";
    out += &java_generic::java_symbol_flags();
    out += "    /**\n     * One CLI option flag: the flag without its dashes, the option's name, its type (the table's\n";
    out += "     * kinds), the value's name (null: a flag that takes none), the one subcommand that takes it\n";
    out += "     * (null: every one) and the help line, with the default and possible values clap appends.\n     *\n";
    out += "     * @param flag the flag without its dashes\n     * @param name the option's Java name\n";
    out += "     * @param type the table's kind of the option\n     * @param value the value's name (null: the flag takes none)\n";
    out += "     * @param command the one subcommand that takes it (null: every one)\n";
    out += "     * @param help the help line\n     */\n";
    out += "    public record CliFlag(String flag, String name, String type, String value, String command, String help) {}\n\n";
    out += "    /** The CLI's option flags, one per option of the contract's table, in its order. */\n";
    out += "    public static final List<CliFlag> CLI_FLAGS = List.of(\n";
    let rows = flags()
        .into_iter()
        .map(|f| {
            let opt = |v: Option<&str>| v.map_or("null".to_string(), java_str);
            format!(
                "            new CliFlag(\n                    {}, {}, {}, {}, {},\n                    {})",
                java_str(f.flag),
                java_str(f.js),
                java_str(f.kind),
                opt(f.value.as_deref()),
                opt(f.command),
                java_str(&f.help)
            )
        })
        .collect::<Vec<_>>()
        .join(",\n");
    out += &rows;
    out += ");\n\n";
    out += "    /** A template with its {name} placeholders filled, in the given (name, value) pairs. */\n";
    out += "    static String fill(String template, Object... pairs) {\n        String out = template;\n";
    out += "        for (int i = 0; i < pairs.length; i += 2) {\n";
    out += "            out = out.replace(\"{\" + pairs[i] + \"}\", String.valueOf(pairs[i + 1]));\n        }\n";
    out += "        return out;\n    }\n}\n";
    out
}

/// Java's Options record and its builder (WIT `options` with its
/// `symbol-options`), defaults from the generated Contract.
fn java_options() -> String {
    let specs = places(&[Place::Options, Place::Symbol]).collect::<Vec<_>>();
    let ty = |s: &OptionSpec| match s.ty {
        Ty::EcLevel => "EcLevel",
        Ty::U32 => "long",
        Ty::OptionU32 => "OptionalLong",
        Ty::Rgba => "String",
        Ty::Bool => "boolean",
        other => panic!("{}: {other:?} is not an option of Options", s.wit),
    };
    let nullable = |s: &OptionSpec| matches!(s.ty, Ty::EcLevel | Ty::OptionU32 | Ty::Rgba);
    let upper_first = |name: &str| {
        let mut c = name.chars();
        c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
    };
    let mut out = notice("//") + "\n";
    out += "package dev.qrglue;\n\nimport java.util.Objects;\nimport java.util.OptionalLong;\n\n";
    out += "/**\n * The options every output takes (WIT {@code options} with its {@code symbol-options}), immutable,\n";
    out += " * each at the contract's default unless set ({@link #DEFAULTS}). Numbers are {@code long} so that\n";
    out += " * any value a caller has reaches the checks and is named in the message as given: one outside u32\n";
    out += " * is the host's refusal, every bound and combination the guest's (docs/contract.md). Nothing is\n";
    out += " * checked here but nulls.\n *\n";
    for s in &specs {
        let _ = writeln!(out, " * @param {} {}", s.js, default_doc(s).replace('<', "&lt;"));
    }
    out += " */\npublic record Options(\n";
    out += &specs.iter().map(|s| format!("        {} {}", ty(s), s.js)).collect::<Vec<_>>().join(",\n");
    out += ") {\n\n    /** Every option at the contract's default. */\n    public static final Options DEFAULTS = builder().build();\n\n";
    out += "    /**\n     * The options as given: see {@link #builder()} to set only some.\n     *\n";
    out += "     * @throws NullPointerException if an object option is null\n     */\n";
    out += "    public Options {\n";
    for s in specs.iter().filter(|s| nullable(s)) {
        let _ = writeln!(out, "        Objects.requireNonNull({0}, \"{0}\");", s.js);
    }
    out += "    }\n\n    /**\n     * A builder at the defaults.\n     *\n     * @return a new builder\n     */\n    public static Builder builder() {\n        return new Builder();\n    }\n\n";
    out += "    /**\n     * A builder starting from these options.\n     *\n     * @return a new builder\n     */\n    public Builder toBuilder() {\n        Builder b = new Builder();\n";
    for s in &specs {
        let _ = writeln!(out, "        b.{0} = {0};", s.js);
    }
    out += "        return b;\n    }\n\n";
    out += &java_generic::java_options_get(&specs);
    out += "    /** The raw ABI's symbol_flags word (guest/raw/ABI.md). */\n    long symbolFlags() {\n        return 0";
    for s in &specs {
        match s.raw {
            Raw::SymbolFlag(bit) => {
                let _ = write!(out, "\n                | ({} ? {bit} : 0)", s.js);
            }
            Raw::SymbolParam(bit) => {
                let _ = write!(out, "\n                | ({}.isPresent() ? {bit} : 0)", s.js);
            }
            _ => {}
        }
    }
    out += ";\n    }\n\n";
    out += "    /** Builds {@link Options}; every setter returns the builder. Not thread-safe. */\n";
    out += "    public static final class Builder {\n";
    for s in &specs {
        let default = match s.default {
            DefaultValue::None => "OptionalLong.empty()".to_string(),
            DefaultValue::EcLevel(_) => format!("EcLevel.fromWitName(Contract.DEFAULT_{})", upper(s.wit)),
            _ => format!("Contract.DEFAULT_{}", upper(s.wit)),
        };
        let _ = writeln!(out, "        private {} {} = {default};", ty(s), s.js);
    }
    out += "\n        private Builder() {}\n";
    for s in &specs {
        let (param, value) = match s.ty {
            Ty::OptionU32 => ("long", "OptionalLong.of(value)".to_string()),
            Ty::EcLevel | Ty::Rgba => (ty(s), format!("Objects.requireNonNull(value, \"{}\")", s.js)),
            _ => (ty(s), "value".to_string()),
        };
        let doc = default_doc(s).replace('<', "&lt;");
        let _ = write!(
            out,
            "\n        /**\n         * {doc}\n         *\n         * @param value the {0}\n         * @return this builder\n         */\n        public Builder {0}({param} value) {{\n            {0} = {value};\n            return this;\n        }}\n",
            s.js
        );
        if s.ty == Ty::OptionU32 {
            let _ = write!(
                out,
                "\n        /**\n         * Back to none, the default.\n         *\n         * @return this builder\n         */\n        public Builder no{1}() {{\n            {0} = OptionalLong.empty();\n            return this;\n        }}\n",
                s.js,
                upper_first(s.js)
            );
        }
    }
    out += "\n        /** Sets the option named {@code name} (its Java name) to {@code value}, boxed (the CLI's table). */\n";
    out += "        Builder set(String name, Object value) {\n            return switch (name) {\n";
    for s in &specs {
        let cast = match s.ty {
            Ty::EcLevel => "(EcLevel) value",
            Ty::U32 | Ty::OptionU32 => "(Long) value",
            Ty::Rgba => "(String) value",
            Ty::Bool => "(Boolean) value",
            _ => unreachable!(),
        };
        let _ = writeln!(out, "                case \"{0}\" -> {0}({cast});", s.js);
    }
    out += "                default -> throw new IllegalArgumentException(\"no option \" + name);\n            };\n        }\n\n";
    out += "        /**\n         * The options set so far, the others at their defaults.\n         *\n         * @return the options\n         */\n";
    out += "        public Options build() {\n            return new Options(\n                    ";
    out += &specs.iter().map(|s| s.js).collect::<Vec<_>>().join(", ");
    out += ");\n        }\n    }\n}\n";
    out
}

/// A Go field name for an option (`minVersion`, `viewBoxOnly`; text's own `style`).
fn go_field(s: &OptionSpec) -> String {
    if s.ty == Ty::TextStyle { "style".to_string() } else { go_lower_camel(s.wit) }
}

/// The Go host's settings (every option of a call), their defaults, the With*
/// options and the raw ABI's flag words.
fn go_settings() -> String {
    let mut out = String::new();
    let go_ty = |s: &OptionSpec| match s.ty {
        Ty::EcLevel => "ECLevel",
        Ty::TextStyle => "TextStyle",
        Ty::U32 | Ty::OptionU32 => "uint32",
        Ty::Rgba | Ty::OptionString => "string",
        Ty::Bool => "bool",
    };
    let optional = |s: &OptionSpec| matches!(s.ty, Ty::OptionU32 | Ty::OptionString);
    let has = |s: &OptionSpec| format!("has{}", upper_camel(s.wit));
    out += "\n// settings is every option of a call; newSettings gives the contract's defaults, which the\n";
    out += "// options change. An optional option has its has* field.\ntype settings struct {\n";
    let mut fields = Vec::new();
    for s in OPTIONS {
        if optional(s) {
            fields.push((has(s), "bool"));
        }
        fields.push((go_field(s), go_ty(s)));
    }
    // Aligned as gofmt aligns a struct's fields.
    let width = fields.iter().map(|(name, _)| name.len()).max().unwrap_or(0);
    for (name, ty) in fields {
        let _ = writeln!(out, "\t{name:width$} {ty}");
    }
    out += "}\n\nfunc newSettings() settings {\n\treturn settings{";
    let defaults = OPTIONS
        .iter()
        .filter_map(|s| match s.default {
            DefaultValue::U32(_) | DefaultValue::Rgba(_) => Some(format!("{}: Default{}", go_field(s), upper_camel(s.wit))),
            DefaultValue::Bool(true) => Some(format!("{}: true", go_field(s))),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(", ");
    out += &defaults;
    out += "}\n}\n";
    out += "\n// symbolFlags is the raw ABI's symbol_flags word.\nfunc (s *settings) symbolFlags() uint32 {\n\tvar flags uint32\n";
    let mut svg =
        String::from("\n// svgFlags is the raw ABI's svg_flags word.\nfunc (s *settings) svgFlags() uint32 {\n\tvar flags uint32\n");
    for s in OPTIONS {
        let (target, bit, on) = match s.raw {
            Raw::SymbolFlag(bit) => (&mut out, bit, format!("s.{}", go_field(s))),
            Raw::SymbolParam(bit) => (&mut out, bit, format!("s.{}", has(s))),
            Raw::SvgFlag(bit) => (&mut svg, bit, format!("s.{}", go_field(s))),
            Raw::SvgBuffer(bit) => (&mut svg, bit, format!("s.{}", has(s))),
            Raw::Param => continue,
        };
        let _ = writeln!(target, "\tif {on} {{\n\t\tflags |= {bit}\n\t}}");
    }
    out += "\treturn flags\n}\n";
    svg += "\treturn flags\n}\n";
    out += &svg;
    for s in OPTIONS {
        let (name, kind, wrapper) = match s.place {
            Place::Options | Place::Symbol => (format!("With{}", upper_camel(s.wit)), "Option", "common"),
            Place::Svg => (format!("With{}", upper_camel(s.wit)), "SVGOption", "svgOnly"),
            Place::TextStyle => ("WithStyle".to_string(), "TextOption", "textOnly"),
        };
        let field = go_field(s);
        let set = if optional(s) { format!("s.{}, s.{field} = true, value", has(s)) } else { format!("s.{field} = value") };
        let bounds = match (s.bounds, s.micro_bounds, s.ty) {
            (Some((_, max)), _, Ty::OptionString) => format!(" At most {max} UTF-8 bytes (the host refuses more)."),
            (Some((min, max)), Some((mmin, mmax)), _) => format!(" {min}..={max} ({mmin}..={mmax} with Micro)."),
            (Some((min, max)), None, _) => format!(" {min}..={max}."),
            _ => String::new(),
        };
        let default = match s.default {
            DefaultValue::None => "none".to_string(),
            DefaultValue::EcLevel(l) => l.as_str().to_string(),
            DefaultValue::TextStyle(t) => t.as_str().to_string(),
            DefaultValue::U32(n) => n.to_string(),
            DefaultValue::Rgba(rgba) => rgba.to_hex(),
            DefaultValue::Bool(b) => b.to_string(),
        };
        let doc = wrap(&format!("{name} sets {} (WIT `{}`): {}{bounds} Default {default}.", s.wit, s.wit, s.doc), 96);
        out += "\n";
        for line in doc {
            let _ = writeln!(out, "// {line}");
        }
        let _ = writeln!(out, "func {name}(value {}) {kind} {{\n\treturn {wrapper}(func(s *settings) {{ {set} }})\n}}", go_ty(s));
    }
    out
}

/// Go's NamedOption: the Option a WIT name sets, from its parsed value (the
/// CLI's and the corpus runner's table, so neither names an option itself).
fn go_flag_option() -> String {
    let mut out = String::from("\n// NamedOption is the Option every call takes named `name` in WIT (CLIFlag.Name), set to\n");
    out += "// value: a bool, a uint32, an ECLevel or a string by its Kind (the CLI's and the corpus's\n";
    out += "// table). It is nil for a name that is no such option.\nfunc NamedOption(name string, value any) Option {\n\tswitch name {\n";
    for s in places(&[Place::Options, Place::Symbol]) {
        let cast = match s.ty {
            Ty::EcLevel => "ECLevel",
            Ty::U32 | Ty::OptionU32 => "uint32",
            Ty::Rgba => "string",
            Ty::Bool => "bool",
            _ => unreachable!(),
        };
        let _ = writeln!(out, "\tcase {}:\n\t\treturn With{}(value.({cast}))", go_str(s.wit), upper_camel(s.wit));
    }
    out += "\t}\n\treturn nil\n}\n";
    out
}
