"""WordNet that works offline: find, convert or install a `wn` lexicon.

Order followed by :func:`install_wordnet` (issue 6):

1. a lexicon already in the `wn` database (``--lexicon SPEC`` picks one);
2. a WN-LMF file given with ``--from`` (a directory given with ``--from`` is
   read as WNDB);
3. a WNDB directory (Princeton format: ``data.noun``, ``index.noun`` ...;
   Debian's ``wordnet-base`` puts it in ``/usr/share/wordnet``) converted to
   WN-LMF by :func:`convert_wndb` and added with ``wn.add``;
4. ``wn.download`` of the newest ``oewn`` in wn's index (or ``--lexicon``);
5. the small lexicon shipped in ``data/wordnet/`` (limited coverage: warned).

Quirks of wn 1.1 handled here (see ARCHITECTURE.md §10): its LMF reader wants
the exact XML declaration and DOCTYPE lines and fails with a generic message,
so files are pre-checked; an offline ``wn.download`` fails fast but leaves an
empty database behind, which is removed; an empty lexicon answers ``[]``
silently, so every installed lexicon is counted and probed.

No dagster imports: this module is used by the CLI, the assets and notebooks.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from textguard_pipeline.settings import PROJECT_ROOT

#: Lexicon shipped with the project (used when nothing better is available).
MINI_LEXICON_PATH = PROJECT_ROOT / "data" / "wordnet" / "wn30-mini.xml"
MINI_VERSION_SUFFIX = "-mini"
#: Records which lexicon ``install`` chose, so ``open_wordnet`` uses the same one.
MARKER_FILE = "textguard-wordnet.json"

LMF_XMLDECL = '<?xml version="1.0" encoding="UTF-8"?>'
LMF_DOCTYPE = '<!DOCTYPE LexicalResource SYSTEM "http://globalwordnet.github.io/schemas/WN-LMF-1.4.dtd">'
LMF_DC_NS = "https://globalwordnet.github.io/schemas/dc/"

WORDNET_LICENSE_URL = "https://wordnet.princeton.edu/license-and-commercial-use"
WORDNET_NOTICE = """\
WordNet Release 3.0. This software and database is being provided to you, the LICENSEE,
by Princeton University under the following license. By obtaining, using and/or copying
this software and database, you agree that you have read, understood, and will comply
with these terms and conditions.: Permission to use, copy, modify and distribute this
software and database and its documentation for any purpose and without fee or royalty
is hereby granted, provided that you agree to comply with the following copyright notice
and statements, including the disclaimer, and that the same appear on ALL copies of the
software, database and documentation, including modifications that you make for
internal use or for distribution. WordNet 3.0 Copyright 2006 by Princeton University.
All rights reserved. THIS SOFTWARE AND DATABASE IS PROVIDED "AS IS" AND PRINCETON
UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES, EXPRESS OR IMPLIED. BY WAY OF
EXAMPLE, BUT NOT LIMITATION, PRINCETON UNIVERSITY MAKES NO REPRESENTATIONS OR WARRANTIES
OF MERCHANT- ABILITY OR FITNESS FOR ANY PARTICULAR PURPOSE OR THAT THE USE OF THE
LICENSED SOFTWARE, DATABASE OR DOCUMENTATION WILL NOT INFRINGE ANY THIRD PARTY PATENTS,
COPYRIGHTS, TRADEMARKS OR OTHER RIGHTS. The name of Princeton University or Princeton
may not be used in advertising or publicity pertaining to distribution of the software
and/or database. Title to copyright in this software, database and any associated
documentation shall at all times remain with Princeton University and LICENSEE agrees
to preserve same."""

Log = Callable[[str], None]


class WordNetError(RuntimeError):
    """Installing or opening a lexicon failed; the message says what to do."""


class WordNetNotInstalled(WordNetError):
    pass


@dataclass(frozen=True)
class WordNetInfo:
    """What is installed: the lexicon spec is ``lexicon_id:version``."""

    lexicon_id: str
    version: str
    source: str
    synsets: int
    senses: int
    words: int
    warning: str | None = None

    @property
    def spec(self) -> str:
        return f"{self.lexicon_id}:{self.version}"

    @property
    def is_mini(self) -> bool:
        return self.version.endswith(MINI_VERSION_SUFFIX)

    def summary(self) -> str:
        text = (f"WordNet lexicon {self.spec} from {self.source}: {self.synsets} synsets, "
                f"{self.senses} senses, {self.words} words")
        return text + (f"\nWARNING: {self.warning}" if self.warning else "")


# --------------------------------------------------------------------------- wn data directory


def wn_data_dir() -> Path:
    """The wn data directory (``$TEXTGUARD_WN_DATA``, default ``data/wn_data``), set in wn's config."""
    import wn

    path = Path(os.environ.get("TEXTGUARD_WN_DATA") or PROJECT_ROOT / "data" / "wn_data").expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    if Path(wn.config.data_directory).resolve() != path:
        wn.config.data_directory = path
    # Dagster may call from a worker thread; the connection is only read after install.
    wn.config.allow_multithreading = True
    return path


def _db_path() -> Path:
    import wn

    wn_data_dir()
    return Path(wn.config.database_path)


def _close_pool() -> None:
    """Drop wn's cached sqlite connection (before deleting or swapping a database)."""
    from wn import _db

    for key in list(_db.pool):
        _db.pool.pop(key).close()
    open_wordnet.cache_clear()


def _installed_specs() -> list[tuple[str, str]]:
    """(id, version) of every lexicon in the database, without creating one."""
    db = _db_path()
    if not db.is_file():
        return []
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
            return [(i, v) for i, v in conn.execute("SELECT id, version FROM lexicons ORDER BY rowid")]
    except sqlite3.Error:
        return []


def _counts(lexicon_id: str, version: str) -> tuple[int, int, int]:
    """(synsets, senses, words) of one lexicon, straight from wn's sqlite (fast)."""
    db = _db_path()
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        row = conn.execute("SELECT rowid FROM lexicons WHERE id = ? AND version = ?", (lexicon_id, version)).fetchone()
        if row is None:
            return (0, 0, 0)
        counts = [conn.execute(f"SELECT COUNT(*) FROM {table} WHERE lexicon_rowid = ?", (row[0],)).fetchone()[0]
                  for table in ("synsets", "senses", "entries")]
    return counts[0], counts[1], counts[2]


def _read_marker() -> dict:
    path = wn_data_dir() / MARKER_FILE
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_marker(info: WordNetInfo) -> None:
    path = wn_data_dir() / MARKER_FILE
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(info), indent=2), encoding="utf-8")
    tmp.replace(path)


def _is_mini(version: str) -> bool:
    return version.endswith(MINI_VERSION_SUFFIX)


def _version_key(version: str) -> tuple:
    """Sort key: numbers numerically, a trailing '+' after the plain release."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in re.findall(r"\d+|\D+", version))


def _rank(spec: tuple[str, str]) -> tuple:
    lex_id, version = spec
    # Full lexicons beat the shipped mini one; OEWN beats Princeton 3.x; newer beats older.
    return (not _is_mini(version), lex_id == "oewn", bool(re.fullmatch(r"wn3\d", lex_id)), _version_key(version))


def _parse_spec(spec: str) -> tuple[str, str | None]:
    lex_id, _, version = spec.partition(":")
    return lex_id, (version or None)


def _match_installed(spec: str, installed: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    lex_id, version = _parse_spec(spec)
    hits = [s for s in installed if s[0] == lex_id and (version in (None, "*") or s[1] == version)]
    return max(hits, key=_rank) if hits else None


def _info_for(spec: tuple[str, str], source: str, warning: str | None = None) -> WordNetInfo:
    synsets, senses, words = _counts(*spec)
    if warning is None and _is_mini(spec[1]):
        warning = mini_warning()
    return WordNetInfo(spec[0], spec[1], source, synsets, senses, words, warning)


def mini_warning() -> str:
    return ("only the small WordNet lexicon shipped in data/wordnet is installed: coverage is limited "
            "to a few hundred words of the sample-corpus topics. Install the full one with "
            "`apt-get install wordnet-base && textguard wordnet install`, or "
            "`textguard wordnet install --lexicon oewn:2024` when online.")


# --------------------------------------------------------------------------- status / open


def wordnet_status() -> WordNetInfo | None:
    """The lexicon :func:`open_wordnet` would use, with its counts; None if nothing usable is installed."""
    installed = _installed_specs()
    if not installed:
        return None
    chosen = _choose(installed)
    if chosen is None:
        return None
    marker = _read_marker()
    same = marker.get("lexicon_id") == chosen[0] and marker.get("version") == chosen[1]
    info = _info_for(chosen, marker.get("source", "installed") if same else "installed",
                     marker.get("warning") if same else None)
    if info.synsets == 0:
        return WordNetInfo(info.lexicon_id, info.version, info.source, 0, 0, 0,
                           f"lexicon {info.spec} is empty (every lookup would answer []): "
                           "run `textguard wordnet install` again")
    return info


def _choose(installed: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    wanted = os.environ.get("TEXTGUARD_WN_LEXICON")
    if wanted:
        hit = _match_installed(wanted, installed)
        if hit is None:
            raise WordNetNotInstalled(
                f"TEXTGUARD_WN_LEXICON={wanted!r} is not installed in {wn_data_dir()}: "
                f"run `textguard wordnet install --lexicon {wanted}`")
        return hit
    marker = _read_marker()
    mspec = (marker.get("lexicon_id"), marker.get("version"))
    if mspec in installed:
        return mspec  # type: ignore[return-value]
    return max(installed, key=_rank) if installed else None


def _cache_key() -> tuple[str, str]:
    return (str(wn_data_dir()), os.environ.get("TEXTGUARD_WN_LEXICON", ""))


def open_wordnet():
    """The chosen lexicon as a ``wn.Wordnet`` with Morphy lemmatisation (cached per data dir).

    Raises :class:`WordNetNotInstalled` (telling to run ``textguard wordnet install``)
    when no usable lexicon is installed.
    """
    return _open(*_cache_key())


@lru_cache(maxsize=8)
def _open(data_dir: str, _wanted: str):
    import wn
    from wn.morphy import Morphy

    info = wordnet_status()
    if info is None:
        raise WordNetNotInstalled(
            f"no WordNet lexicon is installed in {data_dir}: run `textguard wordnet install` "
            "(uses /usr/share/wordnet from the `wordnet-base` package if present, "
            "else a download, else the small shipped lexicon)")
    if info.synsets == 0:
        raise WordNetNotInstalled(f"{info.warning}")
    # Morphy() without a wordnet proposes candidate lemmas; wn keeps those that exist.
    return wn.Wordnet(info.spec, lemmatizer=Morphy())


open_wordnet.cache_clear = _open.cache_clear  # type: ignore[attr-defined]


# --------------------------------------------------------------------------- install


def install_wordnet(
    lexicon: str | None = None,
    from_path: str | None = None,
    wndb_dirs: Iterable[str] = ("/usr/share/wordnet",),
    allow_download: bool = True,
    log: Log = print,
) -> WordNetInfo:
    """Make a usable lexicon available (see the module docstring for the order).

    Idempotent: when a full lexicon is already installed this only counts it
    (well under a second). ``allow_download`` is also switched off by
    ``TEXTGUARD_WN_DOWNLOAD=0``.
    """
    import wn  # noqa: F401  (fail early with a clear ImportError)

    lexicon = lexicon or os.environ.get("TEXTGUARD_WN_LEXICON") or None
    wn_data_dir()
    _drop_empty_lexicons(log)
    installed = _installed_specs()
    problems: list[str] = []

    # 1. already installed
    if lexicon:
        hit = _match_installed(lexicon, installed)
        if hit:
            return _finish(hit, "installed", log)
    elif from_path is None:
        full = [s for s in installed if not _is_mini(s[1])]
        if full:
            hit = _choose(full) if _choose(installed) in full else max(full, key=_rank)
            return _finish(hit, "installed", log)

    # 2. --from: a WN-LMF file, or a WNDB directory
    if from_path:
        path = Path(from_path).expanduser()
        if path.is_dir():
            return _finish(_install_wndb(path, log), f"wndb:{path}", log)
        if not path.is_file():
            raise WordNetError(f"--from {from_path}: no such file or directory")
        return _finish(_add_lmf(path, log), f"lmf:{path}", log)

    # --lexicon SPEC that is not installed: the user asked for that one, so try it first.
    downloads = os.environ.get("TEXTGUARD_WN_DOWNLOAD", "1") not in ("0", "false", "no")
    allow_download = allow_download and downloads
    if lexicon and allow_download:
        try:
            return _finish(_download(lexicon, log), f"download:{lexicon}", log)
        except WordNetError as exc:
            problems.append(str(exc))
            log(f"wordnet: {exc}")

    # 3. a WNDB directory
    for d in wndb_dirs:
        if find_wndb(d):
            try:
                return _finish(_install_wndb(Path(d), log), f"wndb:{d}", log, _fallback_note(lexicon, problems))
            except WordNetError as exc:
                problems.append(str(exc))
                log(f"wordnet: {exc}")

    # 4. download the newest OEWN
    if allow_download and not lexicon:
        try:
            spec = newest_oewn_spec()
            return _finish(_download(spec, log), f"download:{spec}", log)
        except WordNetError as exc:
            problems.append(str(exc))
            log(f"wordnet: {exc}")
    elif not allow_download:
        problems.append("download disabled")

    # 5. the shipped mini lexicon (or keep it if it is already there)
    mini = [s for s in _installed_specs() if _is_mini(s[1])]
    if mini:
        spec = max(mini, key=_rank)
    else:
        spec = _add_lmf(MINI_LEXICON_PATH, log)
    warning = mini_warning()
    if problems:
        warning += " (tried: " + "; ".join(problems) + ")"
    if lexicon:
        warning = f"requested lexicon {lexicon!r} could not be installed; " + warning
    return _finish(spec, f"shipped:{MINI_LEXICON_PATH.name}", log, warning=warning)


def _finish(spec: tuple[str, str], source: str, log: Log, warning: str | None = None) -> WordNetInfo:
    info = _info_for(spec, source, warning)
    if info.synsets == 0:
        raise WordNetError(f"lexicon {info.spec} is empty after installation (every lookup would answer [])")
    if source == "installed":
        marker = _read_marker()
        if marker.get("lexicon_id") == spec[0] and marker.get("version") == spec[1]:
            info = WordNetInfo(**{**asdict(info), "source": marker.get("source", source),
                                  "warning": marker.get("warning")})
    _write_marker(info)
    if not info.is_mini:
        _remove_mini(log)
    _close_pool()
    log(info.summary())
    return info


def _fallback_note(lexicon: str | None, problems: Sequence[str]) -> str | None:
    if lexicon and problems:
        return f"requested lexicon {lexicon!r} could not be installed ({'; '.join(problems)}); using another one"
    return None


def _remove_mini(log: Log) -> None:
    import wn

    for spec in _installed_specs():
        if _is_mini(spec[1]):
            wn.remove(f"{spec[0]}:{spec[1]}", progress_handler=None)
            log(f"wordnet: removed the small lexicon {spec[0]}:{spec[1]} (a full one is installed)")


def _drop_empty_lexicons(log: Log) -> None:
    """Remove lexicons with no synsets and an empty database file left by a failed download."""
    import wn

    db = _db_path()
    if not db.is_file():
        return
    installed = _installed_specs()
    for spec in installed:
        if _counts(*spec)[0] == 0:
            wn.remove(f"{spec[0]}:{spec[1]}", progress_handler=None)
            log(f"wordnet: removed empty lexicon {spec[0]}:{spec[1]}")
    if not _installed_specs():
        _close_pool()
        db.unlink(missing_ok=True)


def check_lmf_header(path: Path) -> None:
    """wn only says 'not a valid package' for a bad header: say what is wrong."""
    import gzip

    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rb") as fh:
            decl = fh.readline().rstrip().replace(b"'", b'"').decode("utf-8", "replace")
            doctype = fh.readline().rstrip().replace(b"'", b'"').decode("utf-8", "replace")
    except OSError as exc:
        raise WordNetError(f"{path}: cannot read ({exc})") from exc
    if decl != LMF_XMLDECL:
        raise WordNetError(f"{path}: first line must be exactly {LMF_XMLDECL!r} for wn, found {decl[:80]!r}")
    if not re.fullmatch(r'<!DOCTYPE LexicalResource SYSTEM "https?://globalwordnet\.github\.io/schemas/'
                        r'WN-LMF-1\.[0-4]\.dtd">', doctype):
        raise WordNetError(f"{path}: second line must be a WN-LMF DOCTYPE such as {LMF_DOCTYPE!r}, "
                           f"found {doctype[:80]!r}")


def _add_lmf(path: Path, log: Log) -> tuple[str, str]:
    """wn.add a WN-LMF file; returns the (id, version) it added (or that was already there)."""
    import wn
    from wn import lmf

    if path.suffix != ".gz":
        check_lmf_header(path)
    try:
        scanned = lmf.scan_lexicons(path) if path.suffix != ".gz" else []
    except Exception:  # noqa: BLE001 - a scan failure is reported by wn.add below
        scanned = []
    before = set(_installed_specs())
    t0 = time.perf_counter()
    try:
        wn.add(path, progress_handler=None)
    except Exception as exc:  # noqa: BLE001 - wn raises several types, all mean "not added"
        raise WordNetError(f"wn could not add {path}: {type(exc).__name__}: {exc}") from exc
    after = _installed_specs()
    new = [s for s in after if s not in before]
    if not new:
        new = [(i["id"], i["version"]) for i in scanned if (i["id"], i["version"]) in after]
    if not new:
        raise WordNetError(f"{path}: wn added no lexicon (is it a WN-LMF file with a <Lexicon>?)")
    spec = new[0]
    if _counts(*spec)[0] == 0:
        wn.remove(f"{spec[0]}:{spec[1]}", progress_handler=None)
        raise WordNetError(f"{path}: lexicon {spec[0]}:{spec[1]} has no synsets (removed again)")
    log(f"wordnet: added {spec[0]}:{spec[1]} from {path} in {time.perf_counter() - t0:.1f}s")
    return spec


def newest_oewn_spec() -> str:
    import wn

    versions = wn.config.index.get("oewn", {}).get("versions", {})
    usable = [v for v, meta in versions.items() if not meta.get("error") and meta.get("resource_urls", True)]
    if not usable:
        raise WordNetError("wn's index lists no downloadable oewn version")
    return f"oewn:{max(usable, key=_version_key)}"


def _download(spec: str, log: Log) -> tuple[str, str]:
    import wn

    before = set(_installed_specs())
    log(f"wordnet: trying wn.download({spec!r}) ...")
    t0 = time.perf_counter()
    try:
        wn.download(spec, progress_handler=None)
    except Exception as exc:  # noqa: BLE001 - network, HTTP, format: all mean "not installed"
        _drop_empty_lexicons(lambda _m: None)
        _clean_downloads()
        cause = exc.__cause__ or exc
        raise WordNetError(f"download of {spec} failed after {time.perf_counter() - t0:.2f}s: "
                           f"{type(cause).__name__}: {cause}") from exc
    new = [s for s in _installed_specs() if s not in before]
    if not new:
        hit = _match_installed(spec, _installed_specs()) if ":" in spec or not spec.startswith("http") else None
        if hit is None:
            _drop_empty_lexicons(lambda _m: None)
            raise WordNetError(f"download of {spec} added no lexicon")
        new = [hit]
    if _counts(*new[0])[0] == 0:
        _drop_empty_lexicons(lambda _m: None)
        _clean_downloads()
        raise WordNetError(f"download of {spec} gave an empty lexicon (removed again)")
    return new[0]


def _clean_downloads() -> None:
    """Remove cached partial downloads so the next attempt starts clean."""
    d = wn_data_dir() / "downloads"
    if d.is_dir():
        for f in d.iterdir():
            if f.is_file():
                f.unlink(missing_ok=True)


def _install_wndb(directory: Path, log: Log) -> tuple[str, str]:
    if not find_wndb(directory):
        raise WordNetError(f"{directory}: not a WNDB directory (needs data.noun/index.noun ...)")
    out = wn_data_dir() / "wndb-converted.xml"
    t0 = time.perf_counter()
    try:
        stats = convert_wndb(directory, out)
        log(f"wordnet: converted WNDB {directory} to WN-LMF in {time.perf_counter() - t0:.1f}s "
            f"({stats.synsets} synsets, {stats.senses} senses, {stats.entries} entries)")
        return _add_lmf(out, log)
    finally:
        out.unlink(missing_ok=True)  # ~50 MB; the database holds everything


# --------------------------------------------------------------------------- WNDB → WN-LMF

WNDB_POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}

# Pointer symbols (wndb(5)) → WN-LMF relation types; keyed by the file's pos where they differ.
_POINTERS = {
    "!": "antonym", "@": "hypernym", "@i": "instance_hypernym", "~": "hyponym", "~i": "instance_hyponym",
    "#m": "holo_member", "#s": "holo_substance", "#p": "holo_part",
    "%m": "mero_member", "%s": "mero_substance", "%p": "mero_part",
    "=": "attribute", "+": "derivation", "*": "entails", ">": "causes", "^": "also", "$": "similar",
    "&": "similar", "<": "participle", "\\": "pertainym",
    ";c": "domain_topic", "-c": "has_domain_topic", ";r": "domain_region", "-r": "has_domain_region",
    ";u": "exemplifies", "-u": "is_exemplified_by",
}


@dataclass(frozen=True)
class ConversionStats:
    lexicon_id: str
    version: str
    synsets: int
    senses: int
    entries: int
    definitions: int
    examples: int
    synset_relations: int
    sense_relations: int
    forms: int


def find_wndb(directory: str | Path) -> bool:
    d = Path(directory)
    return all((d / f"data.{n}").is_file() and (d / f"index.{n}").is_file() for n in WNDB_POS_FILES.values())


def wndb_version(directory: Path) -> str:
    """'3.0' / '3.1' from the licence header of data.noun (defaults to 3.0)."""
    with open(directory / "data.noun", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.startswith("  "):
                break
            m = re.search(r"WordNet (\d+\.\d+)", line)
            if m:
                return m.group(1)
    return "3.0"


_EXAMPLE_SPLIT = re.compile(r'(?:^|;\s*)"')


def split_gloss(gloss: str) -> tuple[str, list[str]]:
    """WNDB gloss 'definition; "example one"; "example two"' → (definition, examples)."""
    gloss = gloss.strip()
    m = _EXAMPLE_SPLIT.search(gloss)
    if not m:
        return gloss.rstrip("; "), []
    definition = gloss[: m.start()].strip().rstrip(";").strip()
    examples = [e.strip() for e in re.findall(r'"([^"]+)"', gloss[m.start():]) if e.strip()]
    return definition, examples


@dataclass
class _Synset:
    offset: str
    pos: str          # ss_type: n v a s r
    lexfile: int
    words: list       # [(lemma_with_underscores, adjposition or None)]
    pointers: list    # [(symbol, target_offset, target_file_pos, src_word, tgt_word)]
    definition: str
    examples: list


def _read_data(path: Path, file_pos: str) -> dict[str, _Synset]:
    synsets: dict[str, _Synset] = {}
    with open(path, encoding="utf-8", errors="strict") as fh:
        for line in fh:
            if line.startswith("  "):
                continue  # licence header
            data, _, gloss = line.partition(" | ")
            f = data.split()
            offset, lexfile, ss_type = f[0], int(f[1]), f[2]
            n_words = int(f[3], 16)
            words = []
            i = 4
            for _ in range(n_words):
                word = f[i]
                adjpos = None
                m = re.fullmatch(r"(.+)\((a|p|ip)\)", word)
                if m:
                    word, adjpos = m.group(1), m.group(2)
                words.append((word, adjpos))
                i += 2
            n_ptrs = int(f[i])
            i += 1
            ptrs = []
            for _ in range(n_ptrs):
                sym, toff, tpos, st = f[i], f[i + 1], f[i + 2], f[i + 3]
                ptrs.append((sym, toff, "a" if tpos == "s" else tpos, int(st[:2], 16), int(st[2:], 16)))
                i += 4
            definition, examples = split_gloss(gloss)
            synsets[offset] = _Synset(offset, ss_type, lexfile, words, ptrs, definition, examples)
    return synsets


def _read_index(path: Path) -> dict[str, list[str]]:
    """lemma (lower case, underscores) → synset offsets in sense-rank order."""
    ranks: dict[str, list[str]] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split()
            n_synsets, n_ptr = int(f[2]), int(f[3])
            ranks[f[0]] = f[4 + n_ptr + 2: 4 + n_ptr + 2 + n_synsets]
    return ranks


def _read_exceptions(directory: Path, name: str) -> dict[str, list[str]]:
    """lemma → irregular inflected forms (from <pos>.exc), e.g. mouse → [mice]."""
    forms: dict[str, list[str]] = {}
    path = directory / f"{name}.exc"
    if path.is_file():
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                f = line.split()
                for lemma in f[1:]:
                    forms.setdefault(lemma, []).append(f[0])
    return forms


def _xml_id(text: str) -> str:
    """A lemma made safe for an XML id (letters, digits, '_', '.', '-'; others hex-escaped)."""
    return re.sub(r"[^A-Za-z0-9_.]", lambda m: f"-{ord(m.group()):x}-", text)


def convert_wndb(
    directory: str | Path,
    out_path: str | Path,
    lexicon_id: str | None = None,
    version: str | None = None,
    keep: Callable[[dict], set] | None = None,
    label: str | None = None,
) -> ConversionStats:
    """Convert a Princeton WNDB directory to a WN-LMF 1.4 file that ``wn.add`` accepts.

    Synset ids are ``<lexicon>-<offset>-<pos>`` (e.g. ``wn30-02084071-n``),
    sense ids ``<synset id>-<word number>``; senses of each entry are written in
    the sense-rank order of the index files; irregular forms from the ``.exc``
    files become ``<Form>`` elements so wn finds "mice" → mouse. ``keep``
    (given every synset keyed ``(file_pos, offset)``) restricts the output to a
    subset, e.g. for the shipped small lexicon; relations to dropped synsets are
    left out. The file is written to a temp name and renamed.
    """
    directory = Path(directory)
    out_path = Path(out_path)
    wnver = wndb_version(directory)
    lexicon_id = lexicon_id or "wn" + wnver.replace(".", "")
    version = version or wnver

    data: dict[tuple[str, str], _Synset] = {}
    ranks: dict[str, dict[str, list[str]]] = {}
    exceptions: dict[str, dict[str, list[str]]] = {}
    for fpos, name in WNDB_POS_FILES.items():
        for off, ss in _read_data(directory / f"data.{name}", fpos).items():
            data[(fpos, off)] = ss
        ranks[fpos] = _read_index(directory / f"index.{name}")
        exceptions[fpos] = _read_exceptions(directory, name)

    kept = set(keep(data)) if keep else set(data)

    def ssid(key: tuple[str, str]) -> str:
        return f"{lexicon_id}-{key[1]}-{data[key].pos}"

    # Entries: one per (written form, ss_type); senses ordered by the index rank.
    entries: dict[tuple[str, str], list[tuple[int, tuple[str, str], int, str | None]]] = {}
    for key in kept:
        ss = data[key]
        for wnum, (word, adjpos) in enumerate(ss.words, 1):
            order = ranks[key[0]].get(word.lower())
            try:
                rank = order.index(key[1]) + 1 if order else 1000 + wnum
            except ValueError:
                rank = 1000 + wnum
            entries.setdefault((word, ss.pos), []).append((rank, key, wnum, adjpos))

    def sense_id(key: tuple[str, str], wnum: int) -> str:
        return f"{ssid(key)}-{wnum:02d}"

    # Lexical pointers become sense relations on the source sense.
    sense_rels: dict[str, list[tuple[str, str]]] = {}
    n_ssrel = n_senserel = n_def = n_ex = n_forms = 0
    tmp = out_path.with_name(out_path.name + ".tmp")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    synset_xml: list[str] = []
    for key in sorted(kept, key=lambda k: (k[0], k[1])):
        ss = data[key]
        rels = []
        for sym, toff, tpos, src, tgt in ss.pointers:
            tkey = (tpos, toff)
            if tkey not in kept or tkey not in data:
                continue
            rel = _POINTERS.get(sym)
            if rel is None:
                continue
            if src == 0 and tgt == 0:
                rels.append(f'<SynsetRelation relType="{rel}" target="{ssid(tkey)}"/>')
            else:
                sense_rels.setdefault(sense_id(key, src), []).append((rel, sense_id(tkey, tgt)))
        parts = [f'<Synset id="{ssid(key)}" ili="" partOfSpeech="{ss.pos}" lexfile="{_LEXFILES[ss.lexfile]}">']
        if ss.definition:
            parts.append(f"<Definition>{escape(ss.definition)}</Definition>")
            n_def += 1
        parts.extend(rels)
        for ex in ss.examples:
            parts.append(f"<Example>{escape(ex)}</Example>")
        n_ex += len(ss.examples)
        n_ssrel += len(rels)
        parts.append("</Synset>")
        synset_xml.append("".join(parts))

    with open(tmp, "w", encoding="utf-8", newline="\n") as out:
        out.write(LMF_XMLDECL + "\n" + LMF_DOCTYPE + "\n")
        out.write("<!--\n" + WORDNET_NOTICE.replace("--", "- -") + "\n-->\n")
        out.write(f'<LexicalResource xmlns:dc="{LMF_DC_NS}">\n')
        out.write(
            f'<Lexicon id={quoteattr(lexicon_id)} label={quoteattr(label or f"Princeton WordNet {wnver} (from WNDB)")}'
            f' language="en" email="wordnet@princeton.edu" license="{WORDNET_LICENSE_URL}"'
            f' version={quoteattr(version)} url="https://wordnet.princeton.edu/">\n')
        n_senses = 0
        for (word, pos), senses in sorted(entries.items()):
            senses.sort()
            form = word.replace("_", " ")
            lines = [f'<LexicalEntry id="{lexicon_id}-{_xml_id(word)}-{pos}">',
                     f"<Lemma writtenForm={quoteattr(form)} partOfSpeech=\"{pos}\"/>"]
            fpos = "a" if pos == "s" else pos
            for irregular in exceptions[fpos].get(word.lower(), ()) if word.islower() else ():
                lines.append(f"<Form writtenForm={quoteattr(irregular.replace('_', ' '))}/>")
                n_forms += 1
            for rank, key, wnum, adjpos in senses:
                sid = sense_id(key, wnum)
                # n = rank of this sense for the lower-cased lemma in the index file, so that
                # case variants ("Key" the poet, "key" the device) interleave in WordNet's order.
                attrs = f' n="{rank}"' + (f' adjposition="{adjpos}"' if adjpos else "")
                rels = sense_rels.get(sid, ())
                if rels:
                    lines.append(f'<Sense id="{sid}" synset="{ssid(key)}"{attrs}>')
                    lines.extend(f'<SenseRelation relType="{r}" target="{t}"/>' for r, t in rels)
                    lines.append("</Sense>")
                    n_senserel += len(rels)
                else:
                    lines.append(f'<Sense id="{sid}" synset="{ssid(key)}"{attrs}/>')
                n_senses += 1
            lines.append("</LexicalEntry>\n")
            out.write("".join(lines))
        out.write("\n".join(synset_xml))
        out.write("\n</Lexicon>\n</LexicalResource>\n")
    tmp.replace(out_path)
    return ConversionStats(lexicon_id, version, len(kept), n_senses, len(entries), n_def, n_ex,
                           n_ssrel, n_senserel, n_forms)


# lexnames(5): lexicographer file numbers → names.
_LEXFILES = [
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling",
    "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object", "noun.person",
    "noun.phenomenon", "noun.plant", "noun.possession", "noun.process", "noun.quantity", "noun.relation",
    "noun.shape", "noun.state", "noun.substance", "noun.time", "verb.body", "verb.change", "verb.cognition",
    "verb.communication", "verb.competition", "verb.consumption", "verb.contact", "verb.creation",
    "verb.emotion", "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
]


# --------------------------------------------------------------------------- the shipped small lexicon


def build_mini_lexicon(wndb_dir: str | Path, words_file: str | Path, out_path: str | Path,
                       max_senses: int = 2) -> ConversionStats:
    """Write the small WN-LMF lexicon shipped in ``data/wordnet`` from a WNDB directory.

    ``words_file`` lines are ``lemma<TAB>pos[<TAB>all]``: the first ``max_senses``
    senses of each (every sense with ``all``), plus their hypernym closure so
    that depth and related-gloss signals still work. Same synset ids as the
    full conversion (``wn30-<offset>-<pos>``), version ``3.0-mini``.
    """
    wndb_dir = Path(wndb_dir)
    wanted: list[tuple[str, str, bool]] = []
    for line in Path(words_file).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        f = line.split("\t")
        wanted.append((f[0].strip().lower().replace(" ", "_"), f[1].strip(), len(f) > 2 and f[2].strip() == "all"))
    index = {p: _read_index(wndb_dir / f"index.{n}") for p, n in WNDB_POS_FILES.items()}

    def keep(data: dict) -> set:
        chosen: set = set()
        for lemma, pos, every in wanted:
            offsets = index.get(pos, {}).get(lemma, [])
            chosen.update((pos, off) for off in (offsets if every else offsets[:max_senses]))
        todo = list(chosen)
        while todo:  # hypernym closure
            key = todo.pop()
            for sym, toff, tpos, _s, _t in data[key].pointers:
                if sym in ("@", "@i") and (tpos, toff) not in chosen and (tpos, toff) in data:
                    chosen.add((tpos, toff))
                    todo.append((tpos, toff))
        return chosen

    version = wndb_version(wndb_dir)
    return convert_wndb(wndb_dir, out_path, lexicon_id="wn" + version.replace(".", ""),
                        version=version + MINI_VERSION_SUFFIX, keep=keep,
                        label=f"Princeton WordNet {version} (small subset shipped with textguard_pipeline)")


def _main(argv: Sequence[str] | None = None) -> int:
    """``python -m textguard_pipeline.core.wordnet_setup build-mini WNDB_DIR`` regenerates data/wordnet."""
    import argparse

    p = argparse.ArgumentParser(prog="python -m textguard_pipeline.core.wordnet_setup")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build-mini", help="regenerate data/wordnet/wn30-mini.xml from a WNDB directory")
    b.add_argument("wndb_dir", nargs="?", default="/usr/share/wordnet")
    b.add_argument("--words", default=str(MINI_LEXICON_PATH.parent / "mini_words.txt"))
    b.add_argument("--out", default=str(MINI_LEXICON_PATH))
    c = sub.add_parser("convert", help="convert a WNDB directory to a WN-LMF file")
    c.add_argument("wndb_dir")
    c.add_argument("out")
    args = p.parse_args(argv)
    t0 = time.perf_counter()
    if args.cmd == "build-mini":
        stats = build_mini_lexicon(args.wndb_dir, args.words, args.out)
        _write_gloss_frequency(Path(args.wndb_dir), MINI_LEXICON_PATH.parent / "gloss_frequency.tsv")
    else:
        stats = convert_wndb(args.wndb_dir, args.out)
    print(f"{stats} in {time.perf_counter() - t0:.1f}s")
    return 0


def _write_gloss_frequency(wndb_dir: Path, out: Path, min_count: int = 20) -> None:
    """How many WordNet definitions use each word (≥ ``min_count``): the generality signal for the small lexicon."""
    from collections import Counter

    df: Counter = Counter()
    n = 0
    for name in WNDB_POS_FILES.values():
        for ss in _read_data(wndb_dir / f"data.{name}", name[0]).values():
            n += 1
            df.update(set(re.findall(r"[a-z][a-z'-]*[a-z]|[a-z]", ss.definition.lower())))
    lines = [f"# Word -> number of WordNet {wndb_version(wndb_dir)} definitions using it "
             f"(words used by >= {min_count}). WordNet 3.0 Copyright 2006 by Princeton University.",
             f"# glosses = {n}"]
    lines += [f"{w}\t{c}" for w, c in sorted(df.items(), key=lambda wc: (-wc[1], wc[0])) if c >= min_count]
    tmp = out.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(out)


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
