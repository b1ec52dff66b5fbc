//! The two .wasm files the justfile builds: valid, importing nothing,
//! exporting exactly the contract (wit/qr.wit for the component, the export
//! table of guest/raw/ABI.md for the raw module), and each capping its
//! linear memory at 64 MiB.

use std::collections::BTreeMap;

use qrglue_host::{ComponentRuntime, Generator, RawRuntime, shared_engine};
use wasmtime::{ExternType, ValType};

/// `Component::new` / `Module::new` validate before compiling; compiling
/// the embedded bytes afresh (not the shared runtime) makes that explicit.
#[test]
fn component_validates_and_imports_nothing() {
    let engine = shared_engine();
    let runtime = ComponentRuntime::compile(engine, qrglue_host::COMPONENT_WASM).expect("component validates and compiles");
    let ty = runtime.component().component_type();
    let imports: Vec<&str> = ty.imports(engine).map(|(name, _)| name).collect();
    assert!(imports.is_empty(), "the component imports {imports:?}");
    let mut exports: Vec<&str> = ty.exports(engine).map(|(name, _)| name).collect();
    exports.sort();
    assert_eq!(exports, ["qrglue:qr/generator@0.2.0", "qrglue:qr/probe@0.2.0", "qrglue:qr/types@0.2.0"]);
}

/// The shared engine has wasmtime's concurrency support off (issue 34: every
/// call here is synchronous), and the component compiles and runs in it: a
/// wasmtime feature unified in later would otherwise turn it on unnoticed.
#[test]
fn shared_engine_has_no_concurrency_support() {
    assert!(!shared_engine().get_concurrency_support());
    let runtime = ComponentRuntime::compile(shared_engine(), qrglue_host::COMPONENT_WASM).expect("component compiles");
    let mut generator = runtime.instantiate().expect("component instantiates");
    generator.noop().expect("noop");
}

/// The memories the component's core modules define (not import), read
/// from the component binary: wasmtime does not expose a component's core
/// memories, so wasmparser walks the nested modules.
fn component_core_memories() -> Vec<wasmparser::MemoryType> {
    let mut memories = Vec::new();
    let mut core_modules = 0;
    for payload in wasmparser::Parser::new(0).parse_all(qrglue_host::COMPONENT_WASM) {
        match payload.expect("the component parses") {
            wasmparser::Payload::ModuleSection { .. } => core_modules += 1,
            wasmparser::Payload::MemorySection(section) => {
                memories.extend(section.into_iter().map(|memory| memory.expect("a memory type")));
            }
            _ => {}
        }
    }
    assert!(core_modules >= 1, "the component embeds no core module");
    memories
}

#[test]
fn component_core_memory_is_capped_at_64_mib() {
    let memories = component_core_memories();
    // The guest's own linear memory, and nothing else that could grow.
    assert_eq!(memories.len(), 1, "the component's core modules define {} memories: {memories:?}", memories.len());
    let memory = memories[0];
    assert_eq!(memory.maximum, Some(1024), "memory must be capped at 1024 pages (64 MiB)");
    assert!(memory.initial <= 1024, "initial pages {}", memory.initial);
    assert!(!memory.memory64 && !memory.shared);
    // The same cap as the host's Store limit.
    assert_eq!(memory.maximum.unwrap() * 65_536, qrglue_host::GUEST_MEMORY_LIMIT as u64);
}

#[test]
fn garbage_is_rejected_as_a_component_and_as_a_module() {
    let engine = shared_engine();
    assert!(ComponentRuntime::compile(engine, b"\0asm\x0d\0\x01\0 not really").is_err());
    assert!(RawRuntime::compile(engine, &qrglue_host::RAW_WASM[..qrglue_host::RAW_WASM.len() / 2]).is_err());
}

/// ABI.md's export table: `memory`, then `name` -> (params, results), all i32.
fn abi_md_exports() -> BTreeMap<String, Option<(usize, usize)>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../guest/raw/ABI.md");
    let text = std::fs::read_to_string(path).expect("guest/raw/ABI.md");
    let section = text.split("## Exports").nth(1).expect("ABI.md has an Exports section");
    let section = section.split("\n## ").next().unwrap();
    let mut exports = BTreeMap::new();
    for row in section.lines().filter(|line| line.starts_with("| `")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let name = cells[1].trim_matches('`').to_owned();
        let signature = cells[2].trim_matches('`');
        let shape = if name == "memory" {
            None
        } else {
            let (params, results) = signature.split_once("->").unwrap_or_else(|| panic!("{name}: no `->` in {signature}"));
            let count = |list: &str| {
                let inner = list.trim().trim_start_matches('(').trim_end_matches(')').trim();
                if inner.is_empty() { 0 } else { inner.split(',').count() }
            };
            Some((count(params), count(results)))
        };
        exports.insert(name, shape);
    }
    assert!(exports.len() >= 10, "ABI.md's export table was not parsed: {exports:?}");
    exports
}

#[test]
fn raw_module_imports_nothing_and_exports_exactly_the_abi() {
    let runtime = RawRuntime::compile(shared_engine(), qrglue_host::RAW_WASM).expect("raw module validates and compiles");
    let module = runtime.module();
    let imports: Vec<String> = module.imports().map(|i| format!("{}::{}", i.module(), i.name())).collect();
    assert!(imports.is_empty(), "the raw module imports {imports:?}");

    let documented = abi_md_exports();
    let mut found = BTreeMap::new();
    for export in module.exports() {
        match export.ty() {
            ExternType::Func(func) => {
                assert!(func.params().chain(func.results()).all(|t| matches!(t, ValType::I32)), "{}: not all i32: {func:?}", export.name());
                found.insert(export.name().to_owned(), Some((func.params().len(), func.results().len())));
            }
            ExternType::Memory(memory) => {
                assert_eq!(export.name(), "memory");
                assert_eq!(memory.minimum(), 17, "initial pages (ABI.md)");
                assert_eq!(memory.maximum(), Some(1024), "memory must be capped at 1024 pages (64 MiB)");
                assert!(!memory.is_64() && !memory.is_shared());
                found.insert("memory".to_owned(), None);
            }
            // ABI.md: "The linker also exports the globals __data_end and
            // __heap_base; they are not part of the ABI." Nothing else may appear.
            ExternType::Global(_) => {
                assert!(["__data_end", "__heap_base"].contains(&export.name()), "undocumented global {}", export.name())
            }
            other => panic!("undocumented export {} of type {other:?}", export.name()),
        }
    }
    assert_eq!(found, documented, "raw module exports (left) differ from ABI.md's table (right)");
}
