"""Issue 17: protection with each chunk's language — its spaCy model (or none) and its conventions."""

from __future__ import annotations

import pandas as pd
import pytest

from textguard_pipeline.lib.nlp import language_model, load_spacy
from textguard_pipeline.protection import TermProtectionConfig, TermProtector, protected_frame
from textguard_pipeline.protection.languages import language_metadata

from .language_chunks import prose


@pytest.fixture(scope="module")
def protector():
    return TermProtector(TermProtectionConfig())


def _protect(protector, text, language):
    pc = protector.protect(prose(text, language))
    assert protector.restore(pc.protected_text, pc) == text  # byte-exact in every language
    return pc, {t.original: (t.source, t.label) for t in pc.terms}


def test_polish_local_forms_are_protected_and_ordinary_words_are_not(protector):
    text = (
        "Dokładność wyniosła 95,3 % (Kowalski i in., 2020), a F1 0,87. Zbiór ma 1 000 000 zdań "
        "(Nowak (red.), 2019, s. 45), zob. § 12 oraz (Wiśniewska i wsp., 2018). "
        "Jeśli nie, to jakimś cudem treść punktu jeden wraca; Jan Kowalski to potwierdził."
    )
    pc, terms = _protect(protector, text, "pl")
    assert terms == {
        "95,3 %": ("number", "PCT"),
        "(Kowalski i in., 2020)": ("citation", "bracket"),
        "0,87": ("number", "DEC"),
        "1 000 000": ("number", "BIG"),
        "Nowak (red.), 2019, s. 45": ("citation", "edited"),
        "§ 12": ("citation", "section"),
        "(Wiśniewska i wsp., 2018)": ("citation", "bracket"),
    }
    assert "jakimś cudem" in pc.protected_text and "Jan Kowalski" in pc.protected_text  # no NER for Polish


def test_decimal_comma_needs_a_metric_word_and_spaces_may_be_no_break_or_thin(protector):
    _, terms = _protect(
        protector,
        "Wersja 2,1 programu działa na każdym komputerze w naszej pracowni. "
        "Odsetek 12,5\u202f% z 3\u00a0400\u00a0000 osób.",
        "pl",
    )
    assert set(terms) == {"12,5\u202f%", "3\u00a0400\u00a0000"}  # "2,1" has no metric word near it
    _, terms = _protect(protector, "La précision moyenne vaut 0,87 et le rappel 0,91–0,93.", "fr")
    assert set(terms) == {"0,87", "0,91–0,93"}


def test_english_chunks_do_not_read_decimal_commas(protector):
    _, terms = _protect(protector, "Accuracy was 95,3 % on lists 1,2 and 0,87.", "en")
    assert "95,3 %" not in terms and "0,87" not in terms


def test_french_uses_the_french_model_with_our_labels(protector):
    text = (
        "Selon Marie Dubois, chercheuse à l'Université de Lyon, la précision atteint 95,3\u202f% "
        "(Dupont et coll., 2020) ; voir aussi « Lefèvre (2019) » et (Moreau (éd.), 2018, p. 12)."
    )
    pc, terms = _protect(protector, text, "fr")
    assert terms["Marie Dubois"] == ("ner", "PERSON")
    assert terms["95,3\u202f%"] == ("number", "PCT")
    assert terms["(Dupont et coll., 2020)"] == ("citation", "bracket")
    assert terms["Lefèvre (2019)"][0] == "citation"  # the « » stay outside the span
    assert "« ⟨TERM_" in pc.protected_text
    assert terms["Moreau (éd.), 2018, p. 12"] == ("citation", "edited")
    assert {label for _, label in terms.values() if label} <= {
        "PERSON",
        "ORG",
        "GPE",
        "PCT",
        "bracket",
        "narrative",
        "edited",
    }


def test_french_misc_entities_are_not_protected(protector):
    nlp = load_spacy(language_model("fr").name, profile="ner")
    text = "Les Jeux olympiques de Paris et la Coupe du monde de football attirent des Européens."
    misc = [e.text for e in nlp(text).ents if e.label_ == "MISC"]
    _, terms = _protect(protector, text, "fr")
    assert misc and not any(m in terms for m in misc)


def test_a_language_without_a_model_gets_no_ner_and_says_why(protector):
    assert language_model("pl").name is None and "pl" in language_model("pl").reason
    assert language_model("fr").name == "fr_core_news_sm"
    chunks = [
        prose("Adam Mickiewicz i Maria Skłodowska-Curie mieszkali w Paryżu.", "pl", 0, 0),
        prose("Marie Curie a vécu à Paris avec Pierre Curie.", "fr", 1, 100),
        prose("Marie Curie lived in Paris with Pierre Curie.", "en", 2, 200),
        prose("Marie Curie lived in Paris with Pierre Curie.", None, 3, 300),
    ]
    df = protected_frame("d", chunks, protector)
    pl, fr, en, und = (df.iloc[i] for i in range(4))
    assert pl["n_terms"] == 0 and pd.isna(pl["ner_model"])
    assert "no spaCy model for language 'pl'" == pl["ner_skipped_reason"]
    assert str(fr["ner_model"]).startswith("fr_core_news_sm==") and fr["n_terms"] >= 1
    assert str(en["ner_model"]).startswith("en_core_web_sm") and en["ner_model"] == und["ner_model"]
    assert list(df["language"].astype(object).where(df["language"].notna(), None)) == ["pl", "fr", "en", None]
    meta = language_metadata([df])
    assert meta["chunks_by_language"] == {"pl": 1, "fr": 1, "en": 1, "und": 1}
    assert meta["ner_by_language"]["pl"] == "off: no spaCy model for language 'pl'"


def test_models_are_loaded_once_per_language(protector):
    other = TermProtector(TermProtectionConfig())
    a, _, _ = protector.recognizers["ner"].model_for("fr")
    b, _, _ = other.recognizers["ner"].model_for("fr")
    assert a is b and protector.nlp is other.nlp


def test_ner_off_is_reported_in_the_row():
    df = protected_frame(
        "d", [prose("Marie Curie a vécu à Paris.", "fr")], TermProtector(TermProtectionConfig(use_ner=False))
    )
    assert df.iloc[0]["ner_skipped_reason"] == "NER switched off (use_ner=False)"


def test_english_and_undetermined_chunks_are_protected_as_before(protector):
    text = "As shown by Smith et al. (2024), John Smith reached 95.3% accuracy (Jones and Lee, 2019, p. 4)."
    legacy = protector.protect_text(text)  # a bare Chunk without a language: the pre-issue-17 path
    for language in ("en", None):
        pc = protector.protect(prose(text, language))
        assert pc.protected_text == legacy.protected_text and pc.term_placeholders == legacy.term_placeholders


def test_french_entities_of_ordinary_words_are_not_protected_but_names_are(protector):
    """A single ordinary word the model calls ORG, a quoted UI label and a title-case heading are ordinary
    words (all in the model's own lexicon); a name with a word the lexicon lacks, or several ordinary words
    in running text, is still a name."""
    text = (
        "Résultats Et Analyse Détaillée. La lecture du chapitre « Gestion des paquets » est recommandée : "
        "Documentation en ligne. Nous remercions Jean Mercier et Hélène Garnier pour leur relecture."
    )
    _, terms = _protect(protector, text, "fr")
    assert not {"Résultats Et Analyse Détaillée", "Analyse Détaillée", "Gestion des paquets", "Documentation"} & set(
        terms
    )
    assert {"Jean Mercier", "Hélène Garnier"} <= set(terms)


def test_ordinary_entity_rule():
    from textguard_pipeline.lib.nlp import model_lexicon
    from textguard_pipeline.protection.languages import ordinary_entity

    lexicon = model_lexicon("fr_core_news_sm")
    text = "Choisissez « Groupes actifs » puis OPTION ; la CNIL et Hélène Garnier ont répondu. Méthodes Et Protocole."
    span = lambda s: (text.index(s), text.index(s) + len(s))  # noqa: E731
    assert ordinary_entity(text, *span("Groupes actifs"), lexicon)  # quoted label
    assert ordinary_entity(text, *span("OPTION"), lexicon)  # one ordinary word, shouted
    assert ordinary_entity(text, *span("Protocole"), lexicon)
    assert ordinary_entity(text, *span("Méthodes Et Protocole"), lexicon)  # title-case heading
    assert not ordinary_entity(text, *span("CNIL"), lexicon)  # an acronym
    other = "Le Prix augmente. Selon la Banque dépend mal, dit-on."
    assert ordinary_entity(other, 3, 7, lexicon)  # an invariable noun (the lemmatizer's exception table)
    assert ordinary_entity(
        other, other.index("Banque"), other.index(" mal"), lexicon
    )  # a lower-case verb form (partial: the exception table)
    assert not ordinary_entity(text, *span("Hélène Garnier"), lexicon)  # words the lexicon lacks


def test_local_ranges_statistics_and_section_ranges(protector):
    _, terms = _protect(
        protector,
        "La hausse varie de 8,5 à 10,5 % selon les régions ; la précision va de 0,81 à 0,86 (p < 0,05), "
        "voir les §§ 7 à 9 du rapport.",
        "fr",
    )
    assert {"8,5 à 10,5 %", "0,81 à 0,86", "p < 0,05", "§§ 7 à 9"} <= set(terms)
    _, terms = _protect(
        protector,
        "Współczynnik F1 wynosi 0,87, a korelacja r = 0,42; zob. §§ 2 do 4. Ustalili to Nowicki i in., 2011, "
        "a potem długo o tym dyskutowano.",
        "pl",
    )
    assert {"0,87", "r = 0,42", "§§ 2 do 4", "Nowicki i in., 2011"} <= set(terms)
    assert not any(t.endswith(", a") for t in terms)  # the Polish "a" (and) is not a year letter


def test_citations_with_a_year_word_instead_of_a_year(protector):
    _, terms = _protect(
        protector,
        "Les avis divergent (Giraud, s. d.) et (Moreau, s.d.) ; Giraud (s. d.) le confirme, "
        "comme (Dupont et coll., sous presse). Le texte (Giraud, s. 12) n'est pas une citation datée.",
        "fr",
    )
    assert {
        "(Giraud, s. d.)": ("citation", "bracket"),
        "(Moreau, s.d.)": ("citation", "bracket"),
        "Giraud (s. d.)": ("citation", "narrative"),
        "(Dupont et coll., sous presse)": ("citation", "bracket"),
    }.items() <= terms.items()
    assert not any("s. 12" in t for t in terms)  # no year and no year word: a page, not a citation
    _, terms = _protect(
        protector,
        "Wyniki są różne (Górski, b.r.) oraz (Nowak, b. r.), a także (Górski i in., w druku); "
        "zob. też (Górski, s. 12).",
        "pl",
    )
    assert {"(Górski, b.r.)", "(Nowak, b. r.)", "(Górski i in., w druku)"} <= set(terms)
    assert not any("s. 12" in t for t in terms)
    _, terms = _protect(protector, "Results vary (Smith, n.d.) widely.", "en")
    assert terms == {"(Smith, n.d.)": ("citation", "bracket")}


def test_percent_written_as_a_word_is_one_span_with_its_number(protector):
    _, terms = _protect(
        protector,
        "Le chômage baisse de 12,5 pour cent, soit 40 pour cent des votants et de 8,5 à 10,5 pour cent "
        "selon les régions (7 pour-cent seulement). Il a acheté 3 pour cent francs ; un lit pour cent "
        "personnes ; 2 pour centaines.",
        "fr",
    )
    assert {
        "12,5 pour cent": ("number", "PCT"),
        "40 pour cent": ("number", "PCT"),
        "8,5 à 10,5 pour cent": ("number", "RANGE"),
        "7 pour-cent": ("number", "PCT"),
    }.items() <= terms.items()
    # "cent" before a plural noun is the numeral; no number, no percent; "centaines" is another word
    assert not any("francs" in t or "personnes" in t or "centaines" in t for t in terms)
    assert "3" not in terms and "3 pour cent" not in terms
    _, terms = _protect(
        protector,
        "Inflacja wzrosła o 3,5 proc. i 3,5 procent, potem o 2 procenta, 15 procentów, w 40 procentach "
        "i o 3–5 proc.; to 3 punkty procentowe, a 3 procentowy wzrost to co innego. Ile to procent?",
        "pl",
    )
    assert set(terms) == {"3,5 proc.", "3,5 procent", "2 procenta", "15 procentów", "40 procentach", "3–5 proc."}
    _, terms = _protect(protector, "Accuracy rose by 12,5 pour cent and 3,5 procent.", "en")
    assert not any("cent" in t for t in terms)  # English chunks are unchanged


@pytest.mark.parametrize("lang", ["en", "fr", "pl"])
def test_a_number_with_spaced_thousands_is_one_term_in_every_language(protector, lang):
    text = "Le corpus compte 125 000 phrases, 1 234,5 heures et 3\u202f400\u00a0000 mots sur 12 3456 lignes."
    pc, terms = _protect(protector, text, lang)
    assert {"125 000", "1 234,5", "3\u202f400\u00a0000"} <= set(terms)
    assert not any(t in ("000", "125", "234,5", "1", "3456") for t in terms)  # never a piece of one number


def test_a_setting_value_with_spaced_thousands_is_protected_whole(protector):
    _, terms = _protect(protector, "We trained for 125 000 epochs, then compared 2 3 or 4 runs in 1990 2000.", "en")
    assert "125 000" in terms and "000" not in terms
    assert not any(t in ("2 3", "1990 2000") for t in terms)
