"""Regenerates tests/vectors/cases.json: the conformance corpus every path runs.

Run: python3 tests/vectors/make_cases.py  (then bless expected.json from the
core: QRGLUE_BLESS=1 cargo test --release -p qrglue-core --test golden).
Existing case ids must keep their text and options: the golden digests are the
project's contract, and the bless step must only ever add entries.

Case forms (every runner understands all four):
- {"id", "text", "options"}: a JSON string; it may hold a lone surrogate
  ("\\ud800"), which no host may replace: the answer is invalid-text;
- {"id", "text_repeat": {"unit", "count"}, "options"}: `unit` repeated
  `count` times, for texts too large to store (1 MB, 50 MB);
- {"id", "data_hex", "options"}: a binary payload (lower-case hex, two
  digits a byte, "" for none) for the `*-bytes` generators (Node: a
  Uint8Array; Python: bytes; Rust: `png_bytes` and so on);
- "options" uses WIT names; a missing option takes the host default
  (ec-level low, min-size 200, quiet-zone 4, no scale, dark #000000ff, light
  #ffffffff, micro false, no version, min-version or mask, boost-ec false,
  eci false);
  colours are CSS hex strings, as hosts take them; the symbol options sit
  beside the others under their WIT names, as hosts take them (not nested),
  and so do the SVG options (`view-box-only`, `title`, `class`: the SVG
  calls' own argument; only the SVG digest depends on them). A title with a
  lone surrogate is each host's own test (a Rust string cannot hold one).
"""

import json
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
D = {"ec-level": "low", "min-size": 200, "quiet-zone": 4}
LEVELS = ["low", "medium", "quartile", "high"]
REFS = [
    "https://github.com/pretzelhammer/rust-blog",
    "https://www.reddit.com/r/rustjerk/top/?t=all",
    "https://youtu.be/cE0wfjsybIQ?t=74",
    "https://www.reddit.com/r/rust/top/?t=month",
    "https://devswag.com/products/rust-ferris",
    "https://www.youtube.com/watch?v=TGfQu0bQTKc",
    "https://tourofrust.com",
    "https://github.com/rust-lang/rustlings",
    "https://exercism.org/tracks/rust",
    "https://en.wikipedia.org/wiki/Carcinisation",
]
# Version-40 capacities (ISO/IEC 18004 table 7), per mode and EC level.
CAPACITY = {
    "numeric": {"low": 7089, "medium": 5596, "quartile": 3993, "high": 3057},
    "alphanumeric": {"low": 4296, "medium": 3391, "quartile": 2420, "high": 1852},
    "byte": {"low": 2953, "medium": 2331, "quartile": 1663, "high": 1273},
}
FILL = {"numeric": "8", "alphanumeric": "Q", "byte": "q"}
ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:"


def case(cases, id, text=None, repeat=None, data=None, **options):
    entry = {"id": id}
    if repeat is not None:
        entry["text_repeat"] = {"unit": repeat[0], "count": repeat[1]}
    elif data is not None:
        entry["data_hex"] = data.hex()
    else:
        entry["text"] = text
    entry["options"] = {**D, **{k.replace("_", "-"): v for k, v in options.items()}}
    cases.append(entry)


def build():
    cases = []
    # The first 30 cases are the original golden set: ids, texts and options
    # are frozen.
    for i, text in enumerate(REFS, 1):
        case(cases, f"ref-{i:02d}", REFS[i - 1])
    for ec in LEVELS[1:]:
        case(cases, f"ref-02-ec-{ec}", REFS[1], ec_level=ec)
    cases.append({"id": "ref-02-defaults", "text": REFS[1], "options": {}})
    case(cases, "numeric", "31415926535897932384626433832795028841971693993751")
    case(cases, "alphanumeric", "HELLO WORLD $%*+-./: 0123456789")
    case(cases, "utf8-cjk-emoji", "二维码 🦀 Grüße")
    case(cases, "min-size-1", "hello", min_size=1)
    case(cases, "min-size-4096", "hello", min_size=4096)
    case(cases, "quiet-zone-0", "hello", quiet_zone=0)
    case(cases, "quiet-zone-16", "hello", quiet_zone=16)
    case(cases, "max-numeric-low", "7" * 7089)
    case(cases, "max-bytes-low", "é" * 1476 + "a")
    case(cases, "err-empty", "")
    case(cases, "err-too-long-bytes", "a" * 2954)
    case(cases, "err-too-long-numeric", "7" * 7090)
    case(cases, "err-min-size-0", "hello", min_size=0)
    case(cases, "err-min-size-4097", "hello", min_size=4097)
    case(cases, "err-quiet-zone-17", "hello", quiet_zone=17)
    case(cases, "err-empty-and-bad-options", "", min_size=0)

    # Every reference URL at every EC level (mode switches inside URLs).
    for i, text in enumerate(REFS, 1):
        for ec in LEVELS[1:]:
            case(cases, f"ref-{i:02d}-{ec}", text, ec_level=ec)

    # Exactly at the capacity of each mode and EC level, and one past it.
    for mode, per_level in CAPACITY.items():
        for ec, cap in per_level.items():
            case(cases, f"capacity-{mode}-{ec}", FILL[mode] * cap, ec_level=ec)
            case(cases, f"capacity-{mode}-{ec}-plus-1", FILL[mode] * (cap + 1), ec_level=ec)

    # Modes and mode switches.
    case(cases, "numeric-1", "0")
    case(cases, "numeric-leading-zeros", "000000000000")
    case(cases, "alphanumeric-only", "QRGLUE: $10 + 5% / 2 * 3 - 1.")
    case(cases, "mixed-modes", "ABC123def456GHI789:/$ !@#")
    case(cases, "mixed-numeric-run-in-bytes", "order #0123456789012345678901234567890 shipped")
    case(cases, "lowercase-url", "http://example.com/a/b?c=d&e=f#g")
    case(cases, "one-char", "a")
    case(cases, "space", " ")

    # Unicode: the host must carry every scalar value unchanged.
    unicode = {
        "cjk": "统一码联盟 日本語テキスト 한국어 텍스트",
        "emoji": "🦀🚀✨👩‍👩‍👧‍👦🏳️‍🌈",
        "combining-marks": "e\u0301 a\u0308 n\u0303 Z\u0351\u0358\u0362",
        "rtl-hebrew": "שלום עולם",
        "rtl-arabic": "مرحبا بالعالم",
        "bidi-mixed": "abc \u202eXYZ\u202c def",
        "nul": "before\u0000after",
        "only-nul": "\u0000",
        "control-chars": "\u0001\u0002\t\n\r\u001b[0m\u007f",
        "bom": "\ufeffbom first",
        "noncharacter": "\ufffe\uffff\U0010ffff",
        "replacement-char": "\ufffd already replaced",
        "supplementary-planes": "𝕳𝖊𝖑𝖑𝖔 𓀀 🀄",
        "latin1": "Grüße aus Köln, ça va?",
        "zero-width": "zero\u200bwidth\u200djoiner",
        "line-separators": "a\u2028b\u2029c\u0085d",
    }
    for name, text in unicode.items():
        case(cases, f"unicode-{name}", text)
    case(cases, "unicode-emoji-high", unicode["emoji"], ec_level="high")

    # Lone surrogates: no host may replace them (invalid-text on every path).
    surrogates = {
        "lead-alone": "\ud800",
        "trail-alone": "\udc00",
        "lead-in-text": "abc\ud800def",
        "trail-at-end": "abc\udfff",
        "reversed-pair": "\udc00\ud800",
        "lead-before-valid-pair": "\ud83d\ud83e\udd80",
    }
    for name, text in surrogates.items():
        case(cases, f"surrogate-{name}", text)
    case(cases, "surrogate-with-bad-options", "\ud800", min_size=0)
    case(cases, "surrogate-valid-pair", "\ud83e\udd80")  # 🦀 as a pair: valid

    # Everyday text in many scripts: each must read back as itself in a QR
    # reader. Until the core stopped using Kanji mode, the first five (and
    # unicode-supplementary-planes) were encoded as Shift-JIS Kanji and read
    # back as mojibake on every path; their bytes decoded fine all along.
    scripts = {
        "zh-sentence": "中华人民共和国万岁，二维码生成器测试文本",
        "ja-sentence": "日本語のテキストです",
        "ja-kanji": "漢字です。日本語",
        "ja-kana": "ひらがなとカタカナ、そして漢字。",
        "ja-quotes": "「引用」と『二重引用』",
        "zh-traditional": "繁體中文：歡迎使用二維碼產生器！",
        "ko-sentence": "안녕하세요, 큐알 코드 생성기입니다",
        "ja-url": "https://example.jp/検索?q=東京タワー&lang=ja",
        "ru-sentence": "Съешь же ещё этих мягких французских булок",
        "el-sentence": "Καλημέρα κόσμε, αυτό είναι ένα τεστ",
        "th-sentence": "สวัสดีครับ นี่คือการทดสอบ",
        "hi-sentence": "नमस्ते दुनिया, यह एक परीक्षण है",
        "ar-digits": "الطلب رقم 12345 جاهز",
        "mixed-many": "Tokyo 東京 Seoul 서울 Москва 2026 ✓",
    }
    for name, text in scripts.items():
        case(cases, f"script-{name}", text)
    for ec in LEVELS[1:]:
        case(cases, f"script-zh-sentence-{ec}", scripts["zh-sentence"], ec_level=ec)

    # Every option at and past its bounds, with EC levels.
    for ec in LEVELS:
        case(cases, f"opt-min-size-1-{ec}", "bounds", min_size=1, ec_level=ec)
        case(cases, f"opt-min-size-4096-{ec}", "bounds", min_size=4096, ec_level=ec)
        case(cases, f"opt-quiet-zone-0-{ec}", "bounds", quiet_zone=0, ec_level=ec)
        case(cases, f"opt-quiet-zone-16-{ec}", "bounds", quiet_zone=16, ec_level=ec)
    for min_size in (2, 21, 29, 199, 201, 222, 1000, 4095):
        case(cases, f"opt-min-size-{min_size}", REFS[1], min_size=min_size)
    for quiet_zone in (1, 2, 3, 5, 15):
        case(cases, f"opt-quiet-zone-{quiet_zone}", REFS[1], quiet_zone=quiet_zone)
    case(cases, "opt-largest-image", "7" * 7089, min_size=4096, quiet_zone=16)
    for min_size in (0, 4097, 65536, 4294967295):
        case(cases, f"err-min-size-{min_size}-b", "bounds", min_size=min_size)
    for quiet_zone in (17, 100, 4294967295):
        case(cases, f"err-quiet-zone-{quiet_zone}-b", "bounds", quiet_zone=quiet_zone)
    case(cases, "err-both-options", "bounds", min_size=0, quiet_zone=17)
    case(cases, "err-too-long-and-bad-options", "a" * 3000, min_size=0)

    # Empty text, whatever the options.
    for ec in LEVELS:
        case(cases, f"err-empty-{ec}", "", ec_level=ec)

    # Very long texts: rejected by length, without growing guest memory.
    case(cases, "huge-7090-bytes", repeat=("x", 7090))
    case(cases, "huge-1mb", repeat=("a", 1_000_000))
    case(cases, "huge-1mb-multibyte", repeat=("é", 500_000))
    case(cases, "huge-50mb", repeat=("z", 50_000_000))
    case(cases, "huge-1mb-with-surrogate", repeat=("\ud800", 1_000_000))

    # Seeded random texts across modes and levels.
    rng = random.Random(20261122)
    pools = {
        "digits": "0123456789",
        "alnum": ALNUM,
        "ascii": "".join(chr(c) for c in range(32, 127)),
        "unicode": "aé€😀中\u0301\u05d0\u0000\n ",
    }
    for i in range(40):
        pool_name = list(pools)[i % len(pools)]
        pool = pools[pool_name]
        ec = LEVELS[(i // 4) % 4]
        length = rng.choice([1, 2, 5, 17, 50, 120, 300, 700])
        text = "".join(rng.choice(pool) for _ in range(length))
        case(cases, f"random-{i:02d}-{pool_name}-{ec}", text, ec_level=ec,
             min_size=rng.choice([1, 50, 200, 333, 1024]), quiet_zone=rng.choice([0, 1, 4, 16]))

    # Contract 0.2.0's rendering options: scale (pixels per module, 1..=20,
    # sizes the image instead of min-size) and the two colours (CSS hex as the
    # hosts take them; black on opaque white is the default's bytes).
    url = REFS[1]
    case(cases, "opt-scale-1", url, scale=1)
    case(cases, "opt-scale-7-quiet-2", url, scale=7, quiet_zone=2)
    case(cases, "opt-scale-3-ignores-min-size", url, scale=3, min_size=4096)
    case(cases, "opt-scale-20-v40-quiet-16", repeat=("9", 7089), scale=20, quiet_zone=16)
    case(cases, "opt-scale-0", url, scale=0)
    case(cases, "opt-scale-21", url, scale=21)
    case(cases, "opt-scale-u32-max", url, scale=4294967295)
    case(cases, "opt-scale-0-after-min-size-0", url, scale=0, min_size=0)
    case(cases, "opt-scale-0-after-empty-text", "", scale=0)
    case(cases, "opt-dark-red", url, dark="#cc0000")
    case(cases, "opt-light-transparent", url, light="#ffffff00")
    case(cases, "opt-both-translucent", url, dark="#00008080", light="#ffff0040")
    case(cases, "opt-short-hex", url, dark="#0a0", light="#FFFA")
    case(cases, "opt-black-on-white-spelled-out", url, dark="#000000FF", light="#fff")
    case(cases, "opt-light-on-dark", url, dark="#ffffff", light="#000000", ec_level="high")
    case(cases, "opt-colors-and-scale-cjk", "漢字とかな、二维码", scale=5, dark="#336699", light="#eeeeee", quiet_zone=1)
    case(cases, "opt-same-colors", url, dark="#123456", light="#123456ff")
    case(cases, "opt-same-transparent", url, dark="#0000", light="#00000000")
    case(cases, "opt-same-colors-after-scale", url, dark="#fff", light="#fff", scale=99)
    case(cases, "opt-same-colors-after-too-long", repeat=("x", 7090), dark="#fff", light="#fff")

    # Contract 0.2.0's symbol options: micro, version, min-version, mask,
    # boost-ec (booleans and integers under their WIT names), at and past
    # their bounds, and each error against the fields checked before it.
    short = "HELLO 2026"
    for version in [1, 2, 9, 10, 26, 27, 40]:
        case(cases, f"sym-version-{version}", url if version >= 3 else short, version=version)
    case(cases, "sym-version-too-small", url, version=2)
    case(cases, "sym-version-0", url, version=0)
    case(cases, "sym-version-41", url, version=41)
    case(cases, "sym-version-u32-max", url, version=4294967295)
    case(cases, "sym-min-version-1-is-today", url, min_version=1)
    case(cases, "sym-min-version-7", url, min_version=7)
    case(cases, "sym-min-version-40-high", url, min_version=40, ec_level="high")
    case(cases, "sym-min-version-41", url, min_version=41)
    case(cases, "sym-version-and-min-version", url, version=5, min_version=5)
    case(cases, "sym-version-conflict-after-bad-version", url, version=50, min_version=5)
    for mask in range(8):
        case(cases, f"sym-mask-{mask}", url, mask=mask)
    case(cases, "sym-mask-8", url, mask=8)
    case(cases, "sym-mask-after-quiet-zone", url, mask=99, quiet_zone=99)
    case(cases, "sym-mask-after-same-colors", url, mask=99, dark="#fff", light="#fff")
    case(cases, "sym-mask-after-empty-text", "", mask=99)
    case(cases, "sym-boost-ec-to-high", "hello", boost_ec=True)
    case(cases, "sym-boost-ec-stays-low", url, boost_ec=True)
    case(cases, "sym-boost-ec-to-medium", url[:36], boost_ec=True)
    case(cases, "sym-boost-ec-fixed-version-10", url, boost_ec=True, version=10)
    case(cases, "sym-boost-ec-already-high", url, boost_ec=True, ec_level="high")
    case(cases, "sym-all-at-once", "漢字とかな、二维码", version=6, mask=5, boost_ec=True, scale=4, dark="#336699")
    # Micro QR: M1 numeric at low only, M2 alphanumeric, M3/M4 bytes, no high.
    case(cases, "sym-micro-m1-numeric", "12345", micro=True)
    case(cases, "sym-micro-m2-alnum", "AB-12", micro=True)
    case(cases, "sym-micro-m3-bytes", "hello", micro=True)
    case(cases, "sym-micro-m4-bytes-cjk", "漢字漢", micro=True, ec_level="medium")
    case(cases, "sym-micro-m4-quartile", "12345", micro=True, ec_level="quartile")
    case(cases, "sym-micro-too-long", url, micro=True)
    case(cases, "sym-micro-high", "12345", micro=True, ec_level="high")
    case(cases, "sym-micro-high-after-mask", "12345", micro=True, ec_level="high", mask=4)
    case(cases, "sym-micro-version-4-mask-3", "micro", micro=True, version=4, mask=3, scale=8)
    case(cases, "sym-micro-version-5", "12345", micro=True, version=5)
    case(cases, "sym-micro-min-version-3", "12345", micro=True, min_version=3)
    case(cases, "sym-micro-m2-no-bytes", "ab", micro=True, version=2)
    case(cases, "sym-micro-m1-no-medium", "12345", micro=True, version=1, ec_level="medium")
    for mask in range(4):
        case(cases, f"sym-micro-mask-{mask}", "01234567", micro=True, mask=mask, quiet_zone=2)
    case(cases, "sym-micro-boost-ec", "123", micro=True, boost_ec=True, version=3)
    case(cases, "sym-micro-transparent", "MICRO", micro=True, dark="#1a1a1a", light="#ffffff00", scale=10)
    # Data that reaches into M3's final 4-bit codeword (stock qrcode's
    # padding underflows there), at both M3 levels.
    case(cases, "sym-micro-m3-medium-data-in-half-codeword", "1234abcd", micro=True, ec_level="medium")
    case(cases, "sym-micro-m3-low-data-in-half-codeword", "1234abcdef", micro=True)
    # ECI designator 26 (UTF-8) before the data (segno's eci=True): 12 bits
    # more, so 17 byte-mode bytes fit version 1-L without it (148 of 152 bits)
    # and need version 2 with it (160); 16 fit version 1 either way.
    case(cases, "eci-ref-02", url, eci=True)
    case(cases, "eci-cjk", "漢字です 二维码 한국어", eci=True)
    case(cases, "eci-emoji", "QR 👍🦀✨ émoji", eci=True)
    case(cases, "eci-bytes-payload", data="naïve café".encode() + b"\x00\xff", eci=True)
    case(cases, "eci-capacity-17-bytes-v1-without", "abcdefghijklmnopq")
    case(cases, "eci-capacity-17-bytes-v2-with", "abcdefghijklmnopq", eci=True)
    case(cases, "eci-capacity-16-bytes-v1-with", "abcdefghijklmnop", eci=True)
    case(cases, "eci-capacity-17-bytes-version-1-too-long", "abcdefghijklmnopq", eci=True, version=1)
    case(cases, "eci-version-5-mask-2", "Grüße aus Köln", eci=True, version=5, mask=2)
    for level in LEVELS:
        case(cases, f"eci-level-{level}", "ÅÄÖ åäö €", eci=True, ec_level=level)
    case(cases, "eci-boost-ec", "hello", eci=True, boost_ec=True)
    case(cases, "eci-micro", "12345", eci=True, micro=True)
    case(cases, "eci-micro-high-first", "12345", eci=True, micro=True, ec_level="high")
    case(cases, "eci-micro-bad-mask-first", "12345", eci=True, micro=True, mask=4)
    # Binary payloads (the *-bytes generators): any bytes, read back as they are.
    case(cases, "bytes-utf8-is-the-text", data=REFS[1].encode())  # ref-02's digests
    case(cases, "bytes-utf8-cjk-is-the-text", data="漢字です".encode())
    case(cases, "bytes-all-256", data=bytes(range(256)))
    case(cases, "bytes-not-utf8", data=b"\xff\xfe\x00\x01\x80 qrglue")
    case(cases, "bytes-nul", data=b"\x00")
    case(cases, "bytes-wtf8-lone-surrogate", data=b"\xed\xa0\x80")  # invalid-text as a text
    case(cases, "bytes-bom-only", data=b"\xef\xbb\xbf")
    case(cases, "bytes-png-signature", data=b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    case(cases, "bytes-gzip-header", data=bytes.fromhex("1f8b0800000000000003"), ec_level="high")
    case(cases, "bytes-numeric-run", data=b"\xff" + b"0123456789" * 3 + b"\xfe")
    case(cases, "bytes-alphanumeric-run", data=b"\x01HELLO WORLD 2026\x02", ec_level="quartile")
    case(cases, "bytes-sjis-kanji-pairs", data="漢字".encode("shift_jis") * 4)  # never declared Kanji
    case(cases, "bytes-random-512", data=random.Random(24).randbytes(512), ec_level="medium")
    case(cases, "bytes-byte-mode-capacity-low", data=b"\xff" * CAPACITY["byte"]["low"])
    case(cases, "bytes-byte-mode-over-capacity-low", data=b"\xff" * (CAPACITY["byte"]["low"] + 1))
    case(cases, "bytes-byte-mode-capacity-high", data=b"\x80" * CAPACITY["byte"]["high"], ec_level="high")
    case(cases, "bytes-over-max-length", data=b"\x00" * 7090)
    case(cases, "bytes-empty", data=b"")
    case(cases, "bytes-empty-before-bad-options", data=b"", min_size=0)
    case(cases, "bytes-bad-min-size", data=b"\xff", min_size=0)
    case(cases, "bytes-same-colours", data=b"\xff", dark="#000", light="#000000")
    case(cases, "bytes-styled", data=bytes(range(32)), scale=6, dark="#0b3d91", light="#ffffff00", quiet_zone=1)
    case(cases, "bytes-version-10-mask-5", data=b"\xc0\xff\xee", version=10, mask=5)
    case(cases, "bytes-version-1-too-long", data=b"\xff" * 18, version=1)
    case(cases, "bytes-min-version-5-boost-ec", data=b"\x00\x01\x02", min_version=5, boost_ec=True)
    case(cases, "bytes-micro-m3", data=b"\x01\x02", micro=True)
    case(cases, "bytes-micro-m4-mask-2", data=b"\xde\xad\xbe\xef", micro=True, mask=2)
    case(cases, "bytes-micro-m2-has-no-byte-mode", data=b"\xff", micro=True, version=2)
    # SVG options (only the SVG digest depends on them; the other outputs
    # are the plain case's). Their own refusals (a title XML cannot carry, a
    # bad class) fail the SVG calls alone, which a corpus outcome (every
    # output, or one error for all) cannot say: each host tests them against
    # the contract's messages. A bad option or text before them fails all.
    case(cases, "svg-view-box-only", REFS[1], view_box_only=True)
    case(cases, "svg-title", REFS[1], title="Rust memes, top of all time")
    case(cases, "svg-class", REFS[1], **{"class": "qr qr-large"})
    case(cases, "svg-all", "漢字です", view_box_only=True, title="漢字 & <kana>", **{"class": "qr_ja"}, scale=3,
         dark="#0b3d91", light="#ffffff00")
    case(cases, "svg-title-markup-stays-text", "hi", title='</title><script>alert("x")</script>\r\n\t\'')
    case(cases, "svg-title-empty", "hi", title="")
    case(cases, "svg-title-1024-bytes", "hi", title="\u00e9" * 512)
    case(cases, "svg-class-256-bytes", "hi", **{"class": "c" * 256})
    case(cases, "svg-bad-options-first", "hi", min_size=0, title="\u0000", **{"class": ""})
    case(cases, "svg-empty-text-first", "", title="\u0000")
    case(cases, "svg-bytes-payload", data=b"\xff\x00 svg", view_box_only=True, title="payload", **{"class": "bin"})
    return cases


def main():
    cases = build()
    # Cases that `just fuzz` found and appended stay (after the generated ones).
    old = HERE / "cases.json"
    if old.exists():
        cases += [c for c in json.loads(old.read_text())["cases"] if c["id"].startswith("fuzz-")]
    ids = [c["id"] for c in cases]
    assert len(ids) == len(set(ids)), "duplicate case ids"
    doc = {
        "comment": "Conformance cases (generated by make_cases.py; ids are stable). Every path renders each text with these options; expected.json holds the sha256 of PNG and SVG, or the error kind. 'text' may hold lone surrogates (invalid-text on every path); 'text_repeat' is unit * count; 'data_hex' a binary payload for the *-bytes generators; options use WIT names and a missing option takes the host default (ec-level low, min-size 200, quiet-zone 4).",
        "cases": cases,
    }
    # ensure_ascii: lone surrogates must be written as \\udXXX escapes (they
    # are not UTF-8); every other character is escaped too, for one form.
    (HERE / "cases.json").write_text(json.dumps(doc, indent=1, ensure_ascii=True) + "\n")
    print(f"{len(cases)} cases")


if __name__ == "__main__":
    main()
