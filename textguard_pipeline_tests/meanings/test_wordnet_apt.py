"""Issue 16 item 1: `textguard wordnet install` gets Debian's wordnet-base via apt-get when it can, else says how."""

from textguard_pipeline.meanings import wordnet_apt
from textguard_pipeline.meanings.wordnet_apt import HINT, INSTALL_ARGS, UPDATE_ARGS, apt_install_wordnet


def test_without_apt_get_it_prints_the_one_command_and_declines(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no apt-get on this PATH
    said: list[str] = []
    ran: list = []
    assert apt_install_wordnet(said.append, run=lambda args: ran.append(args) or 0) is False
    assert ran == [] and len(said) == 1 and HINT in said[0] and "apt-get is not on the PATH" in said[0]


def test_as_root_with_apt_it_runs_install_then_update_and_install_again(monkeypatch):
    monkeypatch.setattr(wordnet_apt, "apt_available", lambda: (True, ""))
    said: list[str] = []
    ran: list = []
    codes = iter([100, 0, 0])  # first install fails (stale lists), update works, install works
    assert apt_install_wordnet(said.append, run=lambda args: ran.append(tuple(args)) or next(codes)) is True
    assert ran == [INSTALL_ARGS, UPDATE_ARGS, INSTALL_ARGS]
    assert said == ["wordnet: running " + " ".join(a) for a in ran]  # it prints what it does


def test_lexicon_status_names_the_small_lexicon_and_how_to_get_the_full_one(tmp_path):
    from textguard_pipeline.meanings.wordnet_install import lexicon_status
    from textguard_pipeline_tests.meanings._wordnet_mini import mini_wordnet

    with mini_wordnet(str(tmp_path / "wn")):
        line = lexicon_status()
    assert "\n" not in line and "SMALL" in line and "wn30:3.0-mini" in line and HINT in line
