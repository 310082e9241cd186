"""Reading and identifying documents: the corpus scan, doc_id, format, sha256, strict UTF-8.

The scan never drops a file it cannot use: a file whose name is not UTF-8, a
symlink leading outside the corpus (or nowhere), something that is not a
regular file, and both files of a doc_id collision become entries with a
``problem``, which ``source_documents`` turns into a flagged row (status="error").
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import stat
import threading
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

#: File endings the parser understands, mapped to a format name.
FORMATS: dict[str, str] = {
    ".tex": "tex",
    ".md": "md",
    ".markdown": "md",
    ".txt": "txt",
    ".rst": "txt",  # reStructuredText (READMEs, Sphinx sources): plain text whose code the meanings pass blanks
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
    return _doc_id_of_parts(relative_path(path, corpus_root).parts)


def _norm_part(part: str) -> str:
    norm = unicodedata.normalize("NFKD", part).encode("ascii", "ignore").decode("ascii").lower()
    norm = _UNSAFE_RUN.sub("_", norm)
    return _DOT_RUN.sub(".", norm).strip("._") or "_"


_UNSAFE_RUN = re.compile(r"[^a-z0-9._-]+")
_DOT_RUN = re.compile(r"\.{2,}")


def _doc_id_of_parts(parts: tuple[str, ...]) -> str:
    """:func:`doc_id_for` of a path given as its parts relative to the corpus root."""
    doc_id = "__".join(map(_norm_part, parts)).lstrip("._-") or "doc"
    if len(doc_id) > 120:
        digest = hashlib.sha256(str(Path(*parts)).encode("utf-8", "surrogatepass")).hexdigest()[:12]
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


def too_large(size: int, max_bytes: int) -> str:
    """The problem of a document over the per-document size limit (names the limit and its variable)."""
    return (
        f"{size:,} bytes is over the per-document limit of {max_bytes:,} bytes "
        "(TEXTGUARD_MAX_DOCUMENT_BYTES); split the file or raise the limit"
    )


def read_document(path: Path | str, corpus_root: Path | str, max_bytes: int | None = None) -> Document:
    """Read one document; errors name the file (relative to the corpus root).

    Raises DocumentDecodeError with the first bad byte offset for invalid UTF-8, and DocumentError
    when the file is larger than ``max_bytes`` (None: no limit) — checked before it is read.
    """
    p = Path(path)
    rel = display_path(relative_path(p, corpus_root))
    fmt = format_of(rel)
    problem = path_problem(p, corpus_root)
    if problem is not None:
        raise DocumentError(rel, problem)
    try:
        if max_bytes is not None and (size := p.stat().st_size) > max_bytes:
            raise DocumentError(rel, too_large(size, max_bytes))
        with open(p, "rb") as fh:  # at most one byte past the limit: a file growing meanwhile is caught too
            data = fh.read() if max_bytes is None else fh.read(max_bytes + 1)
    except OSError as exc:  # permission denied, I/O error, vanished meanwhile: a flagged row, not a crash
        raise DocumentError(rel, f"cannot be read: {exc.strerror or exc}") from None
    if max_bytes is not None and len(data) > max_bytes:
        raise DocumentError(rel, too_large(p.stat().st_size, max_bytes))
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
    return _read_ignore_file(Path(corpus_root) / IGNORE_FILE)[0]


def _read_ignore_file(f: Path) -> tuple[list[str], str | None]:
    """The patterns of the ignore file ``f`` and what is wrong with it (None: nothing).

    Bytes that are not UTF-8 are read as ``\\xNN``, the way :func:`display_path` shows such bytes in file
    names, so every other line still applies; the problem becomes a flagged row naming the file, and the
    scan goes on (one bad file must not stop the report, prune or the sensor).
    """
    try:
        if not f.is_file():
            return [], None
        data = f.read_bytes()
    except OSError as exc:
        return [], f"cannot be read: {exc.strerror or exc}; nothing is ignored until it can be"
    problem = None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", "backslashreplace")
        problem = (
            f"not valid UTF-8 at byte offset {exc.start} ({exc.reason}); its bytes were read as \\xNN: save it as UTF-8"
        )
    lines = text.splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.lstrip().startswith("#")], problem


@dataclass(frozen=True, slots=True)
class CorpusEntry:
    """One file of the corpus scan; ``problem`` says why it cannot become a document (None: fine)."""

    doc_id: str
    path: Path
    rel: str
    problem: str | None = None


def relative_path(path: Path | str, corpus_root: Path | str) -> Path:
    """``path`` relative to the corpus root, without following symlinks (a link is named by its own path)."""
    p, root = Path(os.path.abspath(path)), Path(os.path.abspath(corpus_root))
    try:
        return p.relative_to(root)
    except ValueError:  # e.g. the root was given through a symlink and the path resolved
        return Path(path).resolve().relative_to(Path(corpus_root).resolve())


def display_path(rel: Path | str) -> str:
    """The relative path as text that can be stored and printed: bytes that are not UTF-8 become ``\\xNN``."""
    return os.fsencode(Path(rel).as_posix()).decode("utf-8", "backslashreplace")


def path_problem(path: Path | str, corpus_root: Path | str) -> str | None:
    """Why ``path`` cannot be read as a document, judged without opening it; None when it can be tried."""
    p = Path(path)
    rel = relative_path(p, corpus_root)
    if display_path(rel) != rel.as_posix():  # undecodable bytes are surrogate escapes in ``rel``
        return f"file name is not valid UTF-8 ({display_path(rel)!r}); rename the file"
    if p.is_symlink():
        target = os.readlink(p)
        try:
            resolved = p.resolve()
        except (OSError, RuntimeError):  # a loop of links: pathlib raises RuntimeError, the OS ELOOP
            return f"symlink loop (to {display_path(target)!r}); not read"
        root = Path(corpus_root).resolve()
        if resolved != root and root not in resolved.parents:
            return f"symlink to {display_path(target)!r} points outside the corpus; copy the file in instead"
        if not resolved.exists():
            return f"dangling symlink (to {display_path(target)!r})"
    try:
        mode = p.stat().st_mode
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        return f"{kind}, not a regular file; not read"
    return None


def _walk_entries(directory: str, parts: tuple[str, ...], plain_dir: bool):
    """(parts, path, plain, Path, doc_id) of every non-hidden entry with a supported ending under
    ``directory``, in the order of ``os.walk`` (a directory's files and links sorted, then its
    subdirectories, sorted); links are listed, never entered. ``plain``: a regular file, not a link, whose
    path is UTF-8 — known from the directory listing alone, without a stat or resolve() per file (minutes
    for 100,000 documents); its Path and doc_id come with it (None for the others).
    """
    listing = _listing(directory, parts, plain_dir)
    if listing is None:  # unreadable or vanished directory: skipped, as os.walk does
        return
    files, subdirs = listing
    yield from files
    for path, name in subdirs:
        yield from _walk_entries(path, (*parts, name), plain_dir and _utf8(name))


#: directory listings of this process, by (path, parts, plain) → (stamp, files, subdirs); see _listing
_LISTINGS: dict[tuple, tuple[tuple[int, int, int], list, list]] = {}
_LISTED_MAX = 500_000  # entries remembered per process (≈ 300 bytes each)
_listed = 0
_listings_lock = threading.Lock()


def _listing(directory: str, parts: tuple[str, ...], plain_dir: bool) -> tuple[list, list] | None:
    """One directory's entries, listed again only when the directory changed.

    A directory's mtime changes whenever an entry is added, removed, renamed or replaced (a file turned
    into a FIFO or a link is a new entry), so an unchanged (device, inode, mtime) means the same names
    and kinds: a corpus sensor ticking over 100,000 unchanged documents lists nothing again. What a
    link points to is judged afresh every scan (links are never "plain"). A directory changed within
    the last two seconds is not remembered (the next change could share its timestamp).
    """
    global _listed
    try:
        st = os.stat(directory)  # before listing: a change while listing leaves a stamp that no longer matches
    except OSError:
        return None
    stamp = (st.st_dev, st.st_ino, st.st_mtime_ns)
    key = (directory, parts, plain_dir)
    hit = _LISTINGS.get(key)
    if hit is not None and hit[0] == stamp:
        return hit[1], hit[2]
    try:
        with os.scandir(directory) as listing:
            entries = [e for e in listing if not e.name.startswith(".")]
    except OSError:
        return None
    subdirs, others = [], []
    for e in entries:
        try:
            real_dir = not e.is_symlink() and e.is_dir()
        except OSError:
            real_dir = False
        (subdirs if real_dir else others).append(e)
    files = []
    for e in sorted(others, key=lambda e: e.name):
        if os.path.splitext(e.name)[1].lower() not in FORMATS:
            continue
        try:
            plain = plain_dir and _utf8(e.name) and not e.is_symlink() and e.is_file(follow_symlinks=False)
        except OSError:
            plain = False
        rel = (*parts, e.name)
        files.append(
            (rel, e.path, plain, Path(e.path), _doc_id_of_parts(rel)) if plain else (rel, e.path, False, None, None)
        )
    dirs = [(e.path, e.name) for e in sorted(subdirs, key=lambda e: e.name)]
    if time.time_ns() - st.st_mtime_ns > 2_000_000_000:
        with _listings_lock:
            if _listed + len(files) > _LISTED_MAX:
                _LISTINGS.clear()
                _listed = 0
            _LISTINGS[key] = (stamp, files, dirs)
            _listed += len(files)
    return files, dirs


def _utf8(name: str) -> bool:
    """True when a file name's bytes were valid UTF-8 (undecodable bytes are lone surrogates in ``name``)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _collision_id(doc_id: str, rel: str) -> str:
    digest = hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:8]
    return f"{doc_id[:110]}-{digest}"


def scan_corpus(corpus_root: Path | str) -> dict[str, CorpusEntry]:
    """doc_id → entry for every supported file under ``corpus_root``, problems included.

    Hidden files, unsupported endings (sidecars such as ``*.sources.json``) and
    paths matching ``.textguardignore`` are skipped. When several paths map to
    one doc_id, each gets its own id (``<doc_id>-<hash of its path>``) and a
    problem naming the others: both are flagged, the rest of the corpus goes on.
    """
    root = Path(corpus_root)
    if not root.is_dir():
        raise FileNotFoundError(f"corpus directory not found: {root}")
    ignored, ignore_problem = _read_ignore_file(root / IGNORE_FILE)
    by_id: dict[str, list[CorpusEntry]] = {}
    if ignore_problem is not None:
        by_id[_doc_id_of_parts((IGNORE_FILE,))] = [
            CorpusEntry(_doc_id_of_parts((IGNORE_FILE,)), root / IGNORE_FILE, IGNORE_FILE, ignore_problem)
        ]
    for parts, path, plain, p, doc_id in _walk_entries(os.fspath(root), (), True):
        p = p or Path(path)
        shown = "/".join(parts) if plain else display_path(p.relative_to(root))
        if ignored and any(fnmatch.fnmatch(shown, pat) for pat in ignored):
            continue
        if plain:  # a regular file with a UTF-8 path, not a link: the listing already says what path_problem would
            entry = CorpusEntry(doc_id, p, shown, None)
        else:
            entry = CorpusEntry(doc_id_for(p, root), p, shown, path_problem(p, root))
        by_id.setdefault(entry.doc_id, []).append(entry)
    out: dict[str, CorpusEntry] = {}
    for doc_id, entries in by_id.items():
        if len(entries) == 1:
            out[doc_id] = entries[0]
            continue
        for e in entries:
            others = ", ".join(repr(o.rel) for o in entries if o is not e)
            problem = f"doc_id {doc_id!r} is shared with {others}; rename one of them"
            new_id = _collision_id(doc_id, e.rel)
            out[new_id] = CorpusEntry(new_id, e.path, e.rel, problem)
    return dict(sorted(out.items()))


def discover_documents(corpus_root: Path | str) -> dict[str, Path]:
    """doc_id → path for every entry of :func:`scan_corpus`, flagged ones included (they become error rows)."""
    return {doc_id: e.path for doc_id, e in scan_corpus(corpus_root).items()}


def content_version(entry: CorpusEntry) -> str:
    """The sha256 of a readable entry's bytes, else a version derived from its problem (never blocks on a FIFO)."""
    problem = entry.problem
    if problem is None:
        try:
            return file_sha256(entry.path)
        except OSError as exc:
            problem = f"cannot be read: {exc.strerror or exc}"
    return "error:" + hashlib.sha256(problem.encode("utf-8", "backslashreplace")).hexdigest()[:16]


def file_sha256(path: Path | str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
