"""Writes the toy component's text (README.md): three component exports with
png's argument shapes, each returning a u32 the core computes from every
argument it got.

    python3 experiments/options-flat/gen_toy.py OUT.wat   # then: wasm-tools parse OUT.wat -o toy.wasm
"""

import sys
from pathlib import Path


def u32_params(n: int) -> str:
    return " ".join(f'(param "p{i}" u32)' for i in range(n))


def sum_params(n: int) -> str:
    """The core's sum of its params 1..n-1 (the text's length and every number)."""
    return "local.get 1" + "".join(f" local.get {i} i32.add" for i in range(2, n))


def sum_loads(loads: list[tuple[str, int]]) -> str:
    """The core's sum of every value in the spilled argument area."""
    return "i32.const 0" + "".join(f" local.get 0 {kind} offset={off} i32.add" for kind, off in loads)


# (string, 15 x u32) in memory: pointer at 0, length at 4, the u32s from 8.
SPILL17 = [("i32.load", 4)] + [("i32.load", 8 + 4 * i) for i in range(15)]
# (string, options) in memory: the 72-byte layout wasmtime and jco write for png.
OPTIONS = [("i32.load", 4), ("i32.load8_u", 8), ("i32.load", 12), ("i32.load", 16), ("i32.load8_u", 20),
           ("i32.load", 24)]
OPTIONS += [("i32.load8_u", o) for o in range(28, 36)]
OPTIONS += [("i32.load8_u", 36), ("i32.load8_u", 40), ("i32.load8_u", 44), ("i32.load", 48), ("i32.load8_u", 52),
            ("i32.load", 56), ("i32.load8_u", 60), ("i32.load", 64), ("i32.load8_u", 68), ("i32.load8_u", 69)]
# wit/qr.wit's `options` with tuples for its records and a u8 for its enum: the
# same flat values (23) and memory layout, and no named types to export.
OPTIONS_TYPE = ("(tuple u8 u32 u32 (option u32) (tuple u8 u8 u8 u8) (tuple u8 u8 u8 u8) "
                "(option (tuple bool (option u32) (option u32) (option u32) bool bool)))")


def lift(name: str) -> str:
    return (f'(canon lift (core func $i "{name}") (memory (core memory $i "memory")) '
            f'(realloc (core func $i "cabi_realloc")))')


WAT = f""";; Written by experiments/options-flat/gen_toy.py (README.md there).
(component
  (core module $m
    (memory (export "memory") 1)
    ;; A bump allocator, reset by every export: the argument area and the text.
    (global $bump (mut i32) (i32.const 1024))
    (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32)
      (local $p i32)
      (local.set $p (i32.and (i32.add (global.get $bump) (i32.sub (local.get 2) (i32.const 1)))
                             (i32.sub (i32.const 0) (local.get 2))))
      (global.set $bump (i32.add (local.get $p) (local.get 3)))
      (local.get $p))
    ;; 16 flat values, the most passed as parameters: the text and 14 u32s.
    (func (export "flat16") (param {" ".join(["i32"] * 16)}) (result i32)
      (global.set $bump (i32.const 1024))
      {sum_params(16)})
    ;; 17 flat values: spilled, one pointer to (text, 15 u32s).
    (func (export "spill17") (param i32) (result i32)
      (global.set $bump (i32.const 1024))
      {sum_loads(SPILL17)})
    ;; png's arguments, the text and the options: 25 flat values, spilled.
    (func (export "options") (param i32) (result i32)
      (global.set $bump (i32.const 1024))
      {sum_loads(OPTIONS)})
  )
  (core instance $i (instantiate $m))
  (func (export "flat16") (param "text" string) {u32_params(14)} (result u32)
    {lift("flat16")})
  (func (export "spill17") (param "text" string) {u32_params(15)} (result u32)
    {lift("spill17")})
  (func (export "options") (param "text" string) (param "options" {OPTIONS_TYPE}) (result u32)
    {lift("options")})
)
"""

Path(sys.argv[1]).write_text(WAT)
