//! The raw ABI path: `qrglue.raw.wasm` through wasmtime's core API, with the
//! glue written by hand from `guest/raw/ABI.md` (the contract this follows).

use std::path::Path as FsPath;
use std::sync::OnceLock;

use wasmtime::{Instance, InstancePre, Linker, Memory, Module, Store, TypedFunc};

use crate::{Error, Generator, GuestState, Options, Path, QrError};

/// The ABI version this glue speaks (`qr_abi_version`).
const ABI_VERSION: u32 = 1;

/// The compiled module, ready to instantiate (it imports nothing). Cheap to
/// share across threads.
pub struct RawRuntime {
    engine: wasmtime::Engine,
    pre: InstancePre<GuestState>,
}

impl RawRuntime {
    /// The process-wide runtime: the embedded module compiled once on the
    /// shared engine.
    pub fn shared() -> Result<&'static RawRuntime, Error> {
        static SHARED: OnceLock<RawRuntime> = OnceLock::new();
        if let Some(runtime) = SHARED.get() {
            return Ok(runtime);
        }
        let runtime = RawRuntime::compile(crate::shared_engine(), crate::RAW_WASM)?;
        Ok(SHARED.get_or_init(|| runtime))
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

    /// The compiled machine code, for [`RawRuntime::deserialize_file`].
    pub fn serialize(&self) -> Result<Vec<u8>, Error> {
        self.pre.module().serialize().map_err(Error::Runtime)
    }

    /// The compiled module, e.g. to inspect its imports and exports.
    pub fn module(&self) -> &Module {
        self.pre.module()
    }

    fn from_module(engine: &wasmtime::Engine, module: Module) -> Result<RawRuntime, Error> {
        let pre = Linker::<GuestState>::new(engine).instantiate_pre(&module).map_err(Error::Runtime)?;
        Ok(RawRuntime { engine: engine.clone(), pre })
    }

    /// A new generator: its own `Store` and instance.
    pub fn instantiate(&self) -> Result<RawGenerator, Error> {
        let (store, exports) = self.new_instance()?;
        Ok(RawGenerator { pre: self.pre.clone(), store, exports, trapped: false })
    }

    fn new_instance(&self) -> Result<(Store<GuestState>, RawExports), Error> {
        new_instance(&self.pre, &self.engine)
    }
}

fn new_instance(pre: &InstancePre<GuestState>, engine: &wasmtime::Engine) -> Result<(Store<GuestState>, RawExports), Error> {
    let mut store = crate::new_store(engine);
    let instance = pre.instantiate(&mut store).map_err(Error::Runtime)?;
    let exports = RawExports::resolve(&mut store, &instance).map_err(Error::Runtime)?;
    let version = exports.abi_version.call(&mut store, ()).map_err(Error::from_wasmtime)?;
    if version != ABI_VERSION {
        return Err(Error::Runtime(wasmtime::Error::msg(format!(
            "qrglue.raw.wasm speaks ABI version {version}; this host speaks {ABI_VERSION}"
        ))));
    }
    Ok((store, exports))
}

/// The ABI's exports, looked up and type-checked once per instance.
/// (`i32` in the module; read as `u32`, as ABI.md says.)
struct RawExports {
    memory: Memory,
    abi_version: TypedFunc<(), u32>,
    alloc: TypedFunc<u32, u32>,
    free: TypedFunc<u32, u32>,
    png: TypedFunc<(u32, u32, u32, u32, u32), u32>,
    svg: TypedFunc<(u32, u32, u32, u32, u32), u32>,
    noop: TypedFunc<(), ()>,
    consume: TypedFunc<(u32, u32), u32>,
    produce: TypedFunc<u32, u32>,
    png_repeat: TypedFunc<(u32, u32, u32, u32, u32, u32), u32>,
    trap: TypedFunc<(), ()>,
    memory_pages: TypedFunc<(), u32>,
}

impl RawExports {
    fn resolve(store: &mut Store<GuestState>, instance: &Instance) -> wasmtime::Result<RawExports> {
        let memory = instance
            .get_memory(&mut *store, "memory")
            .ok_or_else(|| wasmtime::Error::msg("qrglue.raw.wasm exports no `memory`"))?;
        Ok(RawExports {
            memory,
            abi_version: instance.get_typed_func(&mut *store, "qr_abi_version")?,
            alloc: instance.get_typed_func(&mut *store, "qr_alloc")?,
            free: instance.get_typed_func(&mut *store, "qr_free")?,
            png: instance.get_typed_func(&mut *store, "qr_png")?,
            svg: instance.get_typed_func(&mut *store, "qr_svg")?,
            noop: instance.get_typed_func(&mut *store, "qr_noop")?,
            consume: instance.get_typed_func(&mut *store, "qr_consume")?,
            produce: instance.get_typed_func(&mut *store, "qr_produce")?,
            png_repeat: instance.get_typed_func(&mut *store, "qr_png_repeat")?,
            trap: instance.get_typed_func(&mut *store, "qr_trap")?,
            memory_pages: instance.get_typed_func(&mut *store, "qr_memory_pages")?,
        })
    }
}

/// One raw-module instance in its own `Store`; see the crate docs.
///
/// Besides the [`Generator`] calls, the `abi_*` methods make single ABI
/// calls with whatever arguments the caller gives, so tests can check the
/// guest survives arguments no correct glue would pass.
pub struct RawGenerator {
    pre: InstancePre<GuestState>,
    store: Store<GuestState>,
    exports: RawExports,
    /// Set by a trap (or any failed call): the next call replaces the
    /// instance first, as its memory may be mid-call.
    trapped: bool,
}

/// The ABI's wire form of the options: `ec_level` as its WIT index.
fn abi_options(options: &Options) -> (u32, u32, u32) {
    let ec_level = crate::EcLevel::ALL.iter().position(|level| *level == options.ec_level).expect("ALL lists every level");
    (ec_level as u32, options.min_size, options.quiet_zone)
}

/// A result record's status and payload, as ABI.md's error table maps them.
fn decode_outcome(status: u32, payload: Vec<u8>) -> Result<Result<Vec<u8>, QrError>, Error> {
    let message = || String::from_utf8_lossy(&payload).into_owned();
    Ok(match status {
        0 => Ok(payload),
        1 => Err(QrError::EmptyText),
        2 => Err(QrError::InvalidText(message())),
        3 => Err(QrError::DataTooLong),
        4 => Err(QrError::InvalidOptions(message())),
        other => {
            return Err(Error::Runtime(wasmtime::Error::msg(format!(
                "qrglue.raw.wasm returned unknown status {other} (ABI.md lists 0..=4)"
            ))));
        }
    })
}

impl RawGenerator {
    /// Runs one step of glue on a live instance; a failure marks it spent.
    fn call<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R, Error>) -> Result<R, Error> {
        if self.trapped {
            let (store, exports) = new_instance(&self.pre, self.store.engine())?;
            self.store = store;
            self.exports = exports;
            self.trapped = false;
        }
        f(self).inspect_err(|error| {
            if !matches!(error, Error::Qr(_)) {
                self.trapped = true;
            }
        })
    }

    /// A failed guest call: the instance may be mid-call, so the next
    /// [`Generator`] call replaces it first.
    fn spent(&mut self, error: wasmtime::Error) -> Error {
        self.trapped = true;
        Error::from_wasmtime(error)
    }

    /// Copies `bytes` into a fresh guest buffer; returns `(ptr, len)`, or
    /// `(0, 0)` for no bytes (the ABI's empty text / empty list).
    fn copy_in(&mut self, bytes: &[u8]) -> Result<(u32, u32), Error> {
        if bytes.is_empty() {
            return Ok((0, 0));
        }
        let len = u32::try_from(bytes.len()).map_err(|_| Error::Runtime(wasmtime::Error::msg("input over 4 GiB")))?;
        let ptr = self.abi_alloc(len)?;
        if ptr == 0 {
            return Err(Error::Runtime(wasmtime::Error::msg(format!("qr_alloc({len}) failed: guest memory exhausted or over 16 MiB"))));
        }
        self.exports.memory.write(&mut self.store, ptr as usize, bytes).map_err(|e| Error::Runtime(e.into()))?;
        Ok((ptr, len))
    }

    /// Reads a result record, copies its payload out, frees it, and maps
    /// the status to an outcome.
    fn take_record(&mut self, record: u32) -> Result<Result<Vec<u8>, QrError>, Error> {
        let (status, payload) = self.abi_read_record(record)?;
        let freed = self.abi_free(record)?;
        if freed != 0 {
            return Err(Error::Runtime(wasmtime::Error::msg(format!("qr_free({record:#x}) of a result record returned {freed}"))));
        }
        decode_outcome(status, payload)
    }

    /// The text-taking calls: copy the text in (the guest takes ownership of
    /// the buffer), call, take the record. Oversized texts never reach the guest.
    fn text_call(
        &mut self,
        text: &[u8],
        call: impl FnOnce(&mut Self, u32, u32) -> Result<u32, Error>,
    ) -> Result<Vec<u8>, Error> {
        crate::reject_oversized_text(text)?;
        self.call(|this| {
            let (ptr, len) = this.copy_in(text)?;
            let record = call(this, ptr, len)?;
            this.take_record(record)
        })?
        .map_err(Error::Qr)
    }

    // --- Single ABI calls (ABI.md's exports), no checks on the arguments ---

    /// `qr_alloc(len) -> ptr` (0 if refused).
    pub fn abi_alloc(&mut self, len: u32) -> Result<u32, Error> {
        self.exports.alloc.call(&mut self.store, len).map_err(|e| self.spent(e))
    }

    /// `qr_free(ptr) -> 0 | 1`.
    pub fn abi_free(&mut self, ptr: u32) -> Result<u32, Error> {
        self.exports.free.call(&mut self.store, ptr).map_err(|e| self.spent(e))
    }

    /// `qr_png(text_ptr, text_len, ec_level, min_size, quiet_zone) -> record_ptr`.
    pub fn abi_png(&mut self, text_ptr: u32, text_len: u32, ec_level: u32, min_size: u32, quiet_zone: u32) -> Result<u32, Error> {
        self.exports.png.call(&mut self.store, (text_ptr, text_len, ec_level, min_size, quiet_zone)).map_err(|e| self.spent(e))
    }

    /// `qr_consume(ptr, len) -> len | u32::MAX`.
    pub fn abi_consume(&mut self, ptr: u32, len: u32) -> Result<u32, Error> {
        self.exports.consume.call(&mut self.store, (ptr, len)).map_err(|e| self.spent(e))
    }

    /// `qr_produce(len) -> record_ptr`.
    pub fn abi_produce(&mut self, len: u32) -> Result<u32, Error> {
        self.exports.produce.call(&mut self.store, len).map_err(|e| self.spent(e))
    }

    /// Writes `bytes` at `ptr` in guest memory (fails past the end).
    pub fn abi_write(&mut self, ptr: u32, bytes: &[u8]) -> Result<(), Error> {
        self.exports.memory.write(&mut self.store, ptr as usize, bytes).map_err(|e| Error::Runtime(e.into()))
    }

    /// Guest linear memory size in bytes.
    pub fn abi_memory_size(&self) -> usize {
        self.exports.memory.data_size(&self.store)
    }

    /// Reads the 12-byte result record at `record`: its status and a copy of
    /// its payload. Does not free it.
    pub fn abi_read_record(&mut self, record: u32) -> Result<(u32, Vec<u8>), Error> {
        let memory = self.exports.memory.data(&self.store);
        let out_of_bounds = || Error::Runtime(wasmtime::Error::msg(format!("result record {record:#x} lies outside guest memory")));
        let fields = memory.get(record as usize..record as usize + 12).ok_or_else(out_of_bounds)?;
        let field = |i: usize| u32::from_le_bytes(fields[i * 4..i * 4 + 4].try_into().expect("4 bytes"));
        let (status, payload_ptr, payload_len) = (field(0), field(1) as usize, field(2) as usize);
        let payload = if payload_len == 0 {
            Vec::new()
        } else {
            memory.get(payload_ptr..payload_ptr + payload_len).ok_or_else(out_of_bounds)?.to_vec()
        };
        Ok((status, payload))
    }
}

impl Generator for RawGenerator {
    fn path(&self) -> Path {
        Path::Raw
    }

    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error> {
        self.png_from_bytes(text.as_bytes(), options)
    }

    fn svg(&mut self, text: &str, options: &Options) -> Result<String, Error> {
        self.svg_from_bytes(text.as_bytes(), options)
    }

    /// The bytes go to the guest as they are: it checks the UTF-8 itself.
    fn png_from_bytes(&mut self, text: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        let (ec_level, min_size, quiet_zone) = abi_options(options);
        self.text_call(text, |this, ptr, len| this.abi_png(ptr, len, ec_level, min_size, quiet_zone))
    }

    fn svg_from_bytes(&mut self, text: &[u8], options: &Options) -> Result<String, Error> {
        let (ec_level, min_size, quiet_zone) = abi_options(options);
        let bytes = self.text_call(text, |this, ptr, len| {
            this.exports.svg.call(&mut this.store, (ptr, len, ec_level, min_size, quiet_zone)).map_err(|e| this.spent(e))
        })?;
        String::from_utf8(bytes).map_err(|e| Error::Runtime(wasmtime::Error::msg(format!("qr_svg returned bytes that are not UTF-8: {e}"))))
    }

    fn noop(&mut self) -> Result<(), Error> {
        self.call(|this| this.exports.noop.call(&mut this.store, ()).map_err(|e| this.spent(e)))
    }

    fn consume(&mut self, data: &[u8]) -> Result<u32, Error> {
        self.call(|this| {
            let (ptr, len) = this.copy_in(data)?;
            let consumed = this.abi_consume(ptr, len)?;
            if consumed != len {
                return Err(Error::Runtime(wasmtime::Error::msg(format!("qr_consume({ptr:#x}, {len}) returned {consumed}"))));
            }
            Ok(consumed)
        })
    }

    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error> {
        self.call(|this| {
            let record = this.abi_produce(len)?;
            this.take_record(record)
        })?
        .map_err(Error::Qr)
    }

    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error> {
        let (ec_level, min_size, quiet_zone) = abi_options(options);
        let payload = self.text_call(text.as_bytes(), |this, ptr, len| {
            this.exports.png_repeat.call(&mut this.store, (ptr, len, ec_level, min_size, quiet_zone, times)).map_err(|e| this.spent(e))
        })?;
        let bytes: [u8; 4] = payload.as_slice().try_into().map_err(|_| {
            Error::Runtime(wasmtime::Error::msg(format!("qr_png_repeat returned {} payload bytes, not 4", payload.len())))
        })?;
        Ok(u32::from_le_bytes(bytes))
    }

    fn memory_pages(&mut self) -> Result<u32, Error> {
        self.call(|this| this.exports.memory_pages.call(&mut this.store, ()).map_err(|e| this.spent(e)))
    }

    fn trap(&mut self) -> Result<(), Error> {
        self.call(|this| this.exports.trap.call(&mut this.store, ()).map_err(|e| this.spent(e)))
    }
}
