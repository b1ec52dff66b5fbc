//! Dumps what qrglue-core makes of texts, for oracles in other languages
//! (tests/oracles/kanji_oracle.py: zxing-cpp reads the PNG back, segno draws
//! the same matrix). One case a line on stdin, tab-separated: text (JSON
//! string), ec level name, then `kanji`, `version=N`, `mask=N`, `size=N`
//! words; one JSON object a line out: the matrix rows, the metadata, the
//! PNG as hex, or the error.

use std::io::BufRead;

use qrglue_core::{EcLevel, Options, Symbol};

fn main() {
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let mut fields = line.split('\t');
        let text: String = serde_json::from_str(fields.next().expect("text")).expect("a JSON string");
        let ec_level = EcLevel::from_name(fields.next().expect("level")).expect("a level name");
        let mut options = Options { ec_level, ..Options::default() };
        let mut symbol = Symbol::default();
        for word in fields {
            let number = |prefix: &str| word.strip_prefix(prefix).map(|n| n.parse::<u32>().expect("a number"));
            match word {
                "kanji" => symbol.kanji = true,
                _ if word.starts_with("version=") => symbol.version = number("version="),
                _ if word.starts_with("mask=") => symbol.mask = number("mask="),
                _ if word.starts_with("size=") => options.size = number("size="),
                other => panic!("unknown word {other}"),
            }
        }
        options.symbol = symbol;
        let out = match (qrglue_core::matrix(&text, &options), qrglue_core::png(&text, &options)) {
            (Ok(matrix), Ok(png)) => {
                let rows: Vec<String> =
                    (0..matrix.width()).map(|y| matrix.row(y).iter().map(|&d| if d { '1' } else { '0' }).collect()).collect();
                let info = matrix.info();
                serde_json::json!({
                    "rows": rows,
                    "version": info.version,
                    "ec_level": info.ec_level.as_str(),
                    "mask": info.mask,
                    "segments": info.modes.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
                    "png_hex": png.iter().map(|b| format!("{b:02x}")).collect::<String>(),
                })
            }
            (Err(e), _) | (_, Err(e)) => serde_json::json!({ "error": e.kind().as_str(), "message": e.to_string() }),
        };
        println!("{out}");
    }
}
