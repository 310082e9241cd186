"""Per-language tables for protection (issue 17): French and Polish citation/number vocabularies,
the NER label maps, and the local number conventions (decimal comma, spaced thousands, ``%``
after a space).

The tables extend English's (:data:`~.vocabulary.ENGLISH`): a French or Polish paper still cites
``Smith et al., 2020`` and writes ``95.3%`` now and then. English chunks never see these tables
(``vocabulary(None|"en")`` is English only), so English output is unchanged.
"""

from __future__ import annotations

import re

from ..lib.nlp import ENTITY_LABELS
from .vocabulary import ENGLISH, Vocabulary, extend

#: model label → ours, per language; a label not listed is not protected (French MISC). One table with
#: the mentions detector: lib.nlp.ENTITY_LABELS.
NER_LABEL_MAPS: dict[str, dict[str, str]] = ENTITY_LABELS

#: languages that write ``0,87`` (decimal comma) and ``1 000 000`` (spaced thousands)
DECIMAL_COMMA: frozenset[str] = frozenset({"fr", "pl", "de", "es", "it", "pt", "cs", "sk", "ru", "uk", "nl"})

#: quotes that stay outside a protected span (« Dupont (2020) » protects the citation, not the quotes)
OUTER_QUOTES = "«»‹›„”“\u00a0\u202f\u2009 "

#: editor markers after an author list: ``Kowalski (red.) 2019``, ``Dupont (éd.), 2018``
EDITOR_MARKERS: tuple[str, ...] = ("red", "éd", "dir", "eds", "ed", "Hrsg", "coord", "oprac")

_FR_MONTHS = (
    "Janvier",
    "Février",
    "Mars",
    "Avril",
    "Mai",
    "Juin",
    "Juillet",
    "Août",
    "Septembre",
    "Octobre",
    "Novembre",
    "Décembre",
)
_PL_MONTHS = (
    "Styczeń",
    "Luty",
    "Marzec",
    "Kwiecień",
    "Maj",
    "Czerwiec",
    "Lipiec",
    "Sierpień",
    "Wrzesień",
    "Październik",
    "Listopad",
    "Grudzień",
)

# "cent" right before a plural noun is the numeral ("3 pour cent francs" = three for a hundred francs), not a percent;
# percent use is followed by punctuation or a small word ("12,5 pour cent des votants")
_FR_NOT_A_NOUN = "des|dans|plus|moins|sous|sans|vers|alors|depuis|après|puis|seulement|environ"
_FR_PERCENT = rf"pour[\s\u00a0-]cent(?![^\W\d_])(?!\s+(?!(?:{_FR_NOT_A_NOUN})(?![^\W\d_]))[^\W\d_]+[sx](?![^\W\d_]))"

FRENCH: Vocabulary = extend(
    ENGLISH,
    not_surnames=(
        *_FR_MONTHS,
        "Tableau",
        "Tableaux",
        "Chapitre",
        "Annexe",
        "Équation",
        "Partie",
        "Tome",
        "Depuis",
        "Dans",
        "Selon",
        "Voir",
        "Le",
        "Les",
        "La",
        "Un",
        "Une",
        "Des",
        "Du",
        "En",
        "Et",
        "Ou",
        "Mais",
        "Pour",
        "Par",
        "Sur",
        "Avec",
        "Entre",
        "Avant",
        "Après",
        "Vers",
        "Loi",
        "Décret",
        "Article",
        "Règlement",
        "Édition",
        "Numéro",
    ),
    conjunctions=("et",),
    et_al=(r"et\s+coll", r"et\s+collab", r"et\s+alii"),
    prefixes=(r"voir\s+aussi", "voir", r"p\.\s?ex\.", r"par\s+exemple", r"notamment", r"d['’]après", r"selon"),
    locators=("p", "pp", "chap", "tabl", "tableau", "éq", "annexe", "t", "vol", "n°", "no"),
    year_words=(r"s\.\s?d\.", r"sous\s+presse", r"à\s+paraître"),
    metric_words=(
        "précision",
        "exactitude",
        "rappel",
        r"F-mesure",
        r"mesure\s+F",
        "erreur",
        "erreurs",
        "perte",
        "moyenne",
        "médiane",
        "écart-type",
        "taux",
        "valeur",
        "valeurs",
        "résultat",
        "résultats",
        "corrélation",
        "justesse",
        "performance",
        "performances",
    ),
    range_words=("à",),
    percent_words=(_FR_PERCENT,),
    openers=("Comme", "Selon", "Ainsi", "Pourtant", "Cependant", "Enfin", "Ici"),
)

POLISH: Vocabulary = extend(
    ENGLISH,
    not_surnames=(
        *_PL_MONTHS,
        "Tabela",
        "Tabeli",
        "Rozdział",
        "Rozdziale",
        "Rysunek",
        "Rysunku",
        "Wzór",
        "Dodatek",
        "Część",
        "Tom",
        "Zob",
        "Por",
        "Patrz",
        "Od",
        "Do",
        "Na",
        "Po",
        "Przez",
        "Przed",
        "Dla",
        "Ten",
        "Ta",
        "To",
        "Te",
        "Ale",
        "Oraz",
        "Lub",
        "Według",
        "Wersja",
        "Wydanie",
        "Rok",
        "Roku",
        "Ustawa",
        "Ustawy",
        "Rozporządzenie",
        "Artykuł",
        "Numer",
        "Polska",
        "Polski",
    ),
    conjunctions=("i", "oraz"),
    et_al=(r"i\s+in", r"i\s+wsp", r"i\s+współpr"),
    prefixes=("zob", r"zob\.", r"zob\.\s+też", r"por\.", r"np\.", r"patrz", r"za"),
    locators=("s", "ss", "str", "rozdz", "rys", "tab", "tabela", "wzór", "t", "nr", "poz", "art", "ust"),
    year_words=(r"b\.\s?r\.", r"w\s+druku", r"w\s+przygotowaniu"),
    metric_words=(
        r"dokładnoś\w*",
        r"precyzj\w*",
        r"czułoś\w*",
        r"trafnoś\w*",
        r"kompletnoś\w*",
        r"błęd\w*",
        r"błąd",
        r"strat\w*",
        r"średni\w*",
        r"median\w*",
        r"wartoś\w*",
        r"wynik\w*",
        r"miar\w*\s+F",
        r"korelacj\w*",
        r"skutecznoś\w*",
        r"odsetek",
        r"odsetka",
        r"wskaźnik\w*",
        r"współczynnik\w*",
        r"odchyleni\w*\s+standardow\w*",
        r"wariancj\w*",
    ),
    range_words=("do",),
    # "proc." and the noun "procent" in its cases (procenta, procentu, procentów, procencie …); not the
    # adjective "procentowy" ("punkt procentowy" is a percentage point, left open)
    percent_words=(r"proc\.", r"procen(?:t(?:a|u|y|ów|om|ami|ach|em)?|cie)(?![^\W\d_])"),
    openers=("Jak", "Według", "Zgodnie", "Jednak", "Podobnie", "Natomiast"),
)

#: the languages :data:`~.vocabularies.VOCABULARIES` adds to English
LANGUAGE_VOCABULARIES: dict[str | None, Vocabulary] = {"fr": FRENCH, "pl": POLISH}


#: small words a name may contain that say nothing about it ("Conseil d'État", "Société de la Mer")
NAME_PARTICLES: frozenset[str] = frozenset(
    {"de", "d", "du", "des", "la", "le", "les", "l", "et", "à", "au", "aux", "en", "sur", "pour"}
)
_WORD = re.compile(r"[^\W\d_]+")
_OPEN_QUOTES = "«“\"‹„'"
_CLOSE_QUOTES = "»”\"›“'"


#: all-capital words of computing and science that a small model tags as organisations ("CPU" in "a CPU
#: bound task", also inside a reference title): ordinary words of the field, in any language
FIELD_ACRONYMS = frozenset(
    "CPU GPU TPU NPU FPGA ASIC RAM ROM DRAM SRAM SSD HDD USB PCI PCIe BIOS UEFI OS VM API SDK CLI GUI IDE URL URI "
    "HTTP HTTPS TCP UDP IP DNS SSH TLS SSL FTP SMTP JSON XML YAML TOML HTML CSS SQL CSV PDF PNG JPEG SVG ASCII UTF "
    "LLM NLP NER AI ML DL RL CNN RNN LSTM GAN MLP SVM PCA FFT ODE PDE MSE RMSE MAE AUC ROC BLEU IID FAQ PR CI CD "
    "MCMC OCR ASR TTS QA IO RPC REST CRUD GPL MIT BSD".split()
)


def ordinary_acronym(text: str) -> bool:
    """``text`` is one of :data:`FIELD_ACRONYMS` (a plural "GPUs" too)."""
    t = text.strip()
    return t in FIELD_ACRONYMS or (t.endswith("s") and t[:-1] in FIELD_ACRONYMS)


def ordinary_entity(text: str, start: int, end: int, lexicon) -> bool:
    """True when an entity a small model found in ``text[start:end]`` is ordinary words whose capitals
    say nothing: every word of it is in the language's ``lexicon`` (no unknown word such as most
    surnames, no acronym of two to four letters; one-letter words are skipped) and it is a single word
    ("Manipulation" or "OPTION" as ORG), a quoted label (« Groupes actifs »), or part of a title-case
    heading ("Méthodes Et Protocole Expérimental."); or it holds a lower-case verb form ("F-mesure
    varie"). Names of several ordinary words in running text ("Jean Mercier") stay."""
    words = [w for w in _WORD.findall(text[start:end]) if w.lower() not in NAME_PARTICLES and len(w) > 1]
    if any(w.islower() and lexicon.is_verb_form(w) for w in words):
        return True  # a name holds no conjugated verb in lower case ("La F-mesure varie entre …")
    if not words or any(w.isupper() and len(w) <= 4 for w in words) or not all(w in lexicon for w in words):
        return False
    if len(words) == 1:
        return True
    opened = text[:start].rstrip(" \u00a0\u202f")[-1:]
    closed = text[end:].lstrip(" \u00a0\u202f")[:1]
    if opened and opened in _OPEN_QUOTES and closed and closed in _CLOSE_QUOTES:
        return True
    return _title_case_sentence(text, start, end)


def _title_case_sentence(text: str, start: int, end: int) -> bool:
    """The sentence around ``[start, end)`` has every word capitalised (a heading run into the text)."""
    lo = max(text.rfind(c, 0, start) for c in ".!?\n") + 1
    his = [i for i in (text.find(c, end) for c in ".!?\n") if i >= 0]
    words = _WORD.findall(text[lo : min(his) if his else len(text)])
    return len(words) >= 2 and all(w[0].isupper() for w in words)


def language_metadata(frames) -> dict:
    """Asset metadata over ``protected_chunks`` frames: prose chunks per language, and per language
    the NER model that read them or the reason none did (e.g. ``pl: no spaCy model for language 'pl'``)."""
    by_language: dict[str, int] = {}
    ner: dict[str, str] = {}
    for df in frames:
        if "language" not in getattr(df, "columns", ()):
            continue
        for lang, model, reason in zip(df["language"], df["ner_model"], df["ner_skipped_reason"]):
            key = lang if isinstance(lang, str) else "und"  # None / NA: undetermined
            by_language[key] = by_language.get(key, 0) + 1
            ner.setdefault(key, str(model) if isinstance(model, str) else f"off: {reason}")
    return {"chunks_by_language": by_language, "ner_by_language": ner}
