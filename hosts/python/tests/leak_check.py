"""Run N component calls that return a `result` (an error, a u32, a record
holding a list, a string; one of them with a list<u8> argument) and print
the RSS growth after warm-up as JSON.
Run in a fresh interpreter by test_fastglue.py so nothing else in the
process moves RSS. Usage: leak_check.py fast|stock CALLS"""

import json
import os
import sys

import qrglue


def rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def main() -> None:
    glue, calls = sys.argv[1], int(sys.argv[2])
    gen = qrglue.Generator(glue=glue)

    def result_calls() -> None:
        try:  # result::err(empty-text): the variant case without payload
            gen.png("")
            raise AssertionError("expected empty-text")
        except qrglue.QrError as e:
            assert e.kind == "empty-text"
        assert gen.png_repeat("x", 0) == 0  # result::ok(u32), no rendering
        assert gen.matrix("x").width == 21  # result::ok(record{u32, list<u8>})
        assert gen.text("x", style="ascii", quiet_zone=0).count("\n") == 21  # result::ok(string)
        assert gen.matrix(b"\xff").width == 21  # a list<u8> argument (matrix-bytes)

    for _ in range(2500):  # warm-up: allocator pools, caches
        result_calls()
    before = rss_bytes()
    for _ in range(calls // 5):
        result_calls()
    after = rss_bytes()
    print(json.dumps({"glue": glue, "calls": calls, "rss_before": before, "rss_after": after,
                      "growth_ratio": (after - before) / before}))


if __name__ == "__main__":
    main()
