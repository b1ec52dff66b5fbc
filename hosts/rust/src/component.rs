//! The Component Model path: `qrglue.component.wasm` through wasmtime, with
//! bindings generated from the same `wit/qr.wit` the guest is built from.

use std::path::Path as FsPath;
use std::sync::OnceLock;

use wasmtime::Store;
use wasmtime::component::{Component, Linker};

use crate::guest::{self, Guest, GuestState, Instantiate};
use crate::{Error, Generator, Matrix, Options, Path, QrError, SvgOptions, TextStyle};

wasmtime::component::bindgen!({
    path: "../../wit",
    world: "qrglue",
});

use exports::qrglue::qr::types as wit;

/// The compiled component, ready to instantiate (imports nothing, so the
/// linker is empty). Cheap to share across threads.
pub struct ComponentRuntime {
    pre: QrgluePre<GuestState>,
}

impl ComponentRuntime {
    /// The process-wide runtime: the embedded component compiled once on
    /// the shared engine.
    pub fn shared() -> Result<&'static ComponentRuntime, Error> {
        static SHARED: OnceLock<ComponentRuntime> = OnceLock::new();
        guest::shared(&SHARED, || ComponentRuntime::compile(crate::shared_engine(), crate::COMPONENT_WASM))
    }

    /// Compiles a component (normally [`crate::COMPONENT_WASM`]) with Cranelift.
    pub fn compile(engine: &wasmtime::Engine, wasm: &[u8]) -> Result<ComponentRuntime, Error> {
        let component = Component::new(engine, wasm).map_err(Error::Runtime)?;
        ComponentRuntime::from_component(engine, component)
    }

    /// Loads machine code written by [`ComponentRuntime::serialize`].
    ///
    /// # Safety
    /// `path` must hold bytes from `serialize` by this wasmtime version with
    /// this engine configuration, unmodified: wasmtime maps them as code
    /// (see `wasmtime::component::Component::deserialize_file`).
    pub unsafe fn deserialize_file(engine: &wasmtime::Engine, path: &FsPath) -> Result<ComponentRuntime, Error> {
        // SAFETY: the caller's promise, passed on.
        let component = unsafe { Component::deserialize_file(engine, path) }.map_err(Error::Runtime)?;
        ComponentRuntime::from_component(engine, component)
    }

    /// The compiled machine code, for [`ComponentRuntime::deserialize_file`]
    /// (a cache that skips compilation at start-up).
    pub fn serialize(&self) -> Result<Vec<u8>, Error> {
        self.component().serialize().map_err(Error::Runtime)
    }

    /// The compiled component, e.g. to inspect its imports and exports.
    pub fn component(&self) -> &Component {
        self.pre.instance_pre().component()
    }

    /// The engine the component was compiled for.
    pub fn engine(&self) -> &wasmtime::Engine {
        self.component().engine()
    }

    fn from_component(engine: &wasmtime::Engine, component: Component) -> Result<ComponentRuntime, Error> {
        let linker = Linker::<GuestState>::new(engine);
        let instance_pre = linker.instantiate_pre(&component).map_err(Error::Runtime)?;
        let pre = QrgluePre::new(instance_pre).map_err(Error::Runtime)?;
        Ok(ComponentRuntime { pre })
    }

    /// A new generator: its own `Store` and instance.
    pub fn instantiate(&self) -> Result<ComponentGenerator, Error> {
        Ok(ComponentGenerator { guest: Guest::new(self.pre.clone())? })
    }
}

impl Instantiate for QrgluePre<GuestState> {
    type Instance = Qrglue;

    fn engine(&self) -> &wasmtime::Engine {
        self.instance_pre().component().engine()
    }

    fn instantiate(&self, store: &mut Store<GuestState>) -> Result<Qrglue, Error> {
        QrgluePre::instantiate(self, store).map_err(Error::Runtime)
    }
}

/// One component instance in its own `Store`; see the crate docs.
pub struct ComponentGenerator {
    guest: Guest<QrgluePre<GuestState>>,
}

impl ComponentGenerator {
    /// One guest call through the bindings. A contract error comes back
    /// inside `Ok` (the WIT `result`), so every `Err` here is a trap or a
    /// runtime failure, after which the instance is replaced.
    fn call<R>(&mut self, f: impl FnOnce(&Qrglue, &mut Store<GuestState>) -> wasmtime::Result<R>) -> Result<R, Error> {
        self.guest.call(|store, bindings| f(bindings, store).map_err(Error::from_wasmtime))
    }
}

fn wit_options(options: &Options) -> wit::Options {
    wit::Options {
        ec_level: match options.ec_level {
            crate::EcLevel::Low => wit::EcLevel::Low,
            crate::EcLevel::Medium => wit::EcLevel::Medium,
            crate::EcLevel::Quartile => wit::EcLevel::Quartile,
            crate::EcLevel::High => wit::EcLevel::High,
        },
        min_size: options.min_size,
        quiet_zone: options.quiet_zone,
        scale: options.scale,
        dark: wit_rgba(options.dark),
        light: wit_rgba(options.light),
        // None when every symbol option is automatic: the cheaper lowering
        // for the common call, and the same symbol (wit/qr.wit).
        symbol: (options.symbol != crate::Symbol::default()).then(|| {
            let crate::Symbol { micro, version, min_version, mask, boost_ec, eci } = options.symbol;
            wit::SymbolOptions { micro, version, min_version, mask, boost_ec, eci }
        }),
    }
}

fn wit_svg(svg: &SvgOptions) -> wit::SvgOptions {
    wit::SvgOptions { view_box_only: svg.view_box_only, title: svg.title.clone(), class: svg.class.clone() }
}

fn wit_style(style: TextStyle) -> wit::TextStyle {
    match style {
        TextStyle::HalfBlocks => wit::TextStyle::HalfBlocks,
        TextStyle::HalfBlocksInverted => wit::TextStyle::HalfBlocksInverted,
        TextStyle::Ascii => wit::TextStyle::Ascii,
    }
}

fn wit_rgba(crate::Rgba { r, g, b, a }: crate::Rgba) -> wit::Rgba {
    wit::Rgba { r, g, b, a }
}

fn core_error(error: wit::QrError) -> Error {
    Error::Qr(match error {
        wit::QrError::EmptyText => QrError::EmptyText,
        wit::QrError::InvalidText(message) => QrError::InvalidText(message),
        wit::QrError::DataTooLong(message) => QrError::DataTooLong(message),
        wit::QrError::InvalidOptions(message) => QrError::InvalidOptions(message),
    })
}

impl Generator for ComponentGenerator {
    fn path(&self) -> Path {
        Path::Component
    }

    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        let options = wit_options(options);
        self.call(|b, store| b.qrglue_qr_generator().call_png(store, text, options))?.map_err(core_error)
    }

    fn svg_with(&mut self, text: &str, options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        crate::reject_oversized_svg(text.as_bytes(), true, svg)?;
        let options = wit_options(options);
        let svg = wit_svg(svg);
        self.call(|b, store| b.qrglue_qr_generator().call_svg(store, text, options, &svg))?.map_err(core_error)
    }

    fn matrix(&mut self, text: &str, options: &Options) -> Result<Matrix, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        let options = wit_options(options);
        let matrix = self.call(|b, store| b.qrglue_qr_generator().call_matrix(store, text, options))?.map_err(core_error)?;
        Ok(Matrix { width: matrix.width, modules: matrix.modules })
    }

    fn text(&mut self, text: &str, options: &Options, style: TextStyle) -> Result<String, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        let options = wit_options(options);
        self.call(|b, store| b.qrglue_qr_generator().call_text(store, text, options, wit_style(style)))?.map_err(core_error)
    }

    fn png_bytes(&mut self, data: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        crate::reject_oversized_payload(data)?;
        let options = wit_options(options);
        self.call(|b, store| b.qrglue_qr_generator().call_png_bytes(store, data, options))?.map_err(core_error)
    }

    fn svg_bytes_with(&mut self, data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        crate::reject_oversized_payload(data)?;
        crate::reject_oversized_svg(data, false, svg)?;
        let options = wit_options(options);
        let svg = wit_svg(svg);
        self.call(|b, store| b.qrglue_qr_generator().call_svg_bytes(store, data, options, &svg))?.map_err(core_error)
    }

    fn matrix_bytes(&mut self, data: &[u8], options: &Options) -> Result<Matrix, Error> {
        crate::reject_oversized_payload(data)?;
        let options = wit_options(options);
        let matrix = self.call(|b, store| b.qrglue_qr_generator().call_matrix_bytes(store, data, options))?.map_err(core_error)?;
        Ok(Matrix { width: matrix.width, modules: matrix.modules })
    }

    fn text_bytes(&mut self, data: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        crate::reject_oversized_payload(data)?;
        let options = wit_options(options);
        self.call(|b, store| b.qrglue_qr_generator().call_text_bytes(store, data, options, wit_style(style)))?.map_err(core_error)
    }

    fn noop(&mut self) -> Result<(), Error> {
        self.call(|b, store| b.qrglue_qr_probe().call_noop(store))
    }

    fn consume(&mut self, data: &[u8]) -> Result<u32, Error> {
        self.call(|b, store| b.qrglue_qr_probe().call_consume(store, data))
    }

    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error> {
        self.call(|b, store| b.qrglue_qr_probe().call_produce(store, len))
    }

    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error> {
        crate::reject_oversized_text(text.as_bytes())?;
        let options = wit_options(options);
        self.call(|b, store| b.qrglue_qr_probe().call_png_repeat(store, text, options, times))?.map_err(core_error)
    }

    fn memory_pages(&mut self) -> Result<u32, Error> {
        self.call(|b, store| b.qrglue_qr_probe().call_memory_pages(store))
    }

    fn trap(&mut self) -> Result<(), Error> {
        self.call(|b, store| b.qrglue_qr_probe().call_trap(store))
    }
}
