//! The raw ABI (guest/raw/ABI.md): arbitrary sequences of alloc, write,
//! free and generating calls with arbitrary pointers and lengths against one
//! wasmtime instance of target/wasm/qrglue.raw.wasm. The ABI promises no
//! trap but `qr_trap`'s, only its status codes, well-formed records inside
//! memory, and (our contract) the native core's bytes for every text it
//! takes; after a trap the next call still gives the golden bytes.
#![no_main]

use std::collections::BTreeMap;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use qrglue_core::contract::{RAW_ABI_VERSION, RAW_RECORD_BYTES};
use qrglue_core::{ErrorKind, QrError, flat};
use wasmtime::{Config, Engine, Instance, Memory, Module, Store, TypedFunc};

type P13 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);
type P14 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);
type P17 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);

/// The module's machine code, loaded once per fuzzing process: compiled
/// under the Rust host's engine settings (`qrglue-precompile-raw`, which
/// fuzz.sh runs first; the component model's wasm feature off, which a core
/// module's code does not depend on) from target/wasm/qrglue.raw.wasm, into
/// QRGLUE_RAW_CWASM, else target/fuzz/qrglue.raw.cwasm. This crate's wasmtime
/// has neither Cranelift nor the component model (Cargo.toml: libFuzzer's
/// instrumented build of the compiler was most of the crate's build).
fn module() -> &'static (Engine, Module) {
    static MODULE: OnceLock<(Engine, Module)> = OnceLock::new();
    MODULE.get_or_init(|| {
        let path = std::env::var("QRGLUE_RAW_CWASM")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target/fuzz/qrglue.raw.cwasm").to_string());
        // qrglue_host::engine_config's settings: wasmtime refuses code compiled
        // under other settings (or by another version), with a clear error.
        let mut config = Config::new();
        config.concurrency_support(false);
        let engine = Engine::new(&config).expect("the host's engine configuration is valid");
        // SAFETY: the file is qrglue-precompile-raw's output (fuzz.sh writes it
        // before every run, renaming it into place whole), and wasmtime checks
        // its version and settings before it maps the code.
        let module = unsafe { Module::deserialize_file(&engine, &path) }
            .unwrap_or_else(|e| panic!("{path}: {e} (fuzz.sh writes it with qrglue-precompile-raw)"));
        (engine, module)
    })
}

struct Guest {
    store: Store<()>,
    memory: Memory,
    alloc: TypedFunc<u32, u32>,
    free: TypedFunc<u32, u32>,
    png: TypedFunc<P13, u32>,
    matrix: TypedFunc<P13, u32>,
    png_bytes: TypedFunc<P13, u32>,
    text: TypedFunc<P14, u32>,
    svg: TypedFunc<P17, u32>,
    consume: TypedFunc<(u32, u32), u32>,
    produce: TypedFunc<u32, u32>,
    trap: TypedFunc<(), ()>,
}

impl Guest {
    fn new() -> Guest {
        let (engine, module) = module();
        let mut store = Store::new(engine, ());
        let instance = Instance::new(&mut store, module, &[]).expect("instantiates");
        let f = |store: &mut Store<()>, name: &str| instance.get_func(&mut *store, name).unwrap_or_else(|| panic!("export {name}"));
        let version: TypedFunc<(), u32> = f(&mut store, "qr_abi_version").typed(&store).unwrap();
        assert_eq!(version.call(&mut store, ()).unwrap(), RAW_ABI_VERSION);
        macro_rules! typed {
            ($name:literal) => {
                f(&mut store, $name).typed(&store).unwrap()
            };
        }
        Guest {
            memory: instance.get_memory(&mut store, "memory").unwrap(),
            alloc: typed!("qr_alloc"),
            free: typed!("qr_free"),
            png: typed!("qr_png"),
            matrix: typed!("qr_matrix"),
            png_bytes: typed!("qr_png_bytes"),
            text: typed!("qr_text"),
            svg: typed!("qr_svg"),
            consume: typed!("qr_consume"),
            produce: typed!("qr_produce"),
            trap: typed!("qr_trap"),
            store,
        }
    }

    /// A record: status, payload; well-formed and inside memory, or a finding.
    fn record(&mut self, ptr: u32) -> (u32, Vec<u8>) {
        let mem = self.memory.data(&self.store);
        let at = ptr as usize;
        assert!(ptr != 0 && at + RAW_RECORD_BYTES as usize <= mem.len(), "record pointer {ptr} outside memory ({})", mem.len());
        let word = |i: usize| u32::from_le_bytes(mem[at + 4 * i..at + 4 * i + 4].try_into().unwrap());
        let (status, payload_ptr, payload_len) = (word(0), word(1) as usize, word(2) as usize);
        assert!(status == 0 || ErrorKind::from_code(status).is_some(), "status {status} is not the ABI's");
        let payload = if payload_len == 0 {
            Vec::new()
        } else {
            assert!(payload_ptr.checked_add(payload_len).is_some_and(|end| end <= mem.len()), "payload outside memory");
            mem[payload_ptr..payload_ptr + payload_len].to_vec()
        };
        if status != 0 {
            assert!(std::str::from_utf8(&payload).is_ok_and(|m| !m.is_empty() || status == 1 || status == 3), "error message");
        }
        (status, payload)
    }

    /// The golden call: "hello" with the hosts' defaults, as the native core
    /// renders it.
    fn check_golden(&mut self) {
        let text = b"hello";
        let ptr = self.alloc.call(&mut self.store, text.len() as u32).expect("alloc never traps");
        assert_ne!(ptr, 0);
        self.memory.write(&mut self.store, ptr as usize, text).unwrap();
        let d = DEFAULTS;
        let rec =
            self.png.call(&mut self.store, (ptr, 5, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], d[8], d[9], d[10])).expect("no trap");
        let (status, payload) = self.record(rec);
        assert_eq!(status, 0);
        assert_eq!(payload, qrglue_core::png("hello", &qrglue_core::Options::default()).unwrap(), "the golden bytes");
        assert_eq!(self.free.call(&mut self.store, rec).unwrap(), 0);
    }
}

/// The hosts' defaults: low, 200, 4, no scale, black on white, automatic symbol.
const DEFAULTS: [u32; 11] = [0, 200, 4, 0, 0, 0x0000_00ff, 0xffff_ffff, 0, 0, 0, 0];

thread_local! {
    static GUEST: std::cell::RefCell<Option<Guest>> = const { std::cell::RefCell::new(None) };
}

/// A pointer: one of ours (by index into the live buffers), or any u32.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Ptr {
    Live(u8),
    Any(u32),
    Null,
}

#[derive(Arbitrary, Debug)]
enum Call {
    Alloc(u16),
    AllocHuge(u32),
    Write { buf: u8, offset: u16, bytes: Vec<u8> },
    Free(Ptr),
    Png { text: Ptr, len: Option<u32>, options: Opts, keep_record: bool },
    PngBytes { text: Ptr, len: Option<u32>, options: Opts },
    Matrix { text: Ptr, len: Option<u32>, options: Opts },
    Text { text: Ptr, len: Option<u32>, options: Opts, style: u32 },
    Svg { text: Ptr, len: Option<u32>, options: Opts, flags: u8, title_len: u32, strings: Ptr, strings_len: Option<u32> },
    Consume { buf: Ptr, len: Option<u32> },
    Produce(u16),
    Trap,
    Golden,
}

#[derive(Arbitrary, Debug, Clone, Copy)]
enum Opts {
    Defaults,
    Small { ec: u8, min_size: u16, quiet_zone: u8, scale: Option<u8>, colors: bool, symbol_flags: u8, version: u8, mask: u8 },
    Any([u32; 11]),
}

impl Opts {
    fn words(self) -> [u32; 11] {
        match self {
            Opts::Defaults => DEFAULTS,
            Opts::Small { ec, min_size, quiet_zone, scale, colors, symbol_flags, version, mask } => {
                let (dark, light) = if colors { (0x1122_33ff, 0xeedd_cc80) } else { (DEFAULTS[5], DEFAULTS[6]) };
                [
                    u32::from(ec % 5),
                    u32::from(min_size % 1100),
                    u32::from(quiet_zone % 18),
                    u32::from(scale.is_some()),
                    u32::from(scale.unwrap_or(0) % 22),
                    dark,
                    light,
                    u32::from(symbol_flags % 66),
                    u32::from(version % 42),
                    u32::from(version % 42),
                    u32::from(mask % 9),
                ]
            }
            Opts::Any(words) => words,
        }
    }
}

/// The host's view of its live buffers: pointer -> the bytes it wrote.
type Live = BTreeMap<u32, Vec<u8>>;

/// The pointer and length a call passes, and the bytes behind them if the
/// host knows them (a live buffer of its own, the length within it).
fn resolve(live: &mut Live, ptr: Ptr, len: Option<u32>) -> (u32, u32, Option<Vec<u8>>) {
    match ptr {
        Ptr::Null => (0, len.unwrap_or(0), (len.unwrap_or(0) == 0).then(Vec::new)),
        Ptr::Any(p) => {
            // The fuzzer finds our own pointers (comparison tracing): then
            // it is a live buffer like any other.
            let len = len.unwrap_or(0);
            let known = live.get(&p).and_then(|bytes| (len as usize <= bytes.len()).then(|| bytes[..len as usize].to_vec()));
            (p, len, known)
        }
        Ptr::Live(_) if live.is_empty() => (0, 0, Some(Vec::new())),
        Ptr::Live(i) => {
            let (&p, bytes) = live.iter().nth(i as usize % live.len()).unwrap();
            let len = len.unwrap_or(bytes.len() as u32);
            let known = (len as usize <= bytes.len()).then(|| bytes[..len as usize].to_vec());
            (p, len, known)
        }
    }
}

/// The native core's answer for the same call: the oracle.
fn native(
    known: &[u8],
    as_text: bool,
    words: [u32; 11],
    render: impl Fn(&[u8], &qrglue_core::Options) -> Result<Vec<u8>, QrError>,
) -> (u32, Vec<u8>) {
    // The guest's order: the text's checks, then the options (flat::options),
    // then the rest (ABI.md "Checks run in the contract's order").
    let text_error = if as_text { std::str::from_utf8(known).err().map(|_| ErrorKind::InvalidText) } else { None };
    let result = match (text_error, flat::options(words)) {
        (Some(_), _) => Err(qrglue_core::text_from_utf8(known).unwrap_err()),
        (None, Err(options_error)) => {
            // Text-level errors (empty, too long) come before the options'.
            match if as_text {
                qrglue_core::validate_text(std::str::from_utf8(known).unwrap())
            } else {
                qrglue_core::validate_payload(known)
            } {
                Err(e) => Err(e),
                Ok(()) => Err(options_error),
            }
        }
        (None, Ok(options)) => render(known, &options),
    };
    match result {
        Ok(bytes) => (0, bytes),
        Err(error) => (error.kind().code(), error_message(&error)),
    }
}

/// A record or payload the guest handed out and the host still holds.
fn guest_owned(kept: &[(u32, u32)], p: u32) -> bool {
    kept.iter().any(|&(rec, payload)| rec == p || payload == p)
}

/// Status and payload as compared with the native core: the payload when
/// the status carries one (success, invalid-text and invalid-options
/// messages); empty-text and data-too-long have no message in WIT.
fn comparable((status, payload): (u32, Vec<u8>)) -> (u32, Vec<u8>) {
    if status == 1 || status == 3 { (status, Vec::new()) } else { (status, payload) }
}

fn error_message(error: &QrError) -> Vec<u8> {
    match error {
        QrError::InvalidText(m) | QrError::InvalidOptions(m) => m.clone().into_bytes(),
        other => other.to_string().into_bytes(),
    }
}

fuzz_target!(|calls: Vec<Call>| {
    GUEST.with_borrow_mut(|slot| {
        // One instance for the whole process, as a host keeps one; replaced
        // only after a trap, as every host's glue does.
        let guest = slot.get_or_insert_with(Guest::new);
        let mut live: Live = BTreeMap::new();
        // Records the host keeps a while (freed at the end): guest buffers
        // the host does not own as text, with their payloads.
        let mut kept: Vec<(u32, u32)> = Vec::new();
        let mut live_bytes = 0usize;
        for call in calls.into_iter().take(64) {
            let store = &mut guest.store;
            match call {
                Call::Alloc(len) if live_bytes < (8 << 20) => {
                    let len = u32::from(len);
                    let ptr = guest.alloc.call(&mut *store, len).expect("qr_alloc never traps");
                    if len == 0 {
                        assert_eq!(ptr, 0, "qr_alloc(0) is 0");
                    } else {
                        assert_ne!(ptr, 0, "memory is far from exhausted");
                        let mem = guest.memory.data(&*store);
                        assert!(ptr as usize + len as usize <= mem.len());
                        assert!(mem[ptr as usize..ptr as usize + len as usize].iter().all(|&b| b == 0), "zeroed");
                        assert!(live.insert(ptr, vec![0; len as usize]).is_none(), "a live pointer handed out twice");
                        live_bytes += len as usize;
                    }
                }
                Call::Alloc(_) => {}
                Call::AllocHuge(len) => {
                    let ptr = guest.alloc.call(&mut *store, len).expect("qr_alloc never traps");
                    if len > 16 << 20 {
                        assert_eq!(ptr, 0, "qr_alloc over 16 MiB is 0");
                    } else if ptr != 0 {
                        // Memory may run out (64 MiB cap): 0, never a trap.
                        assert_eq!(guest.free.call(&mut *store, ptr).unwrap(), 0);
                    }
                }
                Call::Write { buf, offset, bytes } => {
                    let index = buf as usize % live.len().max(1);
                    if let Some((&p, shadow)) = live.iter_mut().nth(index) {
                        let at = (offset as usize).min(shadow.len());
                        let n = bytes.len().min(shadow.len() - at);
                        guest.memory.write(&mut *store, p as usize + at, &bytes[..n]).unwrap();
                        shadow[at..at + n].copy_from_slice(&bytes[..n]);
                    }
                }
                Call::Free(ptr) => {
                    let (p, _, _) = resolve(&mut live, ptr, None);
                    let status = guest.free.call(&mut *store, p).expect("qr_free never traps");
                    if let Some(bytes) = live.remove(&p) {
                        assert_eq!(status, 0, "freeing a live buffer");
                        live_bytes -= bytes.len();
                    } else if let Some(at) = kept.iter().position(|&(rec, _)| rec == p) {
                        assert_eq!(status, 0, "freeing a kept record");
                        kept.remove(at);
                    } else if kept.iter().any(|&(_, payload)| payload == p) {
                        // A payload inside a kept record: the guest's answer
                        // is its own (the record owns it).
                    } else {
                        assert!(status <= 1, "qr_free answers 0 or 1, got {status}");
                        if p == 0 {
                            assert_eq!(status, 1, "0 is never a live buffer");
                        }
                    }
                }
                Call::Png { text, len, options, keep_record } => {
                    let words = options.words();
                    let (p, n, known) = resolve(&mut live, text, len);
                    let rec = guest.png.call(&mut *store, params(p, n, words)).expect("qr_png never traps");
                    take(&mut live, &mut live_bytes, p);
                    let got = guest.record(rec);
                    if let Some(known) = known {
                        assert_eq!(
                            comparable(got),
                            comparable(native(&known, true, words, |t, o| qrglue_core::png(std::str::from_utf8(t).unwrap(), o)))
                        );
                    } else {
                        assert!(got.0 != 0 || guest_owned(&kept, p), "a buffer the host does not own is not a text");
                    }
                    if keep_record && kept.len() < 16 {
                        let payload_ptr =
                            u32::from_le_bytes(guest.memory.data(&guest.store)[rec as usize + 4..rec as usize + 8].try_into().unwrap());
                        kept.push((rec, payload_ptr));
                    } else {
                        assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0, "freeing a record");
                    }
                }
                Call::PngBytes { text, len, options } => {
                    let words = options.words();
                    let (p, n, known) = resolve(&mut live, text, len);
                    let rec = guest.png_bytes.call(&mut *store, params(p, n, words)).expect("qr_png_bytes never traps");
                    take(&mut live, &mut live_bytes, p);
                    let got = guest.record(rec);
                    if let Some(known) = known {
                        assert_eq!(comparable(got), comparable(native(&known, false, words, qrglue_core::png_bytes)));
                    } else {
                        assert!(got.0 != 0 || guest_owned(&kept, p));
                    }
                    assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0);
                }
                Call::Matrix { text, len, options } => {
                    let words = options.words();
                    let (p, n, known) = resolve(&mut live, text, len);
                    let rec = guest.matrix.call(&mut *store, params(p, n, words)).expect("qr_matrix never traps");
                    take(&mut live, &mut live_bytes, p);
                    let got = guest.record(rec);
                    if let Some(known) = known {
                        let want = native(&known, true, words, |t, o| {
                            qrglue_core::matrix(std::str::from_utf8(t).unwrap(), o).map(|m| {
                                let mut out = (m.width() as u32).to_le_bytes().to_vec();
                                out.extend(m.packed_modules());
                                out
                            })
                        });
                        assert_eq!(comparable(got), comparable(want));
                    }
                    assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0);
                }
                Call::Text { text, len, options, style } => {
                    let words = options.words();
                    let (p, n, known) = resolve(&mut live, text, len);
                    let (a, b, c, d, e, f, g, h, i, j, k, l, m) = params(p, n, words);
                    let rec = guest.text.call(&mut *store, (a, b, c, d, e, f, g, h, i, j, k, l, m, style)).expect("qr_text never traps");
                    take(&mut live, &mut live_bytes, p);
                    let got = guest.record(rec);
                    if let Some(known) = known {
                        let want = native(&known, true, words, |t, o| {
                            // The style is checked after every other option.
                            qrglue_core::validate_data(t, o)?;
                            let style = flat::text_style(style)?;
                            qrglue_core::text(std::str::from_utf8(t).unwrap(), o, style).map(String::into_bytes)
                        });
                        assert_eq!(comparable(got), comparable(want));
                    }
                    assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0);
                }
                Call::Svg { text, len, options, flags, title_len, strings, strings_len } => {
                    let words = options.words();
                    let (p, n, known) = resolve(&mut live, text, len);
                    let (sp, sn, _) = resolve(&mut live, strings, strings_len);
                    if sp == p && sp != 0 {
                        // One buffer passed twice: a host error the ABI does
                        // not define an answer for (both are taken).
                        continue;
                    }
                    let (a, b, c, d, e, f, g, h, i, j, k, l, m) = params(p, n, words);
                    let rec = guest
                        .svg
                        .call(&mut *store, (a, b, c, d, e, f, g, h, i, j, k, l, m, u32::from(flags % 9), title_len, sp, sn))
                        .expect("qr_svg never traps");
                    take(&mut live, &mut live_bytes, p);
                    take(&mut live, &mut live_bytes, sp);
                    let (status, payload) = guest.record(rec);
                    if status == 0 {
                        qrglue_fuzz::check_svg(std::str::from_utf8(&payload).expect("an SVG is UTF-8"));
                        assert!(known.is_some() || guest_owned(&kept, p), "an SVG from a buffer the host does not own");
                    }
                    let _ = known;
                    assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0);
                }
                Call::Consume { buf, len } => {
                    let (p, n, known) = resolve(&mut live, buf, len);
                    let got = guest.consume.call(&mut *store, (p, n)).expect("qr_consume never traps");
                    take(&mut live, &mut live_bytes, p);
                    if known.is_some() && p != 0 {
                        assert_eq!(got, n, "qr_consume returns the length it took");
                    } else if known.is_none() {
                        assert!(got == n || got == u32::MAX);
                    }
                }
                Call::Produce(len) => {
                    let rec = guest.produce.call(&mut *store, u32::from(len)).expect("qr_produce never traps");
                    let (status, payload) = guest.record(rec);
                    assert_eq!(status, 0);
                    assert!(payload.iter().enumerate().all(|(i, &b)| b as usize == i % 251) && payload.len() == len as usize);
                    assert_eq!(guest.free.call(&mut guest.store, rec).unwrap(), 0);
                }
                Call::Trap => {
                    let error = guest.trap.call(&mut *store, ()).expect_err("qr_trap traps");
                    assert!(error.downcast_ref::<wasmtime::Trap>().is_some(), "a trap, not a host error: {error:?}");
                    // What every host does after a trap: a new instance. Its
                    // first call gives the golden bytes.
                    *guest = Guest::new();
                    live.clear();
                    live_bytes = 0;
                    kept.clear();
                    guest.check_golden();
                }
                Call::Golden => guest.check_golden(),
            }
        }
        // Whatever the sequence did, the instance still renders the golden
        // bytes; then the host frees what it still holds (a long-lived host
        // would), so the next input starts from a clean heap of one instance.
        guest.check_golden();
        for p in live.into_keys().chain(kept.into_iter().map(|(rec, _)| rec)) {
            assert_eq!(guest.free.call(&mut guest.store, p).unwrap(), 0);
        }
    });
});

/// A generating call took the buffer (ABI.md: owned by the guest from the
/// call on, whatever the outcome).
fn take(live: &mut Live, live_bytes: &mut usize, ptr: u32) {
    if let Some(bytes) = live.remove(&ptr) {
        *live_bytes -= bytes.len();
    }
}

fn params(p: u32, n: u32, o: [u32; 11]) -> P13 {
    (p, n, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10])
}
