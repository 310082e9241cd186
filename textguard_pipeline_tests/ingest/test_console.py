"""Console transcripts in plain text (an R or Python session in a PDF's text) are code; e-mail quotes are not."""

import random
import textwrap

from textguard_pipeline.ingest.parsing import parse_document

_WORDS = (
    "the model is fitted to counts of visits and the estimates are compared with those of a quasi poisson fit "
    "so that the standard errors can be read against the sandwich ones"
).split()


def _para(seed: int, sentences: int = 4) -> str:
    rnd = random.Random(seed)
    text = " ".join(" ".join(rnd.choice(_WORDS) for _ in range(14)).capitalize() + "." for _ in range(sentences))
    return textwrap.fill(text, 78) + "\n"


def _chunks(text: str):
    chunks = parse_document(text, "txt")
    assert "".join(c.source_text() for c in chunks) == text
    return chunks


_SESSION = """R> fm <- glm(ofp ~ hosp + health,
+   data = dt, family = poisson)
R> summary(fm)

Call:
glm(formula = ofp ~ hosp + health, family = poisson, data = dt)

Coefficients:
             Estimate Std. Error z value Pr(>|z|)
(Intercept)  1.028874   0.023785  43.258   <2e-16 ***
hosp         0.164797   0.005997  27.478   <2e-16 ***
Zero hurdle model coefficients (binomial with logit link):
(Intercept)  0.043147   0.139852   0.309 0.757688
---
Signif. codes: 0 '***' 0.001 '**' 0.01 '*' 0.05 '.' 0.1 ' ' 1

(Dispersion parameter for poisson family taken to be 1)

Number of Fisher Scoring iterations: 5

"""


def test_an_r_session_with_its_continuations_and_output_is_one_code_chunk_between_prose():
    text = _para(1) + _SESSION + _para(2)
    chunks = _chunks(text)
    assert [c.chunk_type for c in chunks] == ["prose", "code", "prose"]
    assert chunks[1].text.startswith("R> fm <- glm") and "iterations: 5" in chunks[1].text
    assert "Zero hurdle model coefficients" in chunks[1].text  # a caption line inside the output


def test_a_python_session_without_blank_lines_ends_at_the_next_line_of_running_text():
    text = _para(3) + ">>> import math\n>>> for k in range(2):\n...     print(math.sqrt(k))\n0.0\n1.0\n" + _para(4)
    chunks = _chunks(text)
    code = [c.text for c in chunks if c.chunk_type == "code"]
    assert code == [">>> import math\n>>> for k in range(2):\n...     print(math.sqrt(k))\n0.0\n1.0\n"]
    assert chunks[-1].chunk_type == "prose" and chunks[-1].text == _para(4)


def test_a_session_across_a_page_break_leaves_the_running_header_structural():
    header = "Regression Models for Count Data in R"
    pages = [_para(10 + p, 14) + (_SESSION if p == 2 else "") for p in range(5)]
    text = "".join(f"{page}{p + 1}\n\f{header}\n" for p, page in enumerate(pages))
    text = text.replace("Signif. codes:", f"4\n\f{header}\nSignif. codes:")
    chunks = _chunks(text)
    assert [c.chunk_type for c in chunks if header in c.text] == ["structural"] * 6
    code = "".join(c.text for c in chunks if c.chunk_type == "code")
    assert "summary(fm)" in code and "Signif. codes" in code and "iterations: 5" in code


def test_an_e_mail_quote_stays_prose_even_with_a_call_in_it():
    text = (
        "On Monday, Ann wrote:\n"
        "> I think the old version was better, because it kept the estimates stable\n"
        "> see summary(fm) for what I mean\n"
        "> and the new one drifts whenever the sample is small.\n"
        "\n"
        "> Thanks!\n"
        "\n"
        "I agree with you, and I will look at it again tomorrow.\n"
    )
    assert all(c.chunk_type == "prose" for c in _chunks(text))


def test_a_dollar_amount_or_a_comparison_at_a_line_start_inside_a_paragraph_is_prose():
    text = (
        _para(5)
        + (
            "The grant that paid for the survey of all the physician visits came to about\n"
            "$ 5 million over three years, which is more than the first estimate of x\n"
            "> y = 2 in the notation of the earlier section of this report on the costs.\n"
        )
        + _para(6)
    )
    assert all(c.chunk_type == "prose" for c in _chunks(text))


def test_a_shell_command_after_a_colon_is_code_and_the_less_indented_text_after_it_is_not():
    text = (
        "To build the package and run its tests, type:\n"
        "\n"
        "    $ make check TESTS=all\n"
        "    ok 1 - parse\n"
        "Then make some changes:\n"
        "\n"
        "    $ git commit -m 'created myfile'\n"
    )
    chunks = _chunks(text)
    code = [c.text.strip() for c in chunks if c.chunk_type == "code"]
    assert code == ["$ make check TESTS=all\n    ok 1 - parse", "$ git commit -m 'created myfile'"]


def test_a_python_session_ends_at_a_blank_line_as_a_doctest_does():
    text = _para(7) + "\n>>> ds[1]\n'value'\n\nDone.\n"
    chunks = _chunks(text)
    assert [c.text for c in chunks if c.chunk_type == "code"] == [">>> ds[1]\n'value'\n\n"]
    assert chunks[-1].chunk_type == "prose" and chunks[-1].text == "Done.\n"


def test_a_few_words_of_a_sentence_after_output_and_before_a_prompt_are_prose():
    text = (
        _para(1)
        + "R> waldtest(fm_hurdle0, fm_hurdle)\n  Res.Df Df  Chisq Pr(>Chisq)\n1   4389\n2   4391 -2 4.1213     0.1274\n\n"
        + "or an LR test\nR> lrtest(fm_hurdle0, fm_hurdle)\n  #Df LogLik Df  Chisq Pr(>Chisq)\n\n"
        + "Likelihood ratio test\nR> summary(fm_hurdle)\n"
        + _para(2)
    )
    chunks = _chunks(text)
    kinds = {c.source_text().strip(): str(c.chunk_type) for c in chunks}
    assert kinds["or an LR test"] == "prose"
    # R prints its test names in words: a capital or a colon keeps such a line in the output
    assert any("Likelihood ratio test" in c.source_text() and c.chunk_type == "code" for c in chunks)
