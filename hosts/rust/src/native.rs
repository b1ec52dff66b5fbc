//! The native path: qrglue-core linked into the host, no wasm. The same code
//! the guests run, compiled for this machine: the speed limit for the others.

use qrglue_core::probe;

use crate::{Error, Generator, Matrix, Options, Path, QrError, SvgOptions, TextStyle};

/// Calls qrglue-core directly. Holds nothing; free to make.
#[derive(Debug, Default, Clone, Copy)]
pub struct NativeGenerator;

impl Generator for NativeGenerator {
    fn path(&self) -> Path {
        Path::Native
    }

    fn png(&mut self, text: &str, options: &Options) -> Result<Vec<u8>, Error> {
        Ok(qrglue_core::png(text, options)?)
    }

    fn svg_with(&mut self, text: &str, options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        // The host's checks first, as on the wasm paths (docs/contract.md): the same answers on every path.
        crate::reject_oversized_text(text.as_bytes())?;
        crate::reject_oversized_svg(text.as_bytes(), true, svg)?;
        Ok(qrglue_core::svg_with(text, options, svg)?)
    }

    fn matrix(&mut self, text: &str, options: &Options) -> Result<Matrix, Error> {
        Ok(Matrix::from(&qrglue_core::matrix(text, options)?))
    }

    fn text(&mut self, text: &str, options: &Options, style: TextStyle) -> Result<String, Error> {
        Ok(qrglue_core::text(text, options, style)?)
    }

    fn png_bytes(&mut self, data: &[u8], options: &Options) -> Result<Vec<u8>, Error> {
        Ok(qrglue_core::png_bytes(data, options)?)
    }

    fn svg_bytes_with(&mut self, data: &[u8], options: &Options, svg: &SvgOptions) -> Result<String, Error> {
        crate::reject_oversized_payload(data)?;
        crate::reject_oversized_svg(data, false, svg)?;
        Ok(qrglue_core::svg_bytes_with(data, options, svg)?)
    }

    fn matrix_bytes(&mut self, data: &[u8], options: &Options) -> Result<Matrix, Error> {
        Ok(Matrix::from(&qrglue_core::matrix_bytes(data, options)?))
    }

    fn text_bytes(&mut self, data: &[u8], options: &Options, style: TextStyle) -> Result<String, Error> {
        Ok(qrglue_core::text_bytes(data, options, style)?)
    }

    fn noop(&mut self) -> Result<(), Error> {
        Ok(())
    }

    fn consume(&mut self, data: &[u8]) -> Result<u32, Error> {
        // black_box: the length must be read from data the optimiser cannot see through.
        Ok(std::hint::black_box(data).len() as u32)
    }

    /// Over 16 MiB answers `invalid-options`, as the raw ABI does (there is
    /// no trap to give natively).
    fn produce(&mut self, len: u32) -> Result<Vec<u8>, Error> {
        if len > probe::MAX_PRODUCE_BYTES {
            return Err(Error::Qr(QrError::InvalidOptions(format!(
                "produce: len must be at most {}, got {len}",
                probe::MAX_PRODUCE_BYTES
            ))));
        }
        Ok(probe::pattern(len as usize))
    }

    fn png_repeat(&mut self, text: &str, options: &Options, times: u32) -> Result<u32, Error> {
        Ok(probe::png_repeat(text, options, times)?)
    }

    fn memory_pages(&mut self) -> Result<u32, Error> {
        Ok(0)
    }

    /// There is no instance to trap natively: this reports what a guest trap
    /// reports, so callers can treat every path alike.
    fn trap(&mut self) -> Result<(), Error> {
        Err(Error::Trap("native path: the trap probe was called".to_owned()))
    }
}
