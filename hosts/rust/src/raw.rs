//! The raw ABI path: `qrglue.raw.wasm` through wasmtime's core API, with the
//! glue written by hand from `guest/raw/ABI.md` (the contract this follows).
//! The ABI's version, record size and status codes come from
//! `qrglue_core::contract`, the same source the guest is built from.

use std::fmt::Display;
use std::path::Path as FsPath;
use std::sync::OnceLock;

use qrglue_core::contract::{RAW_ABI_VERSION, RAW_RECORD_BYTES};
use wasmtime::{Instance, InstancePre, Linker, Memory, Module, Store, TypedFunc, WasmParams, WasmResults};

use crate::guest::{self, Guest, GuestState, Instantiate};
use crate::{Error, ErrorKind, Generator, Matrix, Options, Path, QrError, SvgOptions, TextStyle};

/// The compiled module, ready to instantiate (it imports nothing). Cheap to
/// share across threads.
pub struct RawRuntime {
    pre: InstancePre<GuestState>,
}

impl RawRuntime {
    /// The process-wide runtime: the embedded module compiled once on the
    /// shared engine.
    pub fn shared() -> Result<&'static RawRuntime, Error> {
        static SHARED: OnceLock<RawRuntime> = OnceLock::new();
        guest::shared(&SHARED, || RawRuntime::compile(crate::shared_engine(), crate::RAW_WASM))
    }

    /// Compiles a core module (normally [`crate::RAW_WASM`]) with Cranelift.
    pub fn compile(engine: &wasmtime::Engine, wasm: &[u8]) -> Result<RawRuntime, Error> {
        let module = Module::new(engine, wasm).map_err(Error::Runtime)?;
        RawRuntime::from_module(engine, module)
    }

    /// Loads machine code written by [`RawRuntime::serialize`].
    ///
    /// # Safety
    /// `path` must hold bytes from `serialize` by this wasmtime version with
    /// this engine configuration, unmodified: wasmtime maps them as code
    /// (see `wasmtime::Module::deserialize_file`).
    pub unsafe fn deserialize_file(engine: &wasmtime::Engine, path: &FsPath) -> Result<RawRuntime, Error> {
        // SAFETY: the caller's promise, passed on.
        let module = unsafe { Module::deserialize_file(engine, path) }.map_err(Error::Runtime)?;
        RawRuntime::from_module(engine, module)
    }

    /// The compiled machine code, for [`RawRuntime::deserialize_file`]
    /// (a cache that skips compilation at start-up).
    pub fn serialize(&self) -> Result<Vec<u8>, Error> {
        self.module().serialize().map_err(Error::Runtime)
    }

    /// The compiled module, e.g. to inspect its imports and exports.
    pub fn module(&self) -> &Module {
        self.pre.module()
    }

    /// The engine the module was compiled for.
    pub fn engine(&self) -> &wasmtime::Engine {
        self.module().engine()
    }

    fn from_module(engine: &wasmtime::Engine, module: Module) -> Result<RawRuntime, Error> {
        let pre = Linker::<GuestState>::new(engine).instantiate_pre(&module).map_err(Error::Runtime)?;
        Ok(RawRuntime { pre })
    }

    /// A new generator: its own `Store` and instance.
    pub fn instantiate(&self) -> Result<RawGenerator, Error> {
        Ok(RawGenerator { guest: Guest::new(self.pre.clone())? })
    }
}

impl Instantiate for InstancePre<GuestState> {
    type Instance = RawExports;

    fn engine(&self) -> &wasmtime::Engine {
        self.module().engine()
    }

    /// Instantiates, looks the exports up, and refuses a module that speaks
    /// another ABI version than this glue.
    fn instantiate(&self, store: &mut Store<GuestState>) -> Result<RawExports, Error> {
        let instance = InstancePre::instantiate(self, &mut *store).map_err(Error::Runtime)?;
        let exports = RawExports::resolve(store, &instance).map_err(Error::Runtime)?;
        let version = call(&exports.qr_abi_version, store, ())?;
        if version != RAW_ABI_VERSION {
            return Err(abi_error(format!("qrglue.raw.wasm speaks ABI version {version}; this host speaks {RAW_ABI_VERSION}")));
        }
        Ok(exports)
    }
}

/// A raw-ABI call or guest buffer that is not what ABI.md promises (or an
/// input the ABI cannot carry): a runtime failure, never a contract error.
fn abi_error(message: impl Display) -> Error {
    Error::Runtime(wasmtime::Error::msg(message.to_string()))
}

/// One export call; a trap becomes [`Error::Trap`].
fn call<P: WasmParams, R: WasmResults>(func: &TypedFunc<P, R>, store: &mut Store<GuestState>, params: P) -> Result<R, Error> {
    func.call(store, params).map_err(Error::from_wasmtime)
}

/// The options as the ABI passes them, in order: `ec_level` (its WIT index),
/// `min_size`, `quiet_zone`, `has_scale`, `scale`, `dark`, `light`
/// (`0xRRGGBBAA`), `symbol_flags`, `version`, `min_version`, `mask`.
pub type AbiOptions = [u32; 11];

type P13 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);
type P14 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);
type P17 = (u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32, u32);
/// `qr_png`, `qr_svg` and `qr_matrix`: `(text_ptr, text_len, ..options) -> record_ptr`.
type RenderFunc = TypedFunc<P13, u32>;
/// `qr_text` (`.., style`) and `qr_png_repeat` (`.., times`): one more u32.
type RenderWithFunc = TypedFunc<P14, u32>;
/// `qr_svg` and `qr_svg_bytes`: `.., svg_flags, title_len, strings_ptr, strings_len`.
type SvgFunc = TypedFunc<P17, u32>;

/// A text buffer and the options as one call's parameters.
fn params(ptr: u32, len: u32, o: AbiOptions) -> P13 {
    (ptr, len, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10])
}

/// [`params`] and the SVG options' four arguments.
fn svg_params(ptr: u32, len: u32, o: AbiOptions, [flags, title_len, strings_ptr, strings_len]: [u32; 4]) -> P17 {
    (ptr, len, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], flags, title_len, strings_ptr, strings_len)
}

/// The SVG options as the ABI passes them: the flags word, the title's
/// length, and one buffer with the title's UTF-8 then the class's.
fn abi_svg(svg: &SvgOptions) -> (u32, u32, Vec<u8>) {
    use qrglue_core::contract::{RAW_SVG_HAS_CLASS, RAW_SVG_HAS_TITLE, RAW_SVG_VIEW_BOX_ONLY};
    let bit = |on: bool, flag: u32| if on { flag } else { 0 };
    let flags = bit(svg.view_box_only, RAW_SVG_VIEW_BOX_ONLY)
        | bit(svg.title.is_some(), RAW_SVG_HAS_TITLE)
        | bit(svg.class.is_some(), RAW_SVG_HAS_CLASS);
    let title = svg.title.as_deref().unwrap_or("");
    let strings = [title, svg.class.as_deref().unwrap_or("")].concat().into_bytes();
    (flags, title.len() as u32, strings)
}

/// [`params`] and one more argument (`style`, `times`).
fn params_with(ptr: u32, len: u32, o: AbiOptions, last: u32) -> P14 {
    (ptr, len, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], last)
}

/// The ABI's exports, looked up and type-checked once per instance, each
/// field named as its export. (`i32` in the module; read as `u32`, as
/// ABI.md says.)
pub(crate) struct RawExports {
    memory: Memory,
    qr_abi_version: TypedFunc<(), u32>,
    qr_alloc: TypedFunc<u32, u32>,
    qr_free: TypedFunc<u32, u32>,
    qr_png: RenderFunc,
    qr_svg: SvgFunc,
    qr_matrix: RenderFunc,
    qr_text: RenderWithFunc,
    qr_png_bytes: RenderFunc,
    qr_svg_bytes: SvgFunc,
    qr_matrix_bytes: RenderFunc,
    qr_text_bytes: RenderWithFunc,
    qr_noop: TypedFunc<(), ()>,
    qr_consume: TypedFunc<(u32, u32), u32>,
    qr_produce: TypedFunc<u32, u32>,
    qr_png_repeat: RenderWithFunc,
    qr_trap: TypedFunc<(), ()>,
    qr_memory_pages: TypedFunc<(), u32>,
}

impl RawExports {
    fn resolve(store: &mut Store<GuestState>, instance: &Instance) -> wasmtime::Result<RawExports> {
        let memory =
            instance.get_memory(&mut *store, "memory").ok_or_else(|| wasmtime::Error::msg("qrglue.raw.wasm exports no `memory`"))?;
        Ok(RawExports {
            memory,
            qr_abi_version: instance.get_typed_func(&mut *store, "qr_abi_version")?,
            qr_alloc: instance.get_typed_func(&mut *store, "qr_alloc")?,
            qr_free: instance.get_typed_func(&mut *store, "qr_free")?,
            qr_png: instance.get_typed_func(&mut *store, "qr_png")?,
            qr_svg: instance.get_typed_func(&mut *store, "qr_svg")?,
            qr_matrix: instance.get_typed_func(&mut *store, "qr_matrix")?,
            qr_text: instance.get_typed_func(&mut *store, "qr_text")?,
            qr_png_bytes: instance.get_typed_func(&mut *store, "qr_png_bytes")?,
            qr_svg_bytes: instance.get_typed_func(&mut *store, "qr_svg_bytes")?,
            qr_matrix_bytes: instance.get_typed_func(&mut *store, "qr_matrix_bytes")?,
            qr_text_bytes: instance.get_typed_func(&mut *store, "qr_text_bytes")?,
            qr_noop: instance.get_typed_func(&mut *store, "qr_noop")?,
            qr_consume: instance.get_typed_func(&mut *store, "qr_consume")?,
            qr_produce: instance.get_typed_func(&mut *store, "qr_produce")?,
            qr_png_repeat: instance.get_typed_func(&mut *store, "qr_png_repeat")?,
            qr_trap: instance.get_typed_func(&mut *store, "qr_trap")?,
            qr_memory_pages: instance.get_typed_func(&mut *store, "qr_memory_pages")?,
        })
    }

    /// Copies `bytes` into a fresh guest buffer; returns `(ptr, len)`, or
    /// `(0, 0)` for no bytes (the ABI's empty text / empty list).
    fn copy_in(&self, store: &mut Store<GuestState>, bytes: &[u8]) -> Result<(u32, u32), Error> {
        if bytes.is_empty() {
            return Ok((0, 0));
        }
        let len = u32::try_from(bytes.len()).map_err(|_| abi_error("input over 4 GiB"))?;
        let ptr = call(&self.qr_alloc, store, len)?;
        if ptr == 0 {
            return Err(abi_error(format!("qr_alloc({len}) failed: guest memory exhausted or over 16 MiB")));
        }
        self.write(store, ptr, bytes)?;
        Ok((ptr, len))
    }

    /// Writes `bytes` at `ptr` in guest memory.
    fn write(&self, store: &mut Store<GuestState>, ptr: u32, bytes: &[u8]) -> Result<(), Error> {
        self.memory
            .write(store, ptr as usize, bytes)
            .map_err(|_| abi_error(format!("{} bytes at {ptr:#x} lie outside guest memory", bytes.len())))
    }

    /// Reads the result record at `record`: its status and a copy of its
    /// payload. Does not free it.
    fn read_record(&self, store: &Store<GuestState>, record: u32) -> Result<(u32, Vec<u8>), Error> {
        let memory = self.memory.data(store);
        let out_of_bounds = || abi_error(format!("result record {record:#x} lies outside guest memory"));
        let record_start = record as usize;
        let fields = memory.get(record_start..record_start + RAW_RECORD_BYTES as usize).ok_or_else(out_of_bounds)?;
        let field = |i: usize| u32::from_le_bytes(fields[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
        let (status, payload_ptr, payload_len) = (field(0), field(1) as usize, field(2) as usize);
        let payload = if payload_len == 0 {
            Vec::new()
        } else {
            memory.get(payload_ptr..payload_ptr + payload_len).ok_or_else(out_of_bounds)?.to_vec()
        };
        Ok((status, payload))
    }

    /// Reads a result record, copies its payload out, frees it, and maps
    /// the status to an outcome.
    fn take_record(&self, store: &mut Store<GuestState>, record: u32) -> Result<Vec<u8>, Error> {
        let (status, payload) = self.read_record(store, record)?;
        let freed = call(&self.qr_free, store, record)?;
        if freed != 0 {
            return Err(abi_error(format!("qr_free({record:#x}) of a result record returned {freed}")));
        }
        decode_status(status, payload)
    }

    /// The text-taking calls: copy the text in (the guest takes ownership of
    /// the buffer), make the call with its `(ptr, len)`, take the record.
    fn text_call(
        &self,
        store: &mut Store<GuestState>,
        text: &[u8],
        call_with: impl FnOnce(&mut Store<GuestState>, u32, u32) -> Result<u32, Error>,
    ) -> Result<Vec<u8>, Error> {
        let (ptr, len) = self.copy_in(store, text)?;
        let record = call_with(store, ptr, len)?;
        self.take_record(store, record)
    }
}

/// A result record's status and payload, mapped as ABI.md's status table
/// (the contract's `ErrorKind::from_code`) says.
fn decode_status(status: u32, payload: Vec<u8>) -> Result<Vec<u8>, Error> {
    if status == 0 {
        return Ok(payload);
    }
    let message = || String::from_utf8_lossy(&payload).into_owned();
    let error = match ErrorKind::from_code(status) {
        Some(ErrorKind::EmptyText) => QrError::EmptyText,
        Some(ErrorKind::InvalidText) => QrError::InvalidText(message()),
        Some(ErrorKind::DataTooLong) => QrError::DataTooLong(message()),
        Some(ErrorKind::InvalidOptions) => QrError::InvalidOptions(message()),
        None => return Err(abi_error(format!("qrglue.raw.wasm returned unknown status {status} (ABI.md lists 0..=4)"))),
    };
    Err(Error::Qr(error))
}

/// The ABI's wire form of the options ([`AbiOptions`]): the core's one
/// encoder, the inverse of the decoder guest/raw runs.
pub fn abi_options(options: &Options) -> AbiOptions {
    qrglue_core::flat::words(options)
}

/// One raw-module instance in its own `Store`; see the crate docs.
pub struct RawGenerator {
    guest: Guest<InstancePre<GuestState>>,
}

/// What a generating call's buffer holds: a text's bytes (the guest checks
/// the UTF-8) or a binary payload (the `_bytes` exports: no check).
#[derive(Clone, Copy)]
enum Payload {
    Text,
    Bytes,
}

impl Payload {
    /// Oversized inputs never reach the guest (guest memory stays bounded).
    fn reject_oversized(self, data: &[u8]) -> Result<(), Error> {
        match self {
            Payload::Text => crate::reject_oversized_text(data),
            Payload::Bytes => crate::reject_oversized_payload(data),
        }
    }
}

impl RawGenerator {
    /// A generating export (`qr_png`, `qr_svg_bytes`, ...) on `data`: the
    /// bytes go to the guest as they are (for a text, it checks the UTF-8).
    fn render(
        &mut self,
        export: fn(&RawExports) -> &RenderFunc,
        payload: Payload,
        data: &[u8],
        options: &Options,
    ) -> Result<Vec<u8>, Error> {
        payload.reject_oversized(data)?;
        let wire = abi_options(options);
        self.guest
            .call(|store, exports| exports.text_call(store, data, |store, ptr, len| call(export(exports), store, params(ptr, len, wire))))
    }

    fn render_svg(
        &mut self,
        export: fn(&RawExports) -> &SvgFunc,
        payload: Payload,
        data: &[u8],
        options: &Options,
        svg: &SvgOptions,
    ) -> Result<String, Error> {
        payload.reject_oversized(data)?;
        crate::reject_oversized_svg(data, matches!(payload, Payload::Text), svg)?;
        let wire = abi_options(options);
        let (flags, title_len, strings) = abi_svg(svg);
        let bytes = self.guest.call(|store, exports| {
            // The strings' buffer is the guest's from the call on, as the text's is.
            let (strings_ptr, strings_len) = exports.copy_in(store, &strings)?;
            exports.text_call(store, data, |store, ptr, len| {
                call(export(exports), store, svg_params(ptr, len, wire, [flags, title_len, strings_ptr, strings_len]))
            })
        })?;
        String::from_utf8(bytes).map_err(|e| abi_error(format!("the svg export returned bytes that are not UTF-8: {e}")))
    }

    fn render_matrix(
        &mut self,
        export: fn(&RawExports) -> &RenderFunc,
        payload: Payload,
        data: &[u8],
        options: &Options,
    ) -> Result<Matrix, Error> {
        let bytes = self.render(export, payload, data, options)?;
        Matrix::from_wire(&bytes)
            .ok_or_else(|| abi_error(format!("the matrix export returned {} payload bytes, not a width and its modules", bytes.len())))
    }

    fn render_text(
        &mut self,
        export: fn(&RawExports) -> &RenderWithFunc,
        payload: Payload,
        data: &[u8],
        options: &Options,
        style: TextStyle,
    ) -> Result<String, Error> {
        payload.reject_oversized(data)?;
        let wire = abi_options(options);
        let bytes = self.guest.call(|store, exports| {
            exports.text_call(store, data, |store, ptr, len| call(export(exports), store, params_with(ptr, len, wire, style.index())))
        })?;
        String::from_utf8(bytes).map_err(|e| abi_error(format!("the text export returned bytes that are not UTF-8: {e}")))
    }
}

impl Generator for RawGenerator {
    fn path(&self) -> Path {
        Path::Raw
    }

    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error> {
        self.png_from_utf8(text.as_bytes(), options)
    }

    fn svg_with(&mut self, text: &str, options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.svg_from_utf8_with(text.as_bytes(), options, svg)
    }

    fn png_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        self.render(|exports| &exports.qr_png, Payload::Text, text, options)
    }

    fn svg_from_utf8_with(&mut self, text: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.render_svg(|exports| &exports.qr_svg, Payload::Text, text, options, svg)
    }

    fn matrix(&mut self, text: &str, options: &Options) -> Result<Matrix, Error> {
        self.matrix_from_utf8(text.as_bytes(), options)
    }

    fn text(&mut self, text: &str, options: &Options, style: TextStyle) -> Result<String, Error> {
        self.text_from_utf8(text.as_bytes(), options, style)
    }

    fn matrix_from_utf8(&mut self, text: &[u8], options: &Options) -> Result<Matrix, Error> {
        self.render_matrix(|exports| &exports.qr_matrix, Payload::Text, text, options)
    }

    fn text_from_utf8(&mut self, text: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        self.render_text(|exports| &exports.qr_text, Payload::Text, text, options, style)
    }

    fn png_bytes(&mut self, data: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        self.render(|exports| &exports.qr_png_bytes, Payload::Bytes, data, options)
    }

    fn svg_bytes_with(&mut self, data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        self.render_svg(|exports| &exports.qr_svg_bytes, Payload::Bytes, data, options, svg)
    }

    fn matrix_bytes(&mut self, data: &[u8], options: &Options) -> Result<Matrix, Error> {
        self.render_matrix(|exports| &exports.qr_matrix_bytes, Payload::Bytes, data, options)
    }

    fn text_bytes(&mut self, data: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        self.render_text(|exports| &exports.qr_text_bytes, Payload::Bytes, data, options, style)
    }

    fn noop(&mut self) -> Result<(), Error> {
        self.guest.call(|store, exports| call(&exports.qr_noop, store, ()))
    }

    fn consume(&mut self, data: &[u8]) -> Result<u32, Error> {
        self.guest.call(|store, exports| {
            let (ptr, len) = exports.copy_in(store, data)?;
            let consumed = call(&exports.qr_consume, store, (ptr, len))?;
            if consumed != len {
                return Err(abi_error(format!("qr_consume({ptr:#x}, {len}) returned {consumed}")));
            }
            Ok(consumed)
        })
    }

    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error> {
        self.guest.call(|store, exports| {
            let record = call(&exports.qr_produce, store, len)?;
            exports.take_record(store, record)
        })
    }

    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        let wire = abi_options(options);
        let payload = self.guest.call(|store, exports| {
            exports.text_call(store, text.as_bytes(), |store, ptr, len| {
                call(&exports.qr_png_repeat, store, params_with(ptr, len, wire, times))
            })
        })?;
        let bytes: [u8; 4] = payload
            .as_slice()
            .try_into()
            .map_err(|_| abi_error(format!("qr_png_repeat returned {} payload bytes, not 4", payload.len())))?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn memory_pages(&mut self) -> Result<u32, Error> {
        self.guest.call(|store, exports| call(&exports.qr_memory_pages, store, ()))
    }

    fn trap(&mut self) -> Result<(), Error> {
        self.guest.call(|store, exports| call(&exports.qr_trap, store, ()))
    }
}

/// Single raw-ABI calls with whatever arguments the caller gives, so tests
/// can check the guest survives arguments no correct glue would pass
/// (ABI.md, "What the guest guarantees"). Not part of the API: the
/// [`Generator`] calls are. Each call goes through the generator's one
/// trap flag, like the glue's own calls.
pub mod testing {
    pub use super::{AbiOptions, abi_options};
    use super::{RAW_ABI_VERSION, RAW_RECORD_BYTES, RawGenerator, call, params, params_with, svg_params};
    use crate::Error;

    /// The ABI version this glue speaks (checked against `qr_abi_version`
    /// at every instantiation).
    pub const ABI_VERSION: u32 = RAW_ABI_VERSION;

    /// The size of the result record this glue reads.
    pub const RECORD_BYTES: u32 = RAW_RECORD_BYTES;

    /// How the glue maps a record's status and payload: `Ok(payload)` for
    /// status 0, `Err(Error::Qr(..))` for the contract's codes, a runtime
    /// error for any other status.
    pub fn decode_status(status: u32, payload: Vec<u8>) -> Result<Vec<u8>, Error> {
        super::decode_status(status, payload)
    }

    /// The raw exports, called one at a time; import this trait to use them.
    pub trait RawAbi {
        /// `qr_abi_version() -> version`.
        fn abi_version(&mut self) -> Result<u32, Error>;
        /// `qr_alloc(len) -> ptr` (0 if refused).
        fn abi_alloc(&mut self, len: u32) -> Result<u32, Error>;
        /// `qr_free(ptr) -> 0 | 1`.
        fn abi_free(&mut self, ptr: u32) -> Result<u32, Error>;
        /// `qr_png(text_ptr, text_len, ..options) -> record_ptr`.
        fn abi_png(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions) -> Result<u32, Error>;
        /// `qr_text(text_ptr, text_len, ..options, style) -> record_ptr`.
        fn abi_text(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions, style: u32) -> Result<u32, Error>;
        /// `qr_svg(text_ptr, text_len, ..options, svg_flags, title_len, strings_ptr, strings_len) -> record_ptr`.
        fn abi_svg(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions, svg: [u32; 4]) -> Result<u32, Error>;
        /// `qr_consume(ptr, len) -> len | u32::MAX`.
        fn abi_consume(&mut self, ptr: u32, len: u32) -> Result<u32, Error>;
        /// `qr_produce(len) -> record_ptr`.
        fn abi_produce(&mut self, len: u32) -> Result<u32, Error>;
        /// Writes `bytes` at `ptr` in guest memory (fails past the end).
        fn abi_write(&mut self, ptr: u32, bytes: &[u8]) -> Result<(), Error>;
        /// Reads the result record at `record`: its status and a copy of its
        /// payload. Does not free it.
        fn abi_read_record(&mut self, record: u32) -> Result<(u32, Vec<u8>), Error>;
        /// The current instance's linear memory size in bytes.
        fn abi_memory_size(&self) -> usize;
    }

    impl RawAbi for RawGenerator {
        fn abi_version(&mut self) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_abi_version, store, ()))
        }

        fn abi_alloc(&mut self, len: u32) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_alloc, store, len))
        }

        fn abi_free(&mut self, ptr: u32) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_free, store, ptr))
        }

        fn abi_png(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_png, store, params(text_ptr, text_len, options)))
        }

        fn abi_text(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions, style: u32) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_text, store, params_with(text_ptr, text_len, options, style)))
        }

        fn abi_svg(&mut self, text_ptr: u32, text_len: u32, options: AbiOptions, svg: [u32; 4]) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_svg, store, svg_params(text_ptr, text_len, options, svg)))
        }

        fn abi_consume(&mut self, ptr: u32, len: u32) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_consume, store, (ptr, len)))
        }

        fn abi_produce(&mut self, len: u32) -> Result<u32, Error> {
            self.guest.call(|store, exports| call(&exports.qr_produce, store, len))
        }

        fn abi_write(&mut self, ptr: u32, bytes: &[u8]) -> Result<(), Error> {
            self.guest.call(|store, exports| exports.write(store, ptr, bytes))
        }

        fn abi_read_record(&mut self, record: u32) -> Result<(u32, Vec<u8>), Error> {
            self.guest.call(|store, exports| exports.read_record(store, record))
        }

        fn abi_memory_size(&self) -> usize {
            let (store, exports) = self.guest.peek();
            exports.memory.data_size(store)
        }
    }
}
