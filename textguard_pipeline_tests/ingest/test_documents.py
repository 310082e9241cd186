import hashlib

import pytest

from textguard_pipeline.core.documents import (
    DocumentDecodeError,
    DocumentError,
    discover_documents,
    doc_id_for,
    is_safe_doc_id,
    read_document,
)


def test_doc_id_is_safe_stable_and_path_derived(tmp_path):
    cases = {
        "Paper One.TEX": "paper_one.tex",
        "sub dir/Éèçà Notes.md": "sub_dir__eeca_notes.md",
        "..weird/..name..txt": "weird__name.txt",
        "日本語.md": "md",
    }
    for rel, expected in cases.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x")
        got = doc_id_for(p, tmp_path)
        assert got == expected, rel
        assert is_safe_doc_id(got)
        assert doc_id_for(p, tmp_path) == got  # stable
    long = tmp_path / ("a" * 100) / ("b" * 100 + ".md")
    long.parent.mkdir()
    long.write_text("x")
    assert len(doc_id_for(long, tmp_path)) <= 120 and is_safe_doc_id(doc_id_for(long, tmp_path))


def test_unsafe_ids_are_rejected():
    for bad in ["", "../x", "a/b", "A.md", ".hidden", "a..b", "x" * 300]:
        assert not is_safe_doc_id(bad), bad


def test_read_document_strict_utf8_names_file_and_byte_offset(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes("ok é ".encode() + b"\xff\xfe rest")
    with pytest.raises(DocumentDecodeError) as ei:
        read_document(p, tmp_path)
    assert ei.value.byte_offset == len("ok é ".encode())
    assert "bad.txt" in str(ei.value) and "byte offset 6" in str(ei.value)


def test_read_document_fields_and_empty_file(tmp_path):
    p = tmp_path / "a.md"
    p.write_bytes("# Tïtle\n".encode())
    d = read_document(p, tmp_path)
    assert (d.doc_id, d.path, d.format, d.n_chars) == ("a.md", "a.md", "md", 7 + 1)
    assert d.sha256 == hashlib.sha256(p.read_bytes()).hexdigest()
    (tmp_path / "empty.txt").write_bytes(b"")
    assert read_document(tmp_path / "empty.txt", tmp_path).text == ""
    (tmp_path / "README.rst").write_bytes(b"Usage::\n\n    run()\n")  # reStructuredText is read as plain text
    assert (read_document(tmp_path / "README.rst", tmp_path).format, list(discover_documents(tmp_path))) == (
        "txt",
        ["a.md", "empty.txt", "readme.rst"],
    )
    (tmp_path / "x.pdf").write_bytes(b"%PDF")
    with pytest.raises(DocumentError, match="unsupported format"):
        read_document(tmp_path / "x.pdf", tmp_path)


def test_discover_skips_hidden_ignored_and_sidecars_and_flags_collisions(tmp_path):
    (tmp_path / "a.md").write_text("a")
    (tmp_path / "a.sources.json").write_text("{}")
    (tmp_path / ".hidden.md").write_text("h")
    (tmp_path / "SOURCES.md").write_text("s")
    (tmp_path / ".textguardignore").write_text("# comment\nSOURCES.md\n")
    assert list(discover_documents(tmp_path)) == ["a.md"]
    (tmp_path / "A.md").write_text("b")
    found = discover_documents(tmp_path)  # both of the pair are kept, under ids of their own (issue 14)
    assert len(found) == 2 and "a.md" not in found and sorted(p.name for p in found.values()) == ["A.md", "a.md"]
    with pytest.raises(FileNotFoundError):
        discover_documents(tmp_path / "missing")


def test_the_size_limit_names_the_file_and_the_limit_and_counts_bytes_not_characters(tmp_path):
    from textguard_pipeline import settings
    from textguard_pipeline.ingest.sources import entry_for, source_documents_frame

    p = tmp_path / "big.md"
    p.write_bytes("é".encode() * 50)  # 50 characters, 100 bytes
    assert read_document(p, tmp_path, max_bytes=100).n_chars == 50
    with pytest.raises(DocumentError, match=r"big\.md: 100 bytes is over the per-document limit of 99 bytes"):
        read_document(p, tmp_path, max_bytes=99)
    row = source_documents_frame("big.md", entry_for("big.md", p, tmp_path), tmp_path, max_bytes=99).iloc[0]
    assert (row["status"], row["text"], row["path"]) == ("error", "", "big.md")
    assert "TEXTGUARD_MAX_DOCUMENT_BYTES" in row["error"]
    assert settings.max_document_bytes({}) >= 10_000_000
    assert settings.max_document_bytes({"TEXTGUARD_MAX_DOCUMENT_BYTES": "99"}) == 99
    with pytest.raises(settings.SettingsError):
        settings.max_document_bytes({"TEXTGUARD_MAX_DOCUMENT_BYTES": "0"})
