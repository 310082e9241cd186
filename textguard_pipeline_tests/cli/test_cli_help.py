"""`textguard COMMAND --help`: every command says what it does, shows an example, and speaks plainly."""

from __future__ import annotations

import re

import pytest

from textguard_pipeline.cli import main

COMMANDS = (
    "report",
    "run",
    "prune",
    "dev",
    "instance",
    "instance init",
    "ner-serve",
    "wordnet",
    "wordnet install",
    "wordnet status",
    "doctor",
)

# words of the project's own history or internals a newcomer cannot know
JARGON = re.compile(r"\bseed[ -]?0\d\d\b|\bissue[ -]\d+\b|\bBENCH_", re.IGNORECASE)


def _help(command: str, capsys) -> str:
    argv = [*command.split(), "--help"]
    try:
        rc = main(argv)
    except SystemExit as stop:  # argparse's --help exits
        rc = stop.code
    assert rc == 0, command
    return capsys.readouterr().out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_has_a_description_and_an_example_of_itself(command, capsys):
    text = _help(command, capsys)
    head, _, rest = text.partition("\n\n")
    assert head.startswith(f"usage: textguard {command}")
    description = rest.split("\n\n", 1)[0]
    assert not description.startswith(("options:", "positional arguments:")), f"{command} has no description"
    assert len(description.split()) >= 8, description
    assert re.search(r"^examples?:$", text, re.MULTILINE), f"{command} has no example"
    example_lines = text.split("example", 1)[1]
    assert re.search(rf"textguard {command.split()[0]}\b", example_lines), f"{command}'s example does not run it"


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_text_speaks_of_seeds_issues_or_benchmark_variables(command, capsys):
    assert not JARGON.search(_help(command, capsys))


def test_run_is_report_with_the_same_options_that_writes_no_files_unless_asked(capsys):
    report, run = _help("report", capsys), _help("run", capsys)

    def options(text):
        return sorted(set(re.findall(r"^\s+(--[a-z-]+)", text, re.MULTILINE)))

    assert options(run) == options(report)
    assert "no report files unless" in " ".join(run.split())


def test_the_top_level_help_lists_run_as_an_alias_of_report(capsys):
    main([])
    text = capsys.readouterr().out
    run_line = next(line for line in text.splitlines() if line.strip().startswith("run "))
    assert "alias of report" in run_line
