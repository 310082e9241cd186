"""Hybrid routing by what the rules could not explain (issue 44): word problems the rules cannot read reach the
model (the loopback stand-in) and yield their frames; rule-readable units never do; a technical text with no
word problem sends at most 5 % of its windows; every window keeps its route and reason."""

import pytest

from textguard_pipeline.ingest.parsing import parse_document
from textguard_pipeline.lib.llm import ChatClient
from textguard_pipeline.math_ner import RuleBasedExtractor, ner_frame, text_units
from textguard_pipeline.math_ner.hybrid import HybridFrameExtractor, llm_units_report, windows
from textguard_pipeline.math_ner.llm import LLMFrameExtractor
from textguard_pipeline.math_ner.routing import decide
from textguard_pipeline_tests.math_ner.llm_script import ROUTE, chat, chat_requests, config
from textguard_pipeline_tests.math_ner.routing_docs import (
    PLAIN,
    RULE_UNITS,
    TECHNICAL,
    WORD_PROBLEMS,
    word_problem_document,
)

EMPTY = {"entities": [], "frames": [], "unmapped": []}


def hybrid(standin):
    # one call at a time, so the scripted answers meet the windows in document order
    return HybridFrameExtractor(LLMFrameExtractor(ChatClient(config(standin)), concurrency=1), RuleBasedExtractor())


def _answer(operation, operands, result):
    frame = {"frame_type": "ARITH_EXAMPLE", "operation": operation, "operands": operands, "result": result}
    return chat({"entities": [], "frames": [frame], "unmapped": []})


@pytest.mark.parametrize("problem", [p for p, *_ in WORD_PROBLEMS])
def test_a_word_problem_has_no_rule_frame_so_only_the_routing_can_send_it(problem):
    assert RuleBasedExtractor().extract(problem).frames == []


def test_every_word_problem_is_sent_and_yields_its_frame_and_no_rule_unit_is_sent(fresh_standin):
    doc = word_problem_document()
    fresh_standin.script({ROUTE: [_answer(op, ops, res) for _, op, ops, res in WORD_PROBLEMS]})
    x = hybrid(fresh_standin)
    df, report = ner_frame("problems.md", parse_document(doc, "md"), x)
    sent = [r["messages"][1]["content"] for r in chat_requests(fresh_standin)]
    assert len(sent) == len(WORD_PROBLEMS)
    for (problem, *_), content in zip(WORD_PROBLEMS, sent):
        assert problem in content
        assert not any(u in content for u in RULE_UNITS + PLAIN)
    llm_frames = df[(df["kind"] == "frame") & df["backend"].str.startswith("llm:")]
    assert sorted(llm_frames["text"]) == sorted(p for p, *_ in WORD_PROBLEMS)
    assert llm_frames["arith_correct"].astype(bool).all()
    rule_frames = df[(df["kind"] == "frame") & (df["backend"] == "rule_based")]
    assert all(any(t in u for u in RULE_UNITS) for t in rule_frames["text"]) and len(rule_frames) >= 3
    # the decision and its reason, per window, in the report and counted for the metadata
    by_text = {doc[w["start"] : w["end"]]: (w["route"], w["reason"]) for w in report["windows"]}
    assert {by_text[p][0] for p, *_ in WORD_PROBLEMS} == {"llm"}
    assert {by_text[u] for u in RULE_UNITS if u in by_text} == {("rules", "rule_frame")}
    reasons = llm_units_report(x)["reasons"]
    assert reasons["llm:quantity_relation"] + reasons["llm:cue"] == len(WORD_PROBLEMS)


def test_a_technical_text_sends_at_most_five_percent_of_its_windows(fresh_standin):
    fresh_standin.script({ROUTE: [chat(EMPTY)] * 3})
    x = hybrid(fresh_standin)
    _, report = ner_frame("acme.md", parse_document(TECHNICAL, "md"), x)
    total = sum(report["units"].values())
    assert total >= 12
    assert report["units"].get("llm", 0) <= 0.05 * total, report["windows"]
    assert len(chat_requests(fresh_standin)) == report["units"].get("llm", 0)


@pytest.mark.parametrize(
    "text",
    [
        "It was released in 2015 and rewritten in 2021.",  # years
        "Python 3.9 and Windows 10 are supported since version 2.",  # versions, names
        "The release of 2024-03-02 fixed issue #212 and section 4.",  # a date, identifiers
        "See [3] and [4] for details.",  # references
        "| port | 8443 | 1.0 |\n| workers | 4 | 1.2 |",  # a table row
        "1. Start the server.\n2. Stop it.",  # list numbering
        "The wheel is 4 MB and needs 2 GB.",  # measurements
    ],
)
def test_numbers_that_are_not_quantities_keep_a_window_from_the_model(text):
    res = RuleBasedExtractor().extract(text)
    decisions = [decide(text, w, res) for w in windows(text)]
    # the rules may not even read them as numbers (list markers, some references): skipped either way
    assert decisions and all(d[0] == "skipped" and d[1] in ("not_quantities", "no_numbers") for d in decisions)


def test_two_quantities_without_a_joining_word_stay_with_no_call():
    text = "The project has two maintainers and one release manager."
    assert decide(text, (0, len(text)), RuleBasedExtractor().extract(text)) == ("skipped", "no_relation")


def test_rule_units_are_routed_to_the_rules_in_every_unit_of_the_word_problem_document():
    doc = word_problem_document()
    rules = RuleBasedExtractor()
    routes = []
    for _, _, unit in text_units(parse_document(doc, "md")):
        res = rules.extract(unit)
        routes += [(unit[a:b], decide(unit, (a, b), res)[0]) for a, b in windows(unit)]
    assert {t for t, r in routes if r == "rules"} == {u for u in RULE_UNITS if u in doc}


def test_held_out_word_problems_are_sent_at_least_nine_times_in_ten():
    from textguard_pipeline_tests.math_ner.routing_docs import HELD_OUT_PROBLEMS

    rules = RuleBasedExtractor()
    sent = [p for p in HELD_OUT_PROBLEMS if decide(p, (0, len(p)), rules.extract(p))[0] == "llm"]
    assert len(sent) >= 0.9 * len(HELD_OUT_PROBLEMS), set(HELD_OUT_PROBLEMS) - set(sent)
