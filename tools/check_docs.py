"""Fails when README.md, docs/*.md or a host's README names a file, folder or
recipe that does not exist, or when a README is longer than its guide's limit.

Run by `just lint`. What it checks, in each of those files:
- every relative Markdown link target (`[text](path)`), from the file's folder;
- every `code span` that looks like a repository path (has a `/` or a known
  file suffix, no spaces): from the repository root, or for a bare file name,
  anywhere in the tree; build outputs (`target/...`, generated glue) and
  `../shared` are not in the tree and are skipped;
- every `just RECIPE` (in code spans and code blocks) against `just --summary`;
- the length: README.md under 200 lines, each hosts/*/README.md at most 250
  (a guide; the detail lives in docs/ and the code's comments).
A host README's paths may also be relative to its host folder (`server/`); there
a path is checked when its first folder is the repository's or the host's
(`encoding/json`, a Go package, is neither).
Prints each miss as FILE:LINE: what, and exits 1 if there is any.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOST_READMES = sorted((ROOT / "hosts").glob("*/README.md"))
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *HOST_READMES]
# The most lines each README may have: the root's front page, each host's guide.
MAX_LINES = {ROOT / "README.md": 199, **{readme: 250 for readme in HOST_READMES}}
SUFFIXES = (".rs", ".py", ".js", ".mjs", ".ts", ".md", ".json", ".toml", ".wit", ".sh", ".txt", ".png", ".lock")
# Outputs of the build and places outside the repository.
NOT_IN_TREE = ("target/", "../shared", "node_modules", "hosts/node/gen", "~/", "/tmp", "http://", "https://",
               # Package specifiers and installed paths (`qrglue/native`, `qrglue.png`, `@napi-rs/cli`), MIME
               # types, Go module paths and what a tool writes at run time.
               "qrglue/", "qrglue.", "@", "application/", "site-packages/", "github.com/", ".wash/")

LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
CODE = re.compile(r"`([^`\n]+)`")
JUST = re.compile(r"\bjust ([a-z][a-z0-9-]*)")


def recipes() -> set[str]:
    out = subprocess.run(["just", "--summary"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return set(out.split())


def looks_like_path(span: str) -> bool:
    # Not a path: flags, globs, WIT names (`qrglue:qr/types`), bare suffixes.
    if " " in span or span.startswith(("-", "$")) or any(c in span for c in "*{}=|,'\"()<"):
        return False
    if re.search(r":[A-Za-z]", span) or re.fullmatch(r"(\.\w+)+", span):
        return False
    return "/" in span.strip("/") or span.endswith(SUFFIXES)


def tracked_names() -> set[str]:
    """Base names of the repository's files: a bare `name.ext` must be one of them."""
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return {Path(p).name for p in out.split()}


def normalise(span: str) -> str:
    # `file.py::test`, `file.rs:12` and a trailing `'s` name a file too.
    return re.split(r"::|:\d", span)[0].rstrip(".:")


def check(doc: Path, known_recipes: set[str], names: set[str]) -> list[str]:
    misses = []
    lines = len(doc.read_text().splitlines())
    if doc in MAX_LINES and lines > MAX_LINES[doc]:
        misses.append(f"{doc.relative_to(ROOT)}: {lines} lines, more than {MAX_LINES[doc]}")
    # A host README may name its host's files from its own folder.
    bases = [ROOT, doc.parent] if doc in HOST_READMES else [ROOT]
    in_block = False
    for number, line in enumerate(doc.read_text().splitlines(), 1):
        if line.startswith("```"):
            in_block = not in_block
            continue
        where = f"{doc.relative_to(ROOT)}:{number}"
        spans = [line] if in_block else CODE.findall(line)
        for span in spans:
            for recipe in JUST.findall(span):
                if recipe not in known_recipes:
                    misses.append(f"{where}: no recipe `just {recipe}`")
        if in_block:
            continue
        for target in LINK.findall(line):
            if not target.startswith(("http://", "https://", "mailto:")) and not (doc.parent / target).exists():
                misses.append(f"{where}: link to missing {target}")
        for span in spans:
            if not looks_like_path(span) or span.startswith(NOT_IN_TREE):
                continue
            path = normalise(span)
            if "/" in path.strip("/") and doc in HOST_READMES:
                first = path.strip("/").split("/")[0]
                if not any((base / first).exists() for base in bases):
                    continue
            exists = any((base / path).exists() for base in bases) if "/" in path.strip("/") else path in names
            if not path.startswith(NOT_IN_TREE) and not exists:
                misses.append(f"{where}: no file or folder `{path}`")
    return misses


def main() -> int:
    known, names = recipes(), tracked_names()
    misses = [miss for doc in DOCS for miss in check(doc, known, names)]
    # A merge's leftovers (docs/python.md.orig was committed once): never tracked.
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    misses += [f"{p}: a merge leftover is tracked" for p in tracked if p.endswith((".orig", ".rej", ".BACKUP", ".LOCAL"))]
    for miss in misses:
        print(miss)
    print(f"docs: {len(DOCS)} files checked, {len(misses)} missing names")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
