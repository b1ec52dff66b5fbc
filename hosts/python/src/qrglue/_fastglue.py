"""Fast component glue: the same calls as `_component.StockCalls`, through
wasmtime-py's own ctypes bindings (`wasmtime._bindings`, `wasmtime._ffi`)
instead of its per-value Python conversion. Nothing in the installed
wasmtime package is modified.

What stock wasmtime-py 50.0.1 does per call, and what this module does instead
(measurements and upstream patches: hosts/python/UPSTREAM.md):

1. Types. `component.Func.__call__` asks the C API for the function's type,
   then for each parameter's and the result's type, recursively, on every
   call (tens of FFI calls and Python objects for a png-shaped call). Here
   the signatures are checked once per process against what this glue
   expects (`_EXPECTED_SIGNATURES`), and every call then writes its
   arguments straight into preallocated `wasmtime_component_val_t` slots.
2. `list<u8>`. Stock converts element by element in Python (one ctypes
   struct access, one type dispatch per byte). A `wasmtime_component_val_t`
   is 32 bytes: `kind` at offset 0, the u8 at offset 8. So a list<u8> is a
   `string_at` copy of the C array (in 1 MiB chunks), a check that every
   32nd byte from 0 is the U8 kind, and a stride slice `[8::32]`; lowering
   is the reverse (two stride assignments into a zeroed bytearray; one for a
   binary payload, into values whose kinds are written once per instance).
3. Ownership. The C API *borrows* the argument values (it clones them into
   Rust values), so arguments can point into Python-owned buffers and are
   never handed to `val_delete`. The result is owned by us: stock lifts a
   `result`'s boxed payload and then calls `wasmtime_component_val_delete`
   on the box, which drops its contents in place but never frees the box
   itself (~50 B leaked per call). Here the whole result value is dropped
   once, from the top, with `val_delete` on the outer slot, which frees the
   box through its owner.

It is switched on only for the wasmtime-py version it was written and tested
against (`SUPPORTED_WASMTIME`), and only when the struct layout it relies on
is what the bindings declare; otherwise `qrglue` uses the stock path and
warns once.
"""

from __future__ import annotations

import ctypes
import struct
import warnings
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import wasmtime
from wasmtime import _bindings as bindings
from wasmtime import component as wc

from . import _loader
from ._common import EC_LEVELS, MAX_TEXT_BYTES, TEXT_STYLES, Data, Options, QrError, QrMatrix, SvgOptions, Symbol
from ._instance import GENERATOR_INTERFACE, PROBE_INTERFACE, export_func, instantiate

SUPPORTED_WASMTIME = _loader.SUPPORTED_WASMTIME

# Value kinds (wasmtime/component/val.h).
_BOOL, _U8, _U32, _STRING, _LIST, _RECORD, _VARIANT, _ENUM, _OPTION, _RESULT = 0, 2, 6, 12, 13, 14, 16, 17, 18, 19

# The C layout this glue writes and reads, in bytes (checked against the
# bindings' ctypes declarations by `layout_matches`). Values are written as
# 8-byte words through a memoryview: `_word` turns a byte offset into an index.
_WORD = 8
# wasmtime_component_val_t: the kind (a u8, padded), then the union `of`.
_VAL_SIZE = 32
_VAL_KIND = 0
_VAL_OF = 8
# Members of `of`, as offsets inside it:
_OF_U32 = 0                  # u32 (a whole word is written: the upper bytes stay 0)
_OF_U8 = 0                   # u8 (likewise)
_OF_BOOL = 0                 # bool (likewise: 0 or 1)
_OF_OPTION = 0               # option: val_t*, NULL for none
_OF_SIZE, _OF_DATA = 0, 8    # string, list, record, enumeration: {size, data}
_OF_RESULT_IS_OK = 0         # result: {is_ok: bool, val: val_t*}
_OF_RESULT_VAL = 8
_OF_VARIANT_VAL = 16         # variant: {discriminant: name {size, data}, val: val_t*}
# wasmtime_component_valrecord_entry_t: name {size, data}, then the value.
_ENTRY_SIZE = 48
_ENTRY_NAME_SIZE, _ENTRY_NAME_DATA = 0, 8
_ENTRY_VAL = 16
# A value read in one go: the kind, then the union's three words.
_VAL_HEAD = struct.Struct("<B7xQQQ")
_Head = tuple[int, int, int, int]
_R = TypeVar("_R")
_LIFT_CHUNK = 32 * 1024  # list<u8> elements per copy when lifting (see FastCalls._bytes)
_U8_KINDS = bytes((_U8,)) * _LIFT_CHUNK

_raw_call = bindings._wasmtime_component_func_call
_val_delete = bindings._wasmtime_component_val_delete

# What this glue writes and reads, as `describe()` renders wasmtime's own types.
_RGBA = "record{r:u8,g:u8,b:u8,a:u8}"
_SYMBOL = ("record{micro:bool,version:option<u32>,min-version:option<u32>,mask:option<u32>,boost-ec:bool,"
           "eci:bool}")
_OPTIONS = ("record{ec-level:enum{low,medium,quartile,high},min-size:u32,quiet-zone:u32,scale:option<u32>,"
            f"dark:{_RGBA},light:{_RGBA},symbol:option<{_SYMBOL}>}}")
_QR_ERROR = "variant{empty-text,invalid-text:string,data-too-long:string,invalid-options:string}"
_QR_MATRIX = "record{width:u32,modules:list<u8>}"
_TEXT_STYLE = "enum{" + ",".join(TEXT_STYLES) + "}"
_SVG_OPTIONS = "record{view-box-only:bool,title:option<string>,class:option<string>}"
_EXPECTED_SIGNATURES = {
    (GENERATOR_INTERFACE, "png"): f"(string,{_OPTIONS})->result<list<u8>,{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "svg"): f"(string,{_OPTIONS},{_SVG_OPTIONS})->result<string,{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "matrix"): f"(string,{_OPTIONS})->result<{_QR_MATRIX},{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "text"): f"(string,{_OPTIONS},{_TEXT_STYLE})->result<string,{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "png-bytes"): f"(list<u8>,{_OPTIONS})->result<list<u8>,{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "svg-bytes"): f"(list<u8>,{_OPTIONS},{_SVG_OPTIONS})->result<string,{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "matrix-bytes"): f"(list<u8>,{_OPTIONS})->result<{_QR_MATRIX},{_QR_ERROR}>",
    (GENERATOR_INTERFACE, "text-bytes"): f"(list<u8>,{_OPTIONS},{_TEXT_STYLE})->result<string,{_QR_ERROR}>",
    (PROBE_INTERFACE, "png-repeat"): f"(string,{_OPTIONS},u32)->result<u32,{_QR_ERROR}>",
    (PROBE_INTERFACE, "noop"): "()",
    (PROBE_INTERFACE, "consume"): "(list<u8>)->u32",
    (PROBE_INTERFACE, "produce"): "(u32)->list<u8>",
    (PROBE_INTERFACE, "trap"): "()",
    (PROBE_INTERFACE, "memory-pages"): "()->u32",
}

_warned = False
# Per loaded component (by id): None once its signatures matched, else why not.
_checked_components: dict[int, str | None] = {}


class GlueMismatch(RuntimeError):
    """The component's exports are not the signatures this glue writes and
    reads (`_EXPECTED_SIGNATURES`): it must not run (it would misread them)."""


def layout_matches() -> bool:
    """The offsets this module hard-codes, checked against the bindings."""
    b = bindings
    val, union = b.wasmtime_component_val_t, b.wasmtime_component_valunion_t
    entry = b.wasmtime_component_valrecord_entry_t
    sized = (b.wasm_name_t, b.wasmtime_component_vallist_t, b.wasmtime_component_valrecord_t)
    at_start = ("boolean", "u8", "u32", "string", "list", "record", "enumeration", "variant", "result", "option")
    return (ctypes.sizeof(val) == _VAL_SIZE == _VAL_HEAD.size
            and _offset(val, "kind") == _VAL_KIND and ctypes.sizeof(b.wasmtime_component_valkind_t) == 1
            and _offset(val, "of") == _VAL_OF
            and all(_offset(union, member) == 0 for member in at_start)
            and all(_offset(t, "size") == _OF_SIZE and _offset(t, "data") == _OF_DATA for t in sized)
            and _offset(b.wasmtime_component_valresult_t, "is_ok") == _OF_RESULT_IS_OK
            and _offset(b.wasmtime_component_valresult_t, "val") == _OF_RESULT_VAL
            and _offset(b.wasmtime_component_valvariant_t, "val") == _OF_VARIANT_VAL
            and ctypes.sizeof(entry) == _ENTRY_SIZE
            and _offset(entry, "name") == _ENTRY_NAME_SIZE and _offset(entry, "val") == _ENTRY_VAL
            and _offset(b.wasm_name_t, "data") == _ENTRY_NAME_DATA - _ENTRY_NAME_SIZE)


def _offset(struct_type: type, field: str) -> int:
    """A ctypes field's byte offset (the bindings annotate fields with their
    value types, so the class attribute is read through getattr)."""
    offset: int = getattr(struct_type, field).offset
    return offset


def _word(offset: int) -> int:
    """The index, in a memoryview of 8-byte words, of the word at byte `offset`."""
    assert offset % _WORD == 0
    return offset // _WORD


def _kind_word(value_at: int) -> int:
    """The word holding the kind of the value at byte `value_at`."""
    return _word(value_at + _VAL_KIND)


def _of_word(value_at: int, member_offset: int) -> int:
    """The word at `member_offset` inside the union of the value at byte `value_at`."""
    return _word(value_at + _VAL_OF + member_offset)


def available(version: str | None = None) -> bool:
    """True when the fast glue may run; otherwise warns (once per process)."""
    version = _loader.wasmtime_version() if version is None else version
    try:
        layout = layout_matches()
    except AttributeError as e:  # a binding this glue reads is gone
        layout, version = False, f"{version} ({e})"
    if version == SUPPORTED_WASMTIME and layout:
        return True
    warn_fallback(f"fast component glue is written for wasmtime-py {SUPPORTED_WASMTIME}, found {version}")
    return False


def warn_fallback(reason: str) -> None:
    """Say once per process that the stock (slower) conversion runs instead, and why."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(f"qrglue: {reason}; using wasmtime-py's stock (slower) conversion", RuntimeWarning,
                      stacklevel=4)


def describe(ty: Any) -> str:
    """A WIT-like rendering of a wasmtime-py component type, for the signature check."""
    if isinstance(ty, wc.ListType):
        return f"list<{describe(ty.element)}>"
    if isinstance(ty, wc.RecordType):
        return "record{" + ",".join(f"{n}:{describe(t)}" for n, t in ty.fields) + "}"
    if isinstance(ty, wc.EnumType):
        return "enum{" + ",".join(ty.names) + "}"
    if isinstance(ty, wc.VariantType):
        return "variant{" + ",".join(n if t is None else f"{n}:{describe(t)}" for n, t in ty.cases) + "}"
    if isinstance(ty, wc.OptionType):
        return f"option<{describe(ty.payload)}>"
    if isinstance(ty, wc.ResultType):
        ok, err = ty.ok, ty.err
        return f"result<{describe(ok) if ok else '_'},{describe(err) if err else '_'}>"
    return type(ty).__name__.lower()


def _signature(store: wasmtime.Store, func: wc.Func) -> str:
    fty = func.type(store)
    params = "(" + ",".join(describe(t) for _, t in fty.params) + ")"
    result = fty.result
    return params if result is None else f"{params}->{describe(result)}"


def _address(buffer: Any) -> int:
    return ctypes.addressof(ctypes.c_char.from_buffer(buffer))


class FastCalls:
    """One component instance, called through preallocated C value slots."""

    def __init__(self) -> None:
        self.store, instance = instantiate()
        funcs = {key: export_func(self.store, instance, *key) for key in _EXPECTED_SIGNATURES}
        component_id = id(_loader.component())
        if component_id not in _checked_components:
            _checked_components[component_id] = None
            for key, func in funcs.items():
                found = _signature(self.store, func)
                if found != _EXPECTED_SIGNATURES[key]:
                    _checked_components[component_id] = (f"{key[0]}#{key[1]} is {found}, the fast glue expects "
                                                          f"{_EXPECTED_SIGNATURES[key]}")
                    break
        mismatch = _checked_components[component_id]
        if mismatch is not None:
            raise GlueMismatch(mismatch)
        # Keep the Func objects alive: the byref()s below point into them.
        self._funcs = funcs
        ref = {name: ctypes.byref(func._func) for (_, name), func in funcs.items()}
        self._png, self._svg, self._png_repeat = ref["png"], ref["svg"], ref["png-repeat"]
        self._matrix, self._text = ref["matrix"], ref["text"]
        self._png_bytes, self._svg_bytes = ref["png-bytes"], ref["svg-bytes"]
        self._matrix_bytes, self._text_bytes = ref["matrix-bytes"], ref["text-bytes"]
        self._noop, self._consume, self._produce, self._trap = (
            ref["noop"], ref["consume"], ref["produce"], ref["trap"])
        self._memory_pages = ref["memory-pages"]
        self._context = self.store._context()

        # Arguments (borrowed by the callee, so Python owns every byte here):
        # [text: string, options: record] for png / matrix, then a third for
        # png-repeat (times: u32), text (style: enum) and svg (svg-options:
        # record), which each write its kind before a call.
        self._text_buffer = ctypes.create_string_buffer(MAX_TEXT_BYTES)
        option_names = ("ec-level", "min-size", "quiet-zone", "scale", "dark", "light", "symbol")
        channel_names = ("r", "g", "b", "a")
        symbol_names = ("micro", "version", "min-version", "mask", "boost-ec", "eci")
        svg_names = ("view-box-only", "title", "class")
        named = (*option_names, *channel_names, *symbol_names, *svg_names)
        self._names = [ctypes.create_string_buffer(n.encode(), len(n))
                       for n in (*named, *EC_LEVELS, *TEXT_STYLES)]
        names = dict(zip(named, self._names, strict=False))
        # The options record: seven entries, in WIT field order; then the
        # entries of the two rgba records (four u8s each) it points to.
        fields = ((names["ec-level"], _ENUM), (names["min-size"], _U32), (names["quiet-zone"], _U32),
                  (names["scale"], _OPTION), (names["dark"], _RECORD), (names["light"], _RECORD),
                  (names["symbol"], _OPTION))
        channels = tuple((names[n], _U8) for n in channel_names)
        self._entries = _record_entries(fields)
        self._dark_entries, self._light_entries = _record_entries(channels), _record_entries(channels)
        entry_words = memoryview(self._entries).cast("Q")
        ec_level_at, min_size_at, quiet_zone_at, scale_at, dark_at, light_at, symbol_at = (
            i * _ENTRY_SIZE + _ENTRY_VAL for i in range(len(fields)))
        for color_at, color_entries in ((dark_at, self._dark_entries), (light_at, self._light_entries)):
            entry_words[_of_word(color_at, _OF_SIZE)] = len(channels)
            entry_words[_of_word(color_at, _OF_DATA)] = _address(color_entries)
        # scale's some(u32) payload: a value of its own, which the option points to.
        self._scale = bytearray(_VAL_SIZE)
        self._scale_words = memoryview(self._scale).cast("Q")
        self._scale_words[_kind_word(0)] = _U32
        self._scale_address = _address(self._scale)
        self._entry_words = entry_words
        self._ec_name_size_word = _of_word(ec_level_at, _OF_SIZE)
        self._ec_name_data_word = _of_word(ec_level_at, _OF_DATA)
        self._min_size_word = _of_word(min_size_at, _OF_U32)
        self._quiet_zone_word = _of_word(quiet_zone_at, _OF_U32)
        self._scale_option_word = _of_word(scale_at, _OF_OPTION)
        # Each colour's r, g, b, a words, in the order 0xRRGGBBAA holds them.
        self._dark_words = memoryview(self._dark_entries).cast("Q")
        self._light_words = memoryview(self._light_entries).cast("Q")
        self._channel_words = tuple(_of_word(i * _ENTRY_SIZE + _ENTRY_VAL, _OF_U8) for i in range(len(channels)))
        self._colors_written: tuple[int, int] | None = None  # (dark, light) in the entries now
        # symbol: option<symbol-options>. NULL (none) whenever every symbol
        # option is at its default, the common call: one word, written only
        # when it changes. Otherwise it points to a record value of six
        # entries (micro, version, min-version, mask, boost-ec, eci), whose three
        # options point to u32 values of their own when some.
        self._symbol_option_word = _of_word(symbol_at, _OF_OPTION)
        symbol_fields = ((names["micro"], _BOOL), (names["version"], _OPTION), (names["min-version"], _OPTION),
                         (names["mask"], _OPTION), (names["boost-ec"], _BOOL), (names["eci"], _BOOL))
        self._symbol_entries = _record_entries(symbol_fields)
        self._symbol_words = memoryview(self._symbol_entries).cast("Q")
        micro_at, version_at, min_version_at, mask_at, boost_ec_at, eci_at = (
            i * _ENTRY_SIZE + _ENTRY_VAL for i in range(len(symbol_fields)))
        self._symbol = bytearray(_VAL_SIZE)  # the some(...) payload: the record value
        symbol_value_words = memoryview(self._symbol).cast("Q")
        symbol_value_words[_kind_word(0)] = _RECORD
        symbol_value_words[_of_word(0, _OF_SIZE)] = len(symbol_fields)
        symbol_value_words[_of_word(0, _OF_DATA)] = _address(self._symbol_entries)
        self._symbol_address = _address(self._symbol)
        self._micro_word = _of_word(micro_at, _OF_BOOL)
        self._boost_ec_word = _of_word(boost_ec_at, _OF_BOOL)
        self._eci_word = _of_word(eci_at, _OF_BOOL)
        # version, min-version, mask: (option word, u32 value words, address of that value).
        self._symbol_numbers = bytearray(3 * _VAL_SIZE)
        number_words = memoryview(self._symbol_numbers).cast("Q")
        numbers_address = _address(self._symbol_numbers)
        self._symbol_number_slots: list[tuple[int, int, int]] = []
        for i, option_at in enumerate((version_at, min_version_at, mask_at)):
            number_words[_kind_word(i * _VAL_SIZE)] = _U32
            self._symbol_number_slots.append((_of_word(option_at, _OF_OPTION), _of_word(i * _VAL_SIZE, _OF_U32),
                                              numbers_address + i * _VAL_SIZE))
        self._symbol_number_words = number_words
        self._symbol_written: Symbol | None = None  # the symbol in the entries now (None: the option is none)
        self._options_written: Options | None = None  # the options object the entries hold now (None: not yet)
        # svg-options: a record of three entries (view-box-only, title,
        # class), the third argument of svg and svg-bytes. Each option<string>
        # points to a string value of its own when some, whose bytes are a
        # buffer kept in `_svg_buffers` while the entries point to it.
        svg_fields = ((names["view-box-only"], _BOOL), (names["title"], _OPTION), (names["class"], _OPTION))
        self._svg_entries = _record_entries(svg_fields)
        self._svg_entries_address = _address(self._svg_entries)
        self._svg_words = memoryview(self._svg_entries).cast("Q")
        view_box_only_at, title_at, class_at = (i * _ENTRY_SIZE + _ENTRY_VAL for i in range(len(svg_fields)))
        self._view_box_only_word = _of_word(view_box_only_at, _OF_BOOL)
        self._svg_strings = bytearray(2 * _VAL_SIZE)
        string_words = memoryview(self._svg_strings).cast("Q")
        strings_address = _address(self._svg_strings)
        # title, class: (option word, the string value's size and data words, that value's address).
        self._svg_string_slots: list[tuple[int, int, int, int]] = []
        for i, option_at in enumerate((title_at, class_at)):
            string_words[_kind_word(i * _VAL_SIZE)] = _STRING
            self._svg_string_slots.append((_of_word(option_at, _OF_OPTION), _of_word(i * _VAL_SIZE, _OF_SIZE),
                                           _of_word(i * _VAL_SIZE, _OF_DATA), strings_address + i * _VAL_SIZE))
        self._svg_string_words = string_words
        self._svg_buffers: list[ctypes.Array[ctypes.c_char]] = []
        self._svg_written: SvgOptions | None = None  # the options in the entries now (None: all defaults)
        name_refs = [(len(n), ctypes.addressof(n)) for n in self._names[len(named):]]
        self._ec_names, self._style_names = name_refs[:len(EC_LEVELS)], name_refs[len(EC_LEVELS):]
        # A binary payload (list<u8>) as C values: one per byte, the U8 kind
        # written once here, each call writing only its bytes (a stride
        # assignment, see _set_payload_and_options).
        self._payload_elements = bytearray(MAX_TEXT_BYTES * _VAL_SIZE)
        self._payload_elements[_VAL_KIND::_VAL_SIZE] = bytes((_U8,)) * MAX_TEXT_BYTES
        # The arguments themselves: [text: string | data: list<u8>, options:
        # record, a third], one array for the text calls and one for the
        # payload calls (the options entries are the same).
        self._args = bytearray(3 * _VAL_SIZE)
        self._payload_args = bytearray(3 * _VAL_SIZE)
        text_at, options_at, third_at = (i * _VAL_SIZE for i in range(3))
        for args, first_kind, first_data in ((self._args, _STRING, ctypes.addressof(self._text_buffer)),
                                             (self._payload_args, _LIST, _address(self._payload_elements))):
            args_words = memoryview(args).cast("Q")
            args_words[_kind_word(text_at)] = first_kind
            args_words[_of_word(text_at, _OF_DATA)] = first_data
            args_words[_kind_word(options_at)] = _RECORD
            args_words[_of_word(options_at, _OF_SIZE)] = len(fields)
            args_words[_of_word(options_at, _OF_DATA)] = _address(self._entries)
        self._args_words = memoryview(self._args).cast("Q")
        self._payload_args_words = memoryview(self._payload_args).cast("Q")
        self._text_size_word = _of_word(text_at, _OF_SIZE)
        self._third_kind_word = _kind_word(third_at)
        self._times_word = _of_word(third_at, _OF_U32)
        self._style_size_word = _of_word(third_at, _OF_SIZE)
        self._style_data_word = _of_word(third_at, _OF_DATA)
        self._args_ptr = ctypes.cast(_address(self._args), ctypes.POINTER(bindings.wasmtime_component_val_t))
        self._payload_args_ptr = ctypes.cast(_address(self._payload_args),
                                             ctypes.POINTER(bindings.wasmtime_component_val_t))
        # One u32 / one list argument for produce / consume.
        self._single = bytearray(_VAL_SIZE)
        self._single_words = memoryview(self._single).cast("Q")
        self._single_ptr = ctypes.cast(_address(self._single), ctypes.POINTER(bindings.wasmtime_component_val_t))
        self._nonempty = bytearray(_VAL_SIZE)  # a valid, aligned pointer for empty lists
        # The result slot, owned by us after each call.
        self._result = bindings.wasmtime_component_val_t()
        self._result_ref = ctypes.byref(self._result)
        self._result_addr = ctypes.addressof(self._result)

    # -- calling -----------------------------------------------------------

    def _call(self, func: Any, args: Any, nargs: int) -> _Head:
        """Call, returning the result's (kind, w1, w2, w3) and owning it."""
        error = _raw_call(func, self._context, args, nargs, self._result_ref, 1)
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)
        return _VAL_HEAD.unpack(ctypes.string_at(self._result_addr, _VAL_SIZE))

    def _release(self) -> None:
        # Drops the whole result tree (the result's box, the list, the strings).
        _val_delete(self._result_ref)
        ctypes.memset(self._result_addr, 0, _VAL_SIZE)

    def _set_text_and_options(self, data: bytes, options: Options) -> None:
        ctypes.memmove(self._text_buffer, data, len(data))
        self._args_words[self._text_size_word] = len(data)
        self._set_options(options)

    def _set_payload_and_options(self, data: Data, options: Options) -> None:
        # Each byte into its C value's u8 (the kinds are already U8): a
        # bytearray stride assignment, a C loop (4 us for 7 KB; a memoryview
        # strided assignment takes 10 times as long). The caller checked
        # the length (at most MAX_TEXT_BYTES).
        n = len(data)
        self._payload_elements[_VAL_OF:_VAL_OF + n * _VAL_SIZE:_VAL_SIZE] = data
        self._payload_args_words[self._text_size_word] = n
        self._set_options(options)

    def _set_options(self, options: Options) -> None:
        # The same Options object as the last call's (DEFAULT_OPTIONS, for
        # every call that names no option): the entries already hold it.
        if options is self._options_written:
            return
        entry = self._entry_words
        entry[self._ec_name_size_word], entry[self._ec_name_data_word] = self._ec_names[options.ec]
        entry[self._min_size_word] = options.min_size
        entry[self._quiet_zone_word] = options.quiet_zone
        if options.scale is None:
            entry[self._scale_option_word] = 0
        else:
            self._scale_words[_of_word(0, _OF_U32)] = options.scale
            entry[self._scale_option_word] = self._scale_address
        # The colours' eight words are rewritten only when they change (the
        # same colours call after call is the common case: ~1 us a call saved).
        colors = (options.dark, options.light)
        if colors != self._colors_written:
            for words, rgba in ((self._dark_words, options.dark), (self._light_words, options.light)):
                r, g, b, a = self._channel_words
                words[r], words[g], words[b], words[a] = rgba >> 24, rgba >> 16 & 0xFF, rgba >> 8 & 0xFF, rgba & 0xFF
            self._colors_written = colors
        # symbol: none for the common call (no symbol option given), which
        # the entries already say unless the last call gave one.
        symbol = options.symbol
        if symbol is not self._symbol_written:
            self._write_symbol(symbol)
        self._options_written = options

    def _write_symbol(self, symbol: Symbol | None) -> None:
        entry = self._entry_words
        if symbol is None:
            entry[self._symbol_option_word] = 0
        else:
            words, numbers = self._symbol_words, self._symbol_number_words
            words[self._micro_word], words[self._boost_ec_word] = int(symbol.micro), int(symbol.boost_ec)
            words[self._eci_word] = int(symbol.eci)
            for (option_word, value_word, address), value in zip(
                    self._symbol_number_slots, (symbol.version, symbol.min_version, symbol.mask), strict=True):
                if value is None:
                    words[option_word] = 0
                else:
                    numbers[value_word] = value
                    words[option_word] = address
            entry[self._symbol_option_word] = self._symbol_address
        self._symbol_written = symbol

    def _set_svg(self, words: memoryview, svg: SvgOptions | None) -> None:
        """The third argument (in `words`, an arguments array) as the
        svg-options record, its entries rewritten only when they change."""
        words[self._third_kind_word] = _RECORD
        words[self._style_size_word], words[self._style_data_word] = 3, self._svg_entries_address
        if svg == self._svg_written:
            return
        entries, strings = self._svg_words, self._svg_string_words
        buffers = []
        entries[self._view_box_only_word] = int(svg is not None and svg.view_box_only)
        values = (None, None) if svg is None else (svg.title, svg.svg_class)
        for (option_word, size_word, data_word, address), value in zip(self._svg_string_slots, values, strict=True):
            if value is None:
                entries[option_word] = 0
                continue
            utf8 = value.encode("utf-8")
            # At least one byte, so that an empty string's data is a valid pointer.
            buffer = ctypes.create_string_buffer(utf8, max(len(utf8), 1))
            buffers.append(buffer)
            strings[size_word], strings[data_word] = len(utf8), ctypes.addressof(buffer)
            entries[option_word] = address
        self._svg_buffers = buffers
        self._svg_written = svg

    def _result_payload(self, head: _Head) -> tuple[bool, _Head]:
        kind, is_ok, box, _ = head
        if kind != _RESULT:
            raise TypeError(f"expected a result from the guest, got value kind {kind}")
        return bool(is_ok & 0xFF), _VAL_HEAD.unpack(ctypes.string_at(box, _VAL_SIZE))

    @staticmethod
    def _bytes(head: _Head) -> bytes:
        kind, size, data, _ = head
        if kind != _LIST:
            raise TypeError(f"expected list<u8>, got value kind {kind}")
        # Copied out in chunks of _LIFT_CHUNK elements (1 MiB of C values),
        # not in one piece: a 1 MiB list is a 32 MiB C array, and a single
        # 32 MiB copy lies past glibc's largest mmap threshold, so every call
        # would get fresh pages from the kernel (8,192 page faults, about
        # 3 us each on this VM: +22 ns per byte). 1 MiB chunks are reused
        # from malloc's heap after the first call.
        parts = []
        for start in range(0, size, _LIFT_CHUNK):
            count = min(_LIFT_CHUNK, size - start)
            blob = ctypes.string_at(data + start * _VAL_SIZE, count * _VAL_SIZE)
            if blob[_VAL_KIND::_VAL_SIZE] != _U8_KINDS[:count]:
                raise TypeError("list<u8> holds an element that is not a u8")
            parts.append(blob[_VAL_OF::_VAL_SIZE])
        return b"".join(parts)  # returns a lone part as is, without a copy

    @staticmethod
    def _string(head: _Head) -> str:
        kind, size, data, _ = head
        if kind != _STRING:
            raise TypeError(f"expected string, got value kind {kind}")
        return ctypes.string_at(data, size).decode("utf-8") if size else ""

    @classmethod
    def _matrix_record(cls, head: _Head) -> QrMatrix:
        kind, count, entries, _ = head
        if kind != _RECORD or count != 2:
            raise TypeError(f"expected the qr-matrix record, got value kind {kind} with {count} fields")
        # The entries in WIT field order (the signature check fixed it): width, modules.
        blob = ctypes.string_at(entries, 2 * _ENTRY_SIZE)
        width = _lift_u32(_VAL_HEAD.unpack_from(blob, _ENTRY_VAL))
        modules = cls._bytes(_VAL_HEAD.unpack_from(blob, _ENTRY_SIZE + _ENTRY_VAL))
        return QrMatrix(width, modules)

    def _raise_qr_error(self, head: _Head) -> NoReturn:
        kind, tag_size, tag_data, box = head
        if kind != _VARIANT:
            raise TypeError(f"expected the qr-error variant, got value kind {kind}")
        tag = ctypes.string_at(tag_data, tag_size).decode("utf-8")
        message = self._string(_VAL_HEAD.unpack(ctypes.string_at(box, _VAL_SIZE))) if box else None
        raise QrError(tag, message)

    def _text_call(self, func: Any, nargs: int, lift: Callable[[_Head], _R], args: Any = None) -> _R:
        """A generator's call on the text arguments (`args` None) or the payload's."""
        head = self._call(func, self._args_ptr if args is None else args, nargs)
        try:
            ok, payload = self._result_payload(head)
            if ok:
                return lift(payload)
            self._raise_qr_error(payload)
        finally:
            self._release()

    # -- the Calls protocol ------------------------------------------------

    def png(self, text: str, data: bytes, options: Options) -> bytes:
        self._set_text_and_options(data, options)
        return self._text_call(self._png, 2, self._bytes)

    def svg(self, text: str, data: bytes, options: Options, svg: SvgOptions | None = None) -> str:
        self._set_text_and_options(data, options)
        self._set_svg(self._args_words, svg)
        return self._text_call(self._svg, 3, self._string)

    def matrix(self, text: str, data: bytes, options: Options) -> QrMatrix:
        self._set_text_and_options(data, options)
        return self._text_call(self._matrix, 2, self._matrix_record)

    def text(self, text: str, data: bytes, options: Options, style: int) -> str:
        self._set_text_and_options(data, options)
        words = self._args_words
        words[self._third_kind_word] = _ENUM
        words[self._style_size_word], words[self._style_data_word] = self._style_names[style]
        return self._text_call(self._text, 3, self._string)

    def png_bytes(self, data: Data, options: Options) -> bytes:
        self._set_payload_and_options(data, options)
        return self._text_call(self._png_bytes, 2, self._bytes, self._payload_args_ptr)

    def svg_bytes(self, data: Data, options: Options, svg: SvgOptions | None = None) -> str:
        self._set_payload_and_options(data, options)
        self._set_svg(self._payload_args_words, svg)
        return self._text_call(self._svg_bytes, 3, self._string, self._payload_args_ptr)

    def matrix_bytes(self, data: Data, options: Options) -> QrMatrix:
        self._set_payload_and_options(data, options)
        return self._text_call(self._matrix_bytes, 2, self._matrix_record, self._payload_args_ptr)

    def text_bytes(self, data: Data, options: Options, style: int) -> str:
        self._set_payload_and_options(data, options)
        words = self._payload_args_words
        words[self._third_kind_word] = _ENUM
        words[self._style_size_word], words[self._style_data_word] = self._style_names[style]
        return self._text_call(self._text_bytes, 3, self._string, self._payload_args_ptr)

    def png_repeat(self, text: str, data: bytes, options: Options, times: int) -> int:
        self._set_text_and_options(data, options)
        words = self._args_words
        words[self._third_kind_word], words[self._times_word] = _U32, times
        return self._text_call(self._png_repeat, 3, _lift_u32)

    def noop(self) -> None:
        error = _raw_call(self._noop, self._context, None, 0, None, 0)
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)

    def trap(self) -> None:
        error = _raw_call(self._trap, self._context, None, 0, None, 0)
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)

    def memory_pages(self) -> int:
        head = self._call(self._memory_pages, None, 0)
        try:
            return _lift_u32(head)
        finally:
            self._release()

    def consume(self, data: bytes) -> int:
        n = len(data)
        if n:
            elements = bytearray(n * _VAL_SIZE)
            elements[_VAL_KIND::_VAL_SIZE] = bytes((_U8,)) * n
            elements[_VAL_OF::_VAL_SIZE] = data
        else:
            elements = self._nonempty
        words = self._single_words
        words[_kind_word(0)] = _LIST
        words[_of_word(0, _OF_SIZE)], words[_of_word(0, _OF_DATA)] = n, _address(elements)
        head = self._call(self._consume, self._single_ptr, 1)
        try:
            return _lift_u32(head)
        finally:
            self._release()

    def produce(self, length: int) -> bytes:
        words = self._single_words
        words[_kind_word(0)], words[_of_word(0, _OF_U32)] = _U32, length
        head = self._call(self._produce, self._single_ptr, 1)
        try:
            return self._bytes(head)
        finally:
            self._release()


def _record_entries(fields: tuple[tuple[ctypes.Array[ctypes.c_char], int], ...]) -> bytearray:
    """A record's entries (name, value kind), values left zero for the caller
    to point or fill in. Python owns the memory: the callee borrows it."""
    entries = bytearray(len(fields) * _ENTRY_SIZE)
    words = memoryview(entries).cast("Q")
    for i, (name, kind) in enumerate(fields):
        entry_at = i * _ENTRY_SIZE
        words[_word(entry_at + _ENTRY_NAME_SIZE)] = len(name)
        words[_word(entry_at + _ENTRY_NAME_DATA)] = ctypes.addressof(name)
        words[_kind_word(entry_at + _ENTRY_VAL)] = kind
    return entries


def _lift_u32(head: _Head) -> int:
    kind, value, _, _ = head
    if kind != _U32:
        raise TypeError(f"expected u32, got value kind {kind}")
    return value & 0xFFFFFFFF
