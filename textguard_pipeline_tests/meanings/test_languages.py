"""Issue 17 items 2 and 4: mentions use the chunk's language's model (none for Polish), and a mention in a
language without an installed WordNet stays custom with meaning_reason="unsupported_language"."""

import pytest

from textguard_pipeline.core.parsing import parse_document
from textguard_pipeline.lib.nlp import load_spacy, model_label
from textguard_pipeline.meanings.resolver import MeaningResolver
from textguard_pipeline_tests.meanings._wordnet_mini import mini_wordnet

TEXT = (
    "Thomas Aquinas proposed a metric for machine translation. The translation of each sentence is compared "
    "with a reference translation, and the corpus score is the geometric mean of the precisions.\n\n"
    "An academic degree is not a thing; the encryption of a message needs a key.\n"
)

FR = "Marie Curie a étudié la traduction automatique. La traduction de chaque phrase est comparée.\n\n"
PL = "Maria Skłodowska-Curie badała tłumaczenie maszynowe. Tłumaczenie każdego zdania jest porównywane.\n\n"


@pytest.fixture(scope="module")
def resolver(tmp_path_factory):
    from textguard_pipeline.core.wordnet_setup import wordnet_status

    nlp = load_spacy(profile="parse")
    with mini_wordnet(str(tmp_path_factory.mktemp("wn"))) as w:
        yield MeaningResolver(nlp=nlp, wnet=w, lexicon=wordnet_status().spec, spacy_label=model_label(nlp))


def _chunks(text, languages):
    chunks = [c for c in parse_document(text, "txt")]
    prose = [c for c in chunks if c.chunk_type == "prose"]
    assert len(prose) == len(languages)
    for c, lang in zip(prose, languages):
        c.language = lang
    return chunks


def test_other_languages_stay_custom_and_english_is_unchanged(resolver):
    text = TEXT + "\n" + FR + PL
    en_only, _ = resolver.resolve_document("en.txt", TEXT, _chunks(TEXT, ["en", "en"]), "txt")
    mixed, _ = resolver.resolve_document("mixed.txt", text, _chunks(text, ["en", "en", "fr", "pl"]), "txt")
    english = mixed[mixed["start"] < len(TEXT)]
    cols = ["start", "end", "label", "meaning_type", "meaning_id", "merge_key"]
    assert english[cols].reset_index(drop=True).equals(en_only[cols].reset_index(drop=True))
    assert english["meaning_reason"].isna().all()
    other = mixed[mixed["start"] >= len(TEXT)]
    fr_start = len(TEXT) + 1
    french = other[other["start"] < fr_start + len(FR)]
    assert len(french) >= 1  # the French model found mentions in the French paragraph
    assert set(french["meaning_type"]) == {"custom"} and set(french["meaning_reason"]) == {"unsupported_language"}
    assert french["meaning_id"].isna().all()
    polish = other[other["start"] >= fr_start + len(FR)]
    assert polish.empty  # no spaCy model for Polish: no mentions from the English one


def test_french_fixed_expressions_and_date_parts_are_no_entries_and_nouns_keep_their_lemma(resolver):
    """issue 51 item 3: "rapport" of *par rapport à*, "lieu" of *avoir lieu* / *au lieu de*, "fait" of *en fait*,
    months and weekdays give no row; the other nouns stay custom entries, grouped by lemma."""
    fr = (
        "La conférence a eu lieu le 3 mars à Paris, un lundi. Le modèle est évalué par rapport à la traduction "
        "humaine. En fait, au lieu de la traduction humaine, les auteurs utilisent la traduction automatique.\n\n"
    )
    df, stats = resolver.resolve_document("fr.txt", fr, _chunks(fr, ["fr"]), "txt")
    labels = set(df["normalized_label"])
    assert not labels & {"lieu", "rapport", "fait", "mars", "lundi"}, labels
    assert "auteur" in labels  # "les auteurs": its lemma
    assert stats.excluded_share.get("fixed_expression", 0) > 0  # without the rule, "rapport" was a row
    assert set(df["meaning_type"]) == {"custom"}
