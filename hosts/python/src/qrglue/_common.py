"""What both paths share: the error type, input checks and defaults.

The checks here run before any byte enters the guest, in the contract's order
(wit/qr.wit, `qr-error`): invalid-text, empty-text, data-too-long,
invalid-options. The guest checks option *ranges* itself; the host only
rejects what it cannot pass across the boundary at all (wrong types, values
outside u32), so both paths report exactly what the guest reports.
"""

from __future__ import annotations

from typing import Optional, Tuple

ERROR_KINDS = ("empty-text", "invalid-text", "data-too-long", "invalid-options")

# WIT enum `ec-level` in declaration order; the raw ABI passes the index.
EC_LEVELS = ("low", "medium", "quartile", "high")

DEFAULT_EC_LEVEL = "low"
DEFAULT_MIN_SIZE = 200
DEFAULT_QUIET_ZONE = 4

# No QR code holds more than 7089 bytes (numeric mode, version 40-L); longer
# texts are rejected here so the guest never has to copy them.
MAX_TEXT_BYTES = 7089

_U32_MAX = 2**32 - 1


class QrError(ValueError):
    """No code was produced. `kind` is one of `ERROR_KINDS`."""

    def __init__(self, kind: str, message: Optional[str] = None) -> None:
        if kind not in ERROR_KINDS:
            raise ValueError(f"unknown qr error kind {kind!r}")
        self.kind = kind
        self.message = message
        super().__init__(f"{kind}: {message}" if message else kind)


class GuestTrap(RuntimeError):
    """The guest trapped (a wasm `unreachable` or similar). The generator has
    already replaced its poisoned Store and instance: the next call works."""


Checked = Tuple[bytes, int, int, int]


def check_input(text: object, ec_level: object, min_size: object, quiet_zone: object) -> Checked:
    """Encode `text` and check the options; returns (utf8, ec_index, min_size, quiet_zone).

    Raises QrError in the contract's order. An empty text with options that
    cannot even be passed is `empty-text` (it comes first); an empty text with
    passable options still goes to the guest, which answers `empty-text`.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, not {type(text).__name__}")
    try:
        # 'strict': a lone surrogate must not be replaced (DESIGN.md, "Host API").
        data = text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise QrError("invalid-text", f"not encodable as UTF-8: {e.reason} at index {e.start}") from None
    if len(data) > MAX_TEXT_BYTES:
        raise QrError("data-too-long", f"{len(data)} UTF-8 bytes; no QR code holds more than {MAX_TEXT_BYTES}")
    problem = _options_problem(ec_level, min_size, quiet_zone)
    if problem is not None:
        if not data:
            raise QrError("empty-text")
        raise QrError("invalid-options", problem)
    return data, EC_LEVELS.index(ec_level), min_size, quiet_zone  # type: ignore[arg-type,return-value]


def _options_problem(ec_level: object, min_size: object, quiet_zone: object) -> Optional[str]:
    if not isinstance(ec_level, str) or ec_level not in EC_LEVELS:
        return f"ec_level must be one of {', '.join(EC_LEVELS)}, not {ec_level!r}"
    for name, value in (("min_size", min_size), ("quiet_zone", quiet_zone)):
        # bool is an int subclass; True as a size is a bug, not a 1.
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _U32_MAX:
            return f"{name} must be an int in 0..={_U32_MAX}, not {value!r}"
    return None
