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

No dagster imports: this module is used by the CLI, the assets and notebooks. The conversion lives in
:mod:`.wndb`; the environment is read in :mod:`textguard_pipeline.settings`.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from contextlib import closing
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Sequence

from ..settings import wordnet_settings
from .sense_counts import ensure_sense_counts
from .wndb import (  # noqa: F401  (the conversion names are re-exported: core.wordnet_setup)
    LMF_DC_NS,
    LMF_DOCTYPE,
    LMF_XMLDECL,
    MINI_LEXICON_PATH,
    MINI_VERSION_SUFFIX,
    WORDNET_LICENSE_URL,
    WORDNET_NOTICE,
    ConversionStats,
    build_mini_lexicon,
    convert_wndb,
    find_wndb,
    split_gloss,
    wndb_version,
)
from .wordnet_apt import APT_PACKAGE, HINT, WNDB_DIR, apt_install_wordnet

#: Records which lexicon ``install`` chose, so ``open_wordnet`` uses the same one.
MARKER_FILE = "textguard-wordnet.json"


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
        text = (
            f"WordNet lexicon {self.spec} from {self.source}: {self.synsets} synsets, "
            f"{self.senses} senses, {self.words} words"
        )
        return text + (f"\nWARNING: {self.warning}" if self.warning else "")


# --------------------------------------------------------------------------- wn data directory


def wn_data_dir() -> Path:
    """The wn data directory (``$TEXTGUARD_WN_DATA``, default ``data/wn_data``), set in wn's config."""
    # lazy: wn opens its database on use; imported only where a lexicon is touched
    import wn

    path = Path(wordnet_settings().data_dir).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True)
    if Path(wn.config.data_directory).resolve() != path:
        wn.config.data_directory = path
    # Dagster may call from a worker thread; the connection is only read after install.
    wn.config.allow_multithreading = True
    return path


def _db_path() -> Path:
    # lazy: wn opens its database on use; imported only where a lexicon is touched
    import wn

    wn_data_dir()
    return Path(wn.config.database_path)


def read_only(db: str | Path) -> closing[sqlite3.Connection]:
    """A read-only connection to wn's database, for the direct reads (counts, gloss statistics, synset graph),
    closed on exit (a bare ``with sqlite3.connect(...)`` only ends a transaction and leaves the file open)."""
    return closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True))


def lexicon_database(wnet) -> tuple[str, tuple[str, ...]]:
    """(wn's database path, the specifiers of ``wnet``'s lexicons): what a direct read of their rows needs."""
    import wn  # lazy: opens its database on use; imported only where a lexicon is touched

    return str(wn.config.database_path), tuple(lex.specifier() for lex in wnet.lexicons())


def _close_pool() -> None:
    """Drop wn's cached sqlite connection (before deleting or swapping a database)."""
    # lazy: wn opens its database on use; imported only where a lexicon is touched
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
        with read_only(db) as conn:
            return [(i, v) for i, v in conn.execute("SELECT id, version FROM lexicons ORDER BY rowid")]
    except sqlite3.Error:
        return []


def _counts(lexicon_id: str, version: str) -> tuple[int, int, int]:
    """(synsets, senses, words) of one lexicon, straight from wn's sqlite (fast)."""
    with read_only(_db_path()) as conn:
        row = conn.execute("SELECT rowid FROM lexicons WHERE id = ? AND version = ?", (lexicon_id, version)).fetchone()
        if row is None:
            return (0, 0, 0)
        counts = [
            conn.execute(f"SELECT COUNT(*) FROM {table} WHERE lexicon_rowid = ?", (row[0],)).fetchone()[0]
            for table in ("synsets", "senses", "entries")
        ]
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
    return (
        "only the small WordNet lexicon shipped in data/wordnet is installed: coverage is limited "
        "to a few hundred words of the sample-corpus topics. Install the full one with "
        "`apt-get install wordnet-base && textguard wordnet install`, or "
        "`textguard wordnet install --lexicon oewn:2024` when online."
    )


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
    info = _info_for(
        chosen, marker.get("source", "installed") if same else "installed", marker.get("warning") if same else None
    )
    if info.synsets == 0:
        return WordNetInfo(
            info.lexicon_id,
            info.version,
            info.source,
            0,
            0,
            0,
            f"lexicon {info.spec} is empty (every lookup would answer []): run `textguard wordnet install` again",
        )
    return info


def _choose(installed: Sequence[tuple[str, str]]) -> tuple[str, str] | None:
    wanted = wordnet_settings().lexicon
    if wanted:
        hit = _match_installed(wanted, installed)
        if hit is None:
            raise WordNetNotInstalled(
                f"TEXTGUARD_WN_LEXICON={wanted!r} is not installed in {wn_data_dir()}: "
                f"run `textguard wordnet install --lexicon {wanted}`"
            )
        return hit
    marker = _read_marker()
    mspec = (marker.get("lexicon_id"), marker.get("version"))
    if mspec in installed:
        return mspec  # type: ignore[return-value]
    return max(installed, key=_rank) if installed else None


def _cache_key() -> tuple[str, str]:
    return (str(wn_data_dir()), wordnet_settings().lexicon)


def open_wordnet():
    """The chosen lexicon as a ``wn.Wordnet`` with Morphy lemmatisation (cached per data dir).

    Raises :class:`WordNetNotInstalled` (telling to run ``textguard wordnet install``)
    when no usable lexicon is installed.
    """
    return _open(*_cache_key())


@lru_cache(maxsize=8)
def _open(data_dir: str, _wanted: str):
    # lazy: wn opens its database on use; imported only where a lexicon is touched
    import wn
    from wn.morphy import Morphy

    info = wordnet_status()
    if info is None and _wanted:
        raise WordNetNotInstalled(f"TEXTGUARD_WN_LEXICON={_wanted!r} is not installed in {data_dir} (none is)")
    if info is None:
        raise WordNetNotInstalled(
            f"no WordNet lexicon is installed in {data_dir}: run `textguard wordnet install` "
            "(uses /usr/share/wordnet from the `wordnet-base` package if present, "
            "else a download, else the small shipped lexicon)"
        )
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
    apt: bool = False,
    record: bool = True,
) -> WordNetInfo:
    """Make a usable lexicon available (see the module docstring for the order).

    ``record``: write the choice for later runs (only ``textguard wordnet install``; never a run).

    Idempotent: when a full lexicon is already installed this only counts it
    (well under a second). ``allow_download`` is also switched off by
    ``TEXTGUARD_WN_DOWNLOAD=0``.
    """
    import wn  # noqa: F401  # lazy: fail early with a clear ImportError

    lexicon = lexicon or wordnet_settings().lexicon or None
    wn_data_dir()
    _drop_empty_lexicons(log)
    installed = _installed_specs()
    problems: list[str] = []

    # 1. already installed
    if lexicon:
        hit = _match_installed(lexicon, installed)
        if hit:
            return _finish(hit, "installed", log, record=record)
    elif from_path is None:
        full = [s for s in installed if not _is_mini(s[1])]
        if full:
            hit = _choose(full) if _choose(installed) in full else max(full, key=_rank)
            return _finish(hit, "installed", log, record=record)

    # 2. --from: a WN-LMF file, or a WNDB directory
    if from_path:
        path = Path(from_path).expanduser()
        if path.is_dir():
            return _finish(_install_wndb(path, log), f"wndb:{path}", log, record=record)
        if not path.is_file():
            raise WordNetError(f"--from {from_path}: no such file or directory")
        return _finish(_add_lmf(path, log), f"lmf:{path}", log, record=record)

    # --lexicon SPEC that is not installed: the user asked for that one, so try it first.
    downloads = wordnet_settings().download
    allow_download = allow_download and downloads
    if lexicon and allow_download:
        try:
            return _finish(_download(lexicon, log), f"download:{lexicon}", log, record=record)
        except WordNetError as exc:
            problems.append(str(exc))
            log(f"wordnet: {exc}")

    # 3. a WNDB directory (with ``apt``: Debian's wordnet-base installed first when it is missing)
    wndb_dirs = list(wndb_dirs)
    if apt and wordnet_settings().apt and WNDB_DIR in wndb_dirs and not find_wndb(WNDB_DIR):
        if not apt_install_wordnet(log):
            problems.append(f"{APT_PACKAGE} not installed (run: {HINT})")
    for d in wndb_dirs:
        if find_wndb(d):
            try:
                return _finish(
                    _install_wndb(Path(d), log), f"wndb:{d}", log, _fallback_note(lexicon, problems), record=record
                )
            except WordNetError as exc:
                problems.append(str(exc))
                log(f"wordnet: {exc}")

    # 4. download the newest OEWN
    if allow_download and not lexicon:
        try:
            spec = newest_oewn_spec()
            return _finish(_download(spec, log), f"download:{spec}", log, record=record)
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
    return _finish(spec, f"shipped:{MINI_LEXICON_PATH.name}", log, warning=warning, record=record)


def _finish(
    spec: tuple[str, str], source: str, log: Log, warning: str | None = None, record: bool = True
) -> WordNetInfo:
    info = _info_for(spec, source, warning)
    if info.synsets == 0:
        raise WordNetError(f"lexicon {info.spec} is empty after installation (every lookup would answer [])")
    if source == "installed":
        marker = _read_marker()
        if marker.get("lexicon_id") == spec[0] and marker.get("version") == spec[1]:
            info = WordNetInfo(
                **{**asdict(info), "source": marker.get("source", source), "warning": marker.get("warning")}
            )
    if record:
        _write_marker(info)
    if not info.is_mini:
        _remove_mini(log)
        if spec[0].startswith("wn3"):  # Princeton ids: SemCor counts from the WNDB directory it came from
            ensure_sense_counts(*spec, wn_data_dir(), [source[5:] if source.startswith("wndb:") else WNDB_DIR], log)
    _close_pool()
    log(info.summary())
    return info


def _fallback_note(lexicon: str | None, problems: Sequence[str]) -> str | None:
    if lexicon and problems:
        return f"requested lexicon {lexicon!r} could not be installed ({'; '.join(problems)}); using another one"
    return None


def _remove_mini(log: Log) -> None:
    import wn  # lazy: opens its database on use; imported only where a lexicon is touched

    for spec in _installed_specs():
        if _is_mini(spec[1]):
            wn.remove(f"{spec[0]}:{spec[1]}", progress_handler=None)
            log(f"wordnet: removed the small lexicon {spec[0]}:{spec[1]} (a full one is installed)")


def _drop_empty_lexicons(log: Log) -> None:
    """Remove lexicons with no synsets and an empty database file left by a failed download."""
    # lazy: wn opens its database on use; imported only where a lexicon is touched
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
    # lazy: wn opens its database on use; imported only where a lexicon is touched
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
    if not re.fullmatch(
        r'<!DOCTYPE LexicalResource SYSTEM "https?://globalwordnet\.github\.io/schemas/'
        r'WN-LMF-1\.[0-4]\.dtd">',
        doctype,
    ):
        raise WordNetError(
            f"{path}: second line must be a WN-LMF DOCTYPE such as {LMF_DOCTYPE!r}, found {doctype[:80]!r}"
        )


def _add_lmf(path: Path, log: Log) -> tuple[str, str]:
    """wn.add a WN-LMF file; returns the (id, version) it added (or that was already there)."""
    # lazy: wn opens its database on use; imported only where a lexicon is touched
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
    import wn  # lazy: opens its database on use; imported only where a lexicon is touched

    versions = wn.config.index.get("oewn", {}).get("versions", {})
    usable = [v for v, meta in versions.items() if not meta.get("error") and meta.get("resource_urls", True)]
    if not usable:
        raise WordNetError("wn's index lists no downloadable oewn version")
    return f"oewn:{max(usable, key=_version_key)}"


def _download(spec: str, log: Log) -> tuple[str, str]:
    import wn  # lazy: opens its database on use; imported only where a lexicon is touched

    before = set(_installed_specs())
    log(f"wordnet: trying wn.download({spec!r}) ...")
    t0 = time.perf_counter()
    try:
        wn.download(spec, progress_handler=None)
    except Exception as exc:  # noqa: BLE001 - network, HTTP, format: all mean "not installed"
        _drop_empty_lexicons(lambda _m: None)
        _clean_downloads()
        cause = exc.__cause__ or exc
        raise WordNetError(
            f"download of {spec} failed after {time.perf_counter() - t0:.2f}s: {type(cause).__name__}: {cause}"
        ) from exc
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
        log(
            f"wordnet: converted WNDB {directory} to WN-LMF in {time.perf_counter() - t0:.1f}s "
            f"({stats.synsets} synsets, {stats.senses} senses, {stats.entries} entries)"
        )
        return _add_lmf(out, log)
    finally:
        out.unlink(missing_ok=True)  # ~50 MB; the database holds everything


def lexicon_status() -> str:
    """One line for report headers: which lexicon serves meanings, and how to get the full one if not."""
    try:
        info = wordnet_status()
    except WordNetError as exc:
        return f"WordNet: unusable ({exc})"
    if info is None:
        return f"WordNet: none installed yet (the small shipped lexicon is used on first run); full WordNet 3.0: {HINT}"
    if info.is_mini:
        return (
            f"WordNet: {info.spec}, the SMALL shipped lexicon ({info.synsets:,} synsets, limited coverage); "
            f"full WordNet 3.0: {HINT}"
        )
    return f"WordNet: {info.spec}, full lexicon ({info.synsets:,} synsets, from {info.source})"
