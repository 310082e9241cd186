"""Reading and identifying documents: doc_id, format, sha256, strict UTF-8."""

from __future__ import annotations

import fnmatch
import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: File endings the parser understands, mapped to a format name.
FORMATS: dict[str, str] = {
    ".tex": "tex",
    ".md": "md",
    ".markdown": "md",
    ".txt": "txt",
}

DOC_ID_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,199}$")


class DocumentError(Exception):
    """A document that cannot be read; names the file."""

    def __init__(self, path: Path | str, message: str):
        self.path = str(path)
        super().__init__(f"{path}: {message}")


class DocumentDecodeError(DocumentError):
    """The file is not valid UTF-8; ``byte_offset`` is the first bad byte."""

    def __init__(self, path: Path | str, byte_offset: int, reason: str):
        self.byte_offset = byte_offset
        super().__init__(path, f"not valid UTF-8 at byte offset {byte_offset} ({reason})")


@dataclass(frozen=True, slots=True)
class Document:
    doc_id: str
    path: str
    format: str
    sha256: str
    text: str

    @property
    def n_chars(self) -> int:
        return len(self.text)


def doc_id_for(path: Path | str, corpus_root: Path | str) -> str:
    """Stable, safe partition key from the path relative to the corpus root.

    Lower-cased, accents folded, every run of characters outside
    ``[a-z0-9._-]`` becomes ``_``, path separators become ``__``; no leading
    dots (so ``..`` can never appear as a component). Long ids keep a hash
    suffix so that they stay unique.
    """
    rel = Path(path).resolve().relative_to(Path(corpus_root).resolve())
    parts = []
    for part in rel.parts:
        norm = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii").lower()
        norm = re.sub(r"[^a-z0-9._-]+", "_", norm)
        norm = re.sub(r"\.{2,}", ".", norm).strip("._") or "_"
        parts.append(norm)
    doc_id = "__".join(parts).lstrip("._-") or "doc"
    if len(doc_id) > 120:
        digest = hashlib.sha256(str(rel).encode("utf-8", "surrogatepass")).hexdigest()[:12]
        doc_id = doc_id[:100].rstrip("._-") + "-" + digest
    return doc_id


def is_safe_doc_id(doc_id: str) -> bool:
    """True when ``doc_id`` can be used as a partition key and a file name."""
    return bool(DOC_ID_RE.match(doc_id)) and ".." not in doc_id


def decode_strict(data: bytes, path: Path | str = "<bytes>") -> str:
    """Strict UTF-8 decode (a leading BOM is kept as text: it is part of the bytes)."""
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as exc:
        raise DocumentDecodeError(path, exc.start, exc.reason) from None


def format_of(path: Path | str) -> str:
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise DocumentError(path, f"unsupported format {suffix!r} (expected one of {sorted(FORMATS)})")
    return FORMATS[suffix]


def read_document(path: Path | str, corpus_root: Path | str) -> Document:
    """Read one document; errors name the file (relative to the corpus root).

    Raises DocumentDecodeError with the first bad byte offset for invalid UTF-8.
    """
    p = Path(path)
    rel = p.resolve().relative_to(Path(corpus_root).resolve()).as_posix()
    fmt = format_of(rel)
    data = p.read_bytes()
    text = decode_strict(data, rel)
    return Document(
        doc_id=doc_id_for(p, corpus_root),
        path=rel,
        format=fmt,
        sha256=hashlib.sha256(data).hexdigest(),
        text=text,
    )


IGNORE_FILE = ".textguardignore"


def ignore_patterns(corpus_root: Path | str) -> list[str]:
    """Glob patterns (relative to the root) from ``<root>/.textguardignore``."""
    f = Path(corpus_root) / IGNORE_FILE
    if not f.is_file():
        return []
    lines = f.read_text(encoding="utf-8").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]


def discover_documents(corpus_root: Path | str) -> dict[str, Path]:
    """doc_id → path for every supported file under ``corpus_root``.

    Hidden files, unsupported endings (sidecars such as ``*.sources.json``)
    and paths matching a pattern of ``.textguardignore`` are skipped. Two
    paths that map to one doc_id raise, never overwrite.
    """
    root = Path(corpus_root)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus directory not found: {root}")
    ignored = ignore_patterns(root)
    found: dict[str, Path] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if any(part.startswith(".") for part in rel.parts) or not p.is_file():
            continue
        if p.suffix.lower() not in FORMATS:
            continue
        if any(fnmatch.fnmatch(rel.as_posix(), pat) for pat in ignored):
            continue
        doc_id = doc_id_for(p, root)
        if doc_id in found:
            raise DocumentError(p, f"doc_id {doc_id!r} collides with {found[doc_id]}; rename one of them")
        found[doc_id] = p
    return found


def file_sha256(path: Path | str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
