//! Java's generic access to the options, so that hand-written Java can
//! iterate them instead of naming each one: the raw ABI's symbol bits by
//! option (`Contract.SYMBOL_FLAGS`, which HttpQuery decodes the C ABI's words
//! with) and a getter by name (`Options.get`, which the server's tiers read
//! the CLI's flag table and their refusals with).

use std::fmt::Write as _;

use qrglue_core::contract::{OptionSpec, Place, Raw};

use crate::places;

/// `Contract.SymbolFlag` and `Contract.SYMBOL_FLAGS`: each symbol option's
/// Java name, its bit of `symbol_flags` and, for a number, its word in the
/// raw ABI's options (-1 for a bool, which the bit is).
pub fn java_symbol_flags() -> String {
    // The symbol numbers' words follow symbol_flags (word 7), in the table's order.
    let mut word = 8;
    let mut rows = Vec::new();
    for s in places(&[Place::Symbol]) {
        let (bit, at) = match s.raw {
            Raw::SymbolFlag(bit) => (bit, -1),
            Raw::SymbolParam(bit) => {
                word += 1;
                (bit, word - 1)
            }
            _ => unreachable!("a symbol option is a flag or a flagged number"),
        };
        rows.push(format!("            new SymbolFlag(\"{}\", {bit}, {at})", s.js));
    }
    let mut out =
        String::from("    /**\n     * One symbol option's bit of the raw ABI's symbol_flags: its Java name, the bit, and the word of\n");
    out += "     * the raw ABI's options that holds its number when the bit is set (-1: the bit is the option).\n     *\n";
    out += "     * @param name the option's Java name\n     * @param bit its bit of symbol_flags\n";
    out += "     * @param word the index of the raw ABI's option word that holds its number (-1: none)\n     */\n";
    out += "    public record SymbolFlag(String name, int bit, int word) {}\n\n";
    out += "    /** Every symbol option's bit, in the table's (check) order. */\n";
    let _ = writeln!(out, "    public static final List<SymbolFlag> SYMBOL_FLAGS = List.of(\n{});\n", rows.join(",\n"));
    out
}

/// `Options.get(name)`: an option's value by its Java name, boxed.
pub fn java_options_get(specs: &[&OptionSpec]) -> String {
    let mut out =
        String::from("    /**\n     * The option named {@code name} (its Java name), boxed: for a table-driven reader.\n     *\n");
    out += "     * @param name the option's Java name ({@code minSize}, ...)\n     * @return its value, boxed\n";
    out += "     * @throws IllegalArgumentException if no option has that name\n     */\n";
    out += "    public Object get(String name) {\n        return switch (name) {\n";
    for s in specs {
        let _ = writeln!(out, "            case \"{0}\" -> {0};", s.js);
    }
    out += "            default -> throw new IllegalArgumentException(\"no option \" + name);\n        };\n    }\n\n";
    out
}
