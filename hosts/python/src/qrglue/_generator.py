"""The public generator shape, shared by the component and the raw path.

A path supplies only its *calls*: a small object bound to one Store and one
instance that moves already-checked arguments across the boundary and maps
the answer (see `_component.py`, `_fastglue.py`, `raw.py`). Everything else
(input checks, defaults, trap recovery, the probe API) lives here once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol, TypeVar

from ._common import (
    DEFAULT_TEXT_STYLE,
    SVG_KEYWORDS,
    TEXT_KEYWORDS,
    TEXT_TYPE_TEMPLATE,
    Data,
    GeneratorInUse,
    GuestTrap,
    OptionKeywords,
    Options,
    Payload,
    QrError,
    QrMatrix,
    SvgKeywords,
    SvgOptions,
    TextKeywords,
    check_count,
    check_keywords,
    check_style,
    check_svg,
    png_data_uri,
    release_data,
    svg_data_uri,
    svg_values,
)

if TYPE_CHECKING:
    # PEP 692's `**options: Unpack[...]` (typing.Unpack is Python 3.11+); only
    # for the type checkers: the annotations are never evaluated.
    from typing_extensions import Unpack

_R = TypeVar("_R")


class Calls(Protocol):
    """One instance in one Store. `text` is the caller's str, `data` its UTF-8
    bytes (a path uses whichever it needs); `options` are already checked.
    The `*_bytes` calls take a binary payload (`data`: exact bytes or a 1-D
    memoryview of unsigned bytes, valid for the call only) to the guest's
    `*-bytes` generators."""

    def png(self, text: str, data: bytes, options: Options) -> bytes: ...
    def svg(self, text: str, data: bytes, options: Options, svg: SvgOptions | None = None) -> str: ...
    def matrix(self, text: str, data: bytes, options: Options) -> QrMatrix: ...
    def text(self, text: str, data: bytes, options: Options, style: int) -> str: ...
    def png_bytes(self, data: Data, options: Options) -> bytes: ...
    def svg_bytes(self, data: Data, options: Options, svg: SvgOptions | None = None) -> str: ...
    def matrix_bytes(self, data: Data, options: Options) -> QrMatrix: ...
    def text_bytes(self, data: Data, options: Options, style: int) -> str: ...
    def png_repeat(self, text: str, data: bytes, options: Options, times: int) -> int: ...
    def noop(self) -> None: ...
    def consume(self, data: bytes) -> int: ...
    def produce(self, length: int) -> bytes: ...
    def trap(self) -> None: ...
    def memory_pages(self) -> int: ...


class BaseGenerator:
    """One guest instance in its own wasmtime Store.

    Thread safety: a Generator runs one call at a time (a wasmtime Store
    must not be entered from two threads at once). A call that starts while
    another thread is inside the same Generator raises `GeneratorInUse`
    (never a crash): use one Generator per thread, or guard a shared one
    with a lock. The module-level functions (`qrglue.png`,
    `qrglue.raw.png`, ...) already keep one Generator per thread and are
    safe to call from any thread. The compiled code (Engine,
    Component/Module) is shared, so an extra Generator costs only an
    instantiation (tens of microseconds), not a compile.

    Input: every generator takes a text (`str`) or a binary payload, a
    bytes-like object (`bytes`, `bytearray`, or a C-contiguous `memoryview`
    of bytes): a payload goes to the guest's `*-bytes` generators as it is,
    never decoded, and reads back as exactly those bytes; the bytes of a
    text's UTF-8 give exactly that text's output. Anything else is a
    TypeError. A payload is copied once, into the guest (no `bytes()` copy
    first); a bytearray cannot be resized during the call.

    Failures: a `QrError` is the contract's answer and leaves the instance
    as it was. Any other failure inside a call (a trap, an allocation
    failure, an error of the glue, KeyboardInterrupt) may have stopped the
    guest half-way, so the instance is retired and the next call runs on a
    fresh Store + instance, as the Rust host does (hosts/rust/src/guest.rs).
    """

    def __init__(self) -> None:
        # wasmtime is imported here, not at module level: `import qrglue`
        # (which `import qrglue.native` runs) must not pay ~20 ms for it.
        import wasmtime

        self._trap_types: tuple[type[BaseException], ...] = (wasmtime.Trap, wasmtime.WasmtimeError)
        # Held for the length of a call; taken without waiting (see GeneratorInUse).
        self._busy = threading.Lock()
        self._calls: Calls = self._new_calls()
        self._spent = False
        self.instances = 1  # instances made so far (tests: a retired one is replaced)

    def _new_calls(self) -> Calls:
        raise NotImplementedError

    def _payload_call(self, data: Data, call: Callable[[Calls], _R]) -> _R:
        """`_enter` for a binary payload's call: the payload's view is
        released as soon as the call is over, whatever it gave."""
        try:
            return self._enter(call)
        finally:
            release_data(data)

    def _enter(self, call: Callable[[Calls], _R]) -> _R:
        """`call(calls)` on the live instance, one thread at a time."""
        if not self._busy.acquire(blocking=False):
            raise GeneratorInUse("this qrglue Generator is in use by another thread (a Generator runs one call "
                                 "at a time): use one Generator per thread, or a lock, or the module functions")
        try:
            if self._spent:
                self._calls = self._new_calls()
                self._spent = False
                self.instances += 1
            try:
                return call(self._calls)
            except QrError:
                raise
            except self._trap_types as e:
                # A trap poisons the whole Store in wasmtime: every later
                # call would be refused. The next call starts over.
                self._spent = True
                raise GuestTrap(f"the guest trapped; the instance was replaced: {e}") from e
            except BaseException:
                self._spent = True
                raise
        finally:
            self._busy.release()

    def png(self, text: Payload, **options: Unpack[OptionKeywords]) -> bytes:
        """The QR code for `text` (a str, or a binary payload: bytes,
        bytearray or memoryview, see the class) as PNG bytes: 1-bit,
        grayscale for black on opaque white, else a two-colour palette (with
        tRNS when a colour is not opaque). The keywords, each optional, are
        `OptionKeywords`'s (generated from the contract's option table, with
        each one's bounds and default): the EC level, the image's size and
        colours, and the symbol options, which choose the code itself (each
        at its default: the automatic choice). Any other keyword is
        `invalid-options`. Raises QrError."""
        checked = check_keywords(text, "png", options)
        if checked[0] is None:
            _, payload, payload_options = checked
            return self._payload_call(payload, lambda calls: calls.png_bytes(payload, payload_options))
        exact, data, checked_options = checked
        return self._enter(lambda calls: calls.png(exact, data, checked_options))

    def svg(self, text: Payload, **options: Unpack[SvgKeywords]) -> str:
        """The QR code for `text` as an SVG document (options as for `png`;
        a fully transparent `light` draws no background). The SVG options
        (WIT `svg-options`, checked after the others, by the SVG calls alone):
        `view_box_only` leaves out width and height (the document scales to
        its box), `title` adds a `<title>` (the accessible name: at most 1024
        UTF-8 bytes, characters XML 1.0 can carry; escaped, so an XML parser
        reads back exactly this text), `svg_class` sets the `<svg>` element's
        `class` (WIT `class`: CSS class names of ASCII letters, digits, - and
        _, separated by single spaces, 1..=256 bytes). Raises QrError."""
        checked = check_keywords(text, "svg", options, SVG_KEYWORDS)
        view_box_only, title, svg_class = svg_values(options)
        if checked[0] is None:
            _, payload, payload_options = checked
            try:
                payload_svg = check_svg(view_box_only, title, svg_class)
            except BaseException:
                release_data(payload)
                raise
            return self._payload_call(payload, lambda calls: calls.svg_bytes(payload, payload_options, payload_svg))
        exact, data, checked_options = checked
        svg = check_svg(view_box_only, title, svg_class)
        return self._enter(lambda calls: calls.svg(exact, data, checked_options, svg))

    def png_data_uri(self, text: Payload, **options: Unpack[OptionKeywords]) -> str:
        """`png`'s bytes as a `data:image/png;base64,...` URI (segno's name,
        node-qrcode's toDataURL). Raises QrError."""
        return png_data_uri(self.png(text, **options))

    def svg_data_uri(self, text: Payload, **options: Unpack[SvgKeywords]) -> str:
        """`svg`'s document (SVG options included) as a `data:image/svg+xml;base64,...` URI. Raises QrError."""
        return svg_data_uri(self.svg(text, **options))

    def matrix(self, text: Payload, **options: Unpack[OptionKeywords]) -> QrMatrix:
        """The module matrix for `text`, quiet zone not included: for drawing
        the code yourself. Only `ec_level` and the symbol options shape it;
        the others are checked all the same. Raises QrError."""
        checked = check_keywords(text, "matrix", options)
        if checked[0] is None:
            _, payload, payload_options = checked
            return self._payload_call(payload, lambda calls: calls.matrix_bytes(payload, payload_options))
        exact, data, checked_options = checked
        return self._enter(lambda calls: calls.matrix(exact, data, checked_options))

    def text(self, text: Payload, **options: Unpack[TextKeywords]) -> str:
        """The QR code for `text` as lines of text, quiet zone included, one
        of `TEXT_STYLES`: "half-blocks" (ink on the dark modules: a light
        background or a file), "half-blocks-inverted" (a dark terminal) or
        "ascii" ("##" per dark module). `min_size`, `scale` and the colours
        are checked but unused. Raises QrError."""
        checked = check_keywords(text, "text", options, TEXT_KEYWORDS)
        style = options.get("style", DEFAULT_TEXT_STYLE)
        if checked[0] is None:
            _, payload, payload_options = checked
            try:
                payload_style = check_style(style)
                return self._enter(lambda calls: calls.text_bytes(payload, payload_options, payload_style))
            finally:
                release_data(payload)
        exact, data, checked_options = checked
        style_index = check_style(style)
        return self._enter(lambda calls: calls.text(exact, data, checked_options, style_index))

    # Probes: for measuring the bridge, not for users (see wit/qr.wit `probe`).

    def png_repeat(self, text: str, times: int, **options: Unpack[OptionKeywords]) -> int:
        """Render the PNG `times` times inside the guest; the last PNG's length.
        A text only (WIT `png-repeat` takes a string)."""
        if not isinstance(text, str):
            raise TypeError(TEXT_TYPE_TEMPLATE.format(type=type(text).__name__))
        checked = check_keywords(text, "png_repeat", options)
        assert checked[0] is not None  # a str is a text
        exact, data, checked_options = checked
        count = check_count(times)
        return self._enter(lambda calls: calls.png_repeat(exact, data, checked_options, count))

    def noop(self) -> None:
        self._enter(lambda calls: calls.noop())

    def consume(self, data: bytes) -> int:
        # Through the buffer protocol: a bytes subclass's own __bytes__ or
        # __len__ cannot change what is sent.
        exact = bytes(memoryview(data))
        return self._enter(lambda calls: calls.consume(exact))

    def produce(self, length: int) -> bytes:
        """`length` bytes, byte i = i % 251. Over 16 MiB the guest refuses
        (a trap on the component path, `invalid-options` on the raw path)."""
        count = check_count(length)
        return self._enter(lambda calls: calls.produce(count))

    def trap(self) -> None:
        """Make the guest trap, always: raises GuestTrap; the next call works."""
        self._enter(lambda calls: calls.trap())

    def memory_pages(self) -> int:
        """The guest's linear memory size in 64 KiB pages (of this Generator's
        current instance): for proving memory stays bounded. It may grow
        during warm-up, then must not."""
        return self._enter(lambda calls: calls.memory_pages())




class PerThread:
    """A path's module-level API (`qrglue.png`, `qrglue.raw.png`, ...): one
    generator per thread, made on first use, because a wasmtime Store must
    not be shared across threads. Its methods are thread-safe."""

    def __init__(self, factory: Callable[[], BaseGenerator]) -> None:
        self._factory = factory
        self._local = threading.local()

    def generator(self) -> BaseGenerator:
        gen = getattr(self._local, "generator", None)
        if gen is None:
            gen = self._local.generator = self._factory()
        return gen

    def png(self, text: Payload, **options: Unpack[OptionKeywords]) -> bytes:
        """The QR code for `text` as PNG bytes (see `BaseGenerator.png`). Thread-safe. Raises QrError."""
        return self.generator().png(text, **options)

    def svg(self, text: Payload, **options: Unpack[SvgKeywords]) -> str:
        """The QR code for `text` as an SVG document (see `BaseGenerator.svg`). Thread-safe. Raises QrError."""
        return self.generator().svg(text, **options)

    def png_data_uri(self, text: Payload, **options: Unpack[OptionKeywords]) -> str:
        """`png` as a `data:image/png;base64,...` URI. Thread-safe. Raises QrError."""
        return self.generator().png_data_uri(text, **options)

    def svg_data_uri(self, text: Payload, **options: Unpack[SvgKeywords]) -> str:
        """`svg` as a `data:image/svg+xml;base64,...` URI. Thread-safe. Raises QrError."""
        return self.generator().svg_data_uri(text, **options)

    def matrix(self, text: Payload, **options: Unpack[OptionKeywords]) -> QrMatrix:
        """The module matrix for `text` (see `BaseGenerator.matrix`). Thread-safe. Raises QrError."""
        return self.generator().matrix(text, **options)

    def text(self, text: Payload, **options: Unpack[TextKeywords]) -> str:
        """The QR code for `text` as lines of text in `style` (see
        `BaseGenerator.text`). Thread-safe. Raises QrError."""
        return self.generator().text(text, **options)
