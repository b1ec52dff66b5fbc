//! Go's table of the raw ABI's `symbol_flags` bits by option, exported for
//! the server (hosts/go/server reads the C ABI's options word by word and
//! names a symbol option only through this table).

use std::fmt::Write as _;

use qrglue_core::contract::{Place, Raw};

use crate::{go_str, places};

pub fn go_symbol_flags() -> String {
    let mut out = String::from("\n// SymbolFlag is one symbol option's bit in the raw ABI's symbol_flags word: the option's\n");
    out += "// WIT name (NamedOption's), and whether the bit says its number is given (a word of its own)\n";
    out += "// rather than being the option's bool.\ntype SymbolFlag struct {\n";
    out += "\t// Name is the option's WIT name.\n\tName string\n";
    out += "\t// Bit is the option's bit in the symbol_flags word.\n\tBit uint32\n";
    out += "\t// Number is true when the bit says the option's number is given in its own word.\n\tNumber bool\n}\n\n";
    out += "// SymbolFlags is every symbol option's bit, in the table's (check) order.\nvar SymbolFlags = []SymbolFlag{\n";
    for s in places(&[Place::Symbol]) {
        let (bit, number) = match s.raw {
            Raw::SymbolFlag(bit) => (bit, false),
            Raw::SymbolParam(bit) => (bit, true),
            _ => unreachable!("a symbol option is a flag or a flagged number"),
        };
        let _ = writeln!(out, "\t{{{}, {bit}, {number}}},", go_str(s.wit));
    }
    out += "}\n";
    out
}
