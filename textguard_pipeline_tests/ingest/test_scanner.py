"""The corpus scanner flags what it cannot name, reach or read; one bad file never hides or stops the others.

CI runs as root, which reads any file: "unreadable" is made with a FIFO, a dangling link and a scan run
under dropped privileges (a subprocess as nobody), never with chmod alone.
"""

import os
from pathlib import Path

import pytest
from dagster import DagsterInstance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from textguard_pipeline.core.pipeline import build_source_documents
from textguard_pipeline.defs_kit.io_manager import read_parquet
from textguard_pipeline.ingest.documents import content_version, discover_documents, scan_corpus
from textguard_pipeline.ingest.sources import source_documents_frame


def _row(root: Path, doc_id: str):
    entries = scan_corpus(root)
    return source_documents_frame(doc_id, entries[doc_id], root, log=_Quiet()).iloc[0]


class _Quiet:
    def error(self, *_a):
        pass


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    root.mkdir()
    (root / "good.md").write_text("Fine text.\n", encoding="utf-8")
    return root


def test_non_utf8_file_name_is_a_flagged_row(corpus):
    bad = os.path.join(os.fsencode(corpus), b"caf\xe9.txt")
    with open(bad, "wb") as fh:
        fh.write(b"readable content\n")
    entries = scan_corpus(corpus)
    assert "good.md" in entries and entries["good.md"].problem is None
    (flagged,) = [e for e in entries.values() if e.problem]
    assert flagged.rel == "caf\\xe9.txt" and "not valid UTF-8" in flagged.problem
    row = _row(corpus, flagged.doc_id)
    assert row["status"] == "error" and row["path"] == "caf\\xe9.txt"
    assert "caf\\xe9.txt" in row["error"] and "rename" in row["error"]
    row["error"].encode("utf-8")  # storable: no lone surrogates reach Parquet


@pytest.mark.timeout(20)
def test_fifo_is_flagged_without_blocking(corpus):
    os.mkfifo(corpus / "pipe.md")
    e = scan_corpus(corpus)["pipe.md"]
    assert "FIFO" in e.problem
    assert content_version(e).startswith("error:")  # the planner never opens it
    row = _row(corpus, "pipe.md")
    assert row["status"] == "error" and row["error"].startswith("pipe.md: a FIFO")
    # run_document's path (one file, no scan) flags it the same way
    assert build_source_documents("pipe.md", corpus / "pipe.md", corpus, log=_Quiet()).iloc[0]["status"] == "error"


def test_symlinks_outside_the_corpus_and_dangling_links_are_flagged(corpus, tmp_path):
    outside = tmp_path / "secret.txt"
    outside.write_text("outside\n")
    (corpus / "escape.txt").symlink_to(outside)
    (corpus / "dangling.md").symlink_to(corpus / "missing.md")
    (corpus / "inside.md").symlink_to(corpus / "good.md")
    entries = scan_corpus(corpus)
    assert "points outside the corpus" in entries["escape.txt"].problem
    assert "dangling symlink" in entries["dangling.md"].problem
    assert entries["inside.md"].problem is None  # a link within the corpus is read
    assert _row(corpus, "inside.md")["text"] == "Fine text.\n"
    row = _row(corpus, "escape.txt")
    assert row["status"] == "error" and row["text"] == "" and "escape.txt" in row["error"]
    # the direct path does not raise a bare ValueError any more
    direct = build_source_documents("escape.txt", corpus / "escape.txt", corpus, log=_Quiet())
    assert direct.iloc[0]["status"] == "error"


def test_doc_id_collision_flags_both_and_keeps_the_rest(corpus):
    (corpus / "A.md").write_text("upper\n")
    (corpus / "a.md").write_text("lower\n")
    entries = scan_corpus(corpus)
    flagged = {e.rel: e for e in entries.values() if e.problem}
    assert set(flagged) == {"A.md", "a.md"}
    ids = {e.doc_id for e in flagged.values()}
    assert len(ids) == 2 and all(i.startswith("a.md-") for i in ids)
    assert "'a.md'" in flagged["A.md"].problem and "rename" in flagged["A.md"].problem
    assert entries["good.md"].problem is None
    assert set(discover_documents(corpus)) == {"good.md", *ids}
    assert scan_corpus(corpus).keys() == entries.keys()  # stable ids across scans


def _scan_rows_as(root: Path, uid: int | None) -> dict:
    """scan + rows in a forked child that dropped to ``uid`` (None: keep this user); returned through a pipe."""
    import json

    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never return into pytest
        code = 1
        try:
            os.close(r)
            if uid is not None:
                os.setgroups([])
                os.setgid(uid)
                os.setuid(uid)
            entries = scan_corpus(root)
            rows = {
                k: source_documents_frame(k, e, root, log=_Quiet()).iloc[0][["status", "error"]].tolist()
                for k, e in entries.items()
            }
            os.write(w, json.dumps(rows).encode())
            code = 0
        finally:
            os._exit(code)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    return json.loads(data)


def test_unreadable_file_under_dropped_privileges_is_a_flagged_row():
    """Permission denied: a flagged row naming the file, not a missing row (root reads anything, so the
    scan runs in a child that dropped to nobody)."""
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="tg-scan-", dir="/tmp"))
    root = base / "corpus"
    try:
        root.mkdir()
        base.chmod(0o755)
        (root / "good.md").write_text("Fine.\n")
        (root / "locked.md").write_text("secret\n")
        (root / "locked.md").chmod(0o000)
        rows = _scan_rows_as(root, 65534 if os.geteuid() == 0 else None)
        assert rows["good.md"] == ["ok", None]
        status, error = rows["locked.md"]
        assert status == "error" and error.startswith("locked.md: cannot be read") and "ermission" in error
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_report_fails_naming_each_bad_file_and_the_rest_is_materialized(tmp_path, monkeypatch):
    from textguard_pipeline.operations.report import materialize_corpus

    root = tmp_path / "corpus"
    root.mkdir()
    (root / "good.md").write_text("# T\n\nGood prose.\n")
    (root / "A.md").write_text("upper\n")
    (root / "a.md").write_text("lower\n")
    with open(os.path.join(os.fsencode(root), b"caf\xe9.txt"), "wb") as fh:
        fh.write(b"x\n")
    os.mkfifo(root / "pipe.md")
    (root / "escape.txt").symlink_to(tmp_path)
    wh = tmp_path / "warehouse"
    monkeypatch.setenv("TEXTGUARD_CORPUS_DIR", str(root))
    monkeypatch.setenv("TEXTGUARD_WAREHOUSE", str(wh))
    res = materialize_corpus(
        instance=DagsterInstance.ephemeral(),
        batch_size=10,
        select="source_documents parsed_chunks",
        log=lambda *_: None,
    )
    assert not res.step_failures and not res.ok
    messages = " ".join(o.message for o in res.failed)
    for name in ("A.md", "a.md", "caf\\xe9.txt", "pipe.md", "escape.txt"):
        assert name in messages, name
    assert read_parquet(wh / "parsed_chunks" / "good.md.parquet")["text"].str.contains("Good prose").any()
    assert read_parquet(wh / "source_documents" / "pipe.md.parquet").loc[0, "status"] == "error"


_NAME_CHARS = st.sampled_from(list("aAbZ09._- éÉßłŁ日\t\x01\x7f\u202e⟨") + ["..", "\u00e9", "\u0065\u0301"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    names=st.lists(
        st.tuples(
            st.lists(_NAME_CHARS, min_size=1, max_size=40).map("".join),
            st.sampled_from([".md", ".txt", ".tex", ".MD", ".json"]),
            st.booleans(),
        ),
        min_size=1,
        max_size=8,
    )
)
def test_fuzzed_names_every_supported_file_is_one_entry_with_a_safe_id(tmp_path_factory, names):
    from textguard_pipeline.ingest.documents import FORMATS, is_safe_doc_id

    root = tmp_path_factory.mktemp("fuzz")
    made: set[bytes] = set()
    for stem, suffix, raw_byte in names:
        name = os.fsencode(stem.replace("/", "_")) + (b"\xff" if raw_byte else b"") + suffix.encode()
        if name.startswith(b".") or len(name) > 250:
            continue
        path = os.path.join(os.fsencode(root), name)
        with open(path, "wb") as fh:
            fh.write(b"text\n")
        if suffix.lower() in FORMATS:
            made.add(name)
    entries = scan_corpus(root)
    assert sorted(os.fsencode(e.path.name) for e in entries.values()) == sorted(made)
    for doc_id, e in entries.items():
        assert is_safe_doc_id(doc_id) and e.doc_id == doc_id
        e.rel.encode("utf-8")  # every path is storable text
        row = source_documents_frame(doc_id, e, root, log=_Quiet()).iloc[0]
        assert (row["status"] == "ok") == (e.problem is None)


def _reference_scan(root: Path) -> dict:
    """The scan as it was before the scandir fast path: os.walk, then a stat/resolve per file (the spec)."""
    import fnmatch

    from textguard_pipeline.ingest.documents import (
        FORMATS,
        display_path,
        doc_id_for,
        ignore_patterns,
        path_problem,
    )

    ignored = ignore_patterns(root)
    found = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        base = Path(dirpath)
        links = [d for d in dirnames if (base / d).is_symlink()]
        for name in sorted(filenames + links):
            p = base / name
            if name.startswith(".") or p.suffix.lower() not in FORMATS:
                continue
            shown = display_path(p.relative_to(root))
            if not any(fnmatch.fnmatch(shown, pat) for pat in ignored):
                found.append((doc_id_for(p, root), str(p), shown, path_problem(p, root)))
    return found


def test_fast_scan_equals_the_stat_per_file_scan(tmp_path):
    """Every kind of entry the scan meets, in nested and oddly named directories: the scandir fast path gives
    the same ids, paths, shown paths and problems (collisions included) as a stat and resolve per file."""
    root = tmp_path / "corpus"
    outside = tmp_path / "outside.md"
    outside.write_text("outside\n")
    broot = os.fsencode(root)
    for rel in (
        b"a.md",
        b"B.TXT",
        b"sub/x.tex",
        b"sub/deep/y.md",
        b"Sub2/A.md",
        b"caf\xe9/in.md",
        b"z\xff.md",
        b"sub/Caf\xc3\xa9 Notes.markdown",
        b"n/" + b"long-name_" * 20 + b".md",
        b"skip.json",
        b".hidden/h.md",
        b"sub/.h.md",
        b"ign/i.md",
        b"one/two.md",
        b"one__two.md",
        b"Sub2/a.md",
    ):
        path = os.path.join(broot, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as fh:
            fh.write(b"text " + rel + b"\n")
    (root / ".textguardignore").write_text("ign/*\n")
    os.mkfifo(root / "sub" / "pipe.md")
    (root / "sub" / "dir.md").mkdir()  # a directory named like a document is entered, not flagged
    (root / "sub" / "dir.md" / "inner.txt").write_text("inner\n")
    (root / "inside.md").symlink_to(root / "a.md")
    (root / "escape.md").symlink_to(outside)
    (root / "dangling.txt").symlink_to(root / "gone.md")
    (root / "linkdir.md").symlink_to(root / "sub")  # a linked directory is listed (and flagged), not entered
    (root / "linked").symlink_to(root / "sub")
    want = _reference_scan(root)
    got = scan_corpus(root)
    assert len(got) == len(want) > 15
    collided = {w[0] for w in want if sum(1 for v in want if v[0] == w[0]) > 1}
    assert collided  # the tree has doc_id collisions: they get ids of their own
    for doc_id, path, shown, problem in want:
        if doc_id in collided:
            (e,) = [e for e in got.values() if str(e.path) == path]
            assert e.rel == shown and "shared with" in e.problem
            continue
        e = got[doc_id]
        assert (str(e.path), e.rel, e.problem) == (path, shown, problem), doc_id
    assert {k for k, e in got.items() if e.problem is None} >= {"a.md", "sub__x.tex", "inside.md"}


def test_scan_lists_a_directory_again_only_when_it_changed(tmp_path):
    """Unchanged directories are not listed again in this process; adding, removing or replacing an entry
    changes the directory's mtime, and the next scan sees it."""
    import time

    from textguard_pipeline.ingest import documents

    root = tmp_path / "corpus"
    sub = root / "sub"
    sub.mkdir(parents=True)
    (root / "a.md").write_text("a\n")
    (sub / "b.md").write_text("b\n")
    past = time.time() - 60
    for d in (root, sub):
        os.utime(d, (past, past))  # older than the two-second window: remembered
    first = scan_corpus(root)
    assert set(first) == {"a.md", "sub__b.md"}
    assert {k[0] for k in documents._LISTINGS} >= {str(root), str(sub)}
    again = scan_corpus(root)
    assert {k: (str(e.path), e.rel, e.problem) for k, e in again.items()} == {
        k: (str(e.path), e.rel, e.problem) for k, e in first.items()
    }
    (sub / "c.md").write_text("c\n")
    assert set(scan_corpus(root)) == {"a.md", "sub__b.md", "sub__c.md"}
    (root / "a.md").unlink()
    os.mkfifo(root / "a.md")  # the same name, now a FIFO
    assert "FIFO" in scan_corpus(root)["a.md"].problem
    (sub / "b.md").unlink()
    assert set(scan_corpus(root)) == {"a.md", "sub__c.md"}
