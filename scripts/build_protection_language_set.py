"""Build textguard_pipeline_tests/protection/data/language_protection.jsonl (issue 17 item 5).

A labelled protection set per language (en, fr, pl), two kinds of chunk:

* ``man``: prose paragraphs of the manual pages Debian packages install in English, French and
  Polish (man-db, dpkg, procps, passwd, vim, debianutils, psmisc, …; none of the acceptance
  packages). Real text with ordinary words and few protectable forms: it measures that no
  ordinary phrase is hidden. Proper names a model may protect are labelled in ``allowed``
  (reviewed by hand in ``MAN_ALLOWED`` below); everything else protected there is a false positive.
* ``written``: sentences written for this set with each language's local forms (decimal comma,
  spaced thousands, ``%`` after a space, ``i in.``/``et coll.``, ``s.``/``p.``, ``red.``/``éd.``, ``§``,
  « » quotes, metric words) and, for English and French, personal names. Their spans are labelled
  at construction (``expected``). Polish personal names outside citations are listed in
  ``unprotected_names``: with NER off for Polish they are not protected (docs/languages.md).

Examples alternate between "tune" and "heldout" per language and kind; tests assert on "heldout".
Run: python scripts/build_protection_language_set.py
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
from functools import lru_cache
from pathlib import Path

OUT = (
    Path(__file__).resolve().parents[1]
    / "textguard_pipeline_tests"
    / "protection"
    / "data"
    / "language_protection.jsonl"
)
MAN = {"en": "/usr/share/man", "fr": "/usr/share/man/fr", "pl": "/usr/share/man/pl"}
EXCLUDED_PACKAGES = {
    "texlive-publishers-doc",
    "texlive-latex-base-doc",
    "texlive-lang-polish",
    "python3.11-doc",
    "debian-policy",
    "developers-reference",
    "debian-faq",
}
MAN_PER_LANGUAGE = 60
WRITTEN_PER_LANGUAGE = 60

#: proper names in the man-page paragraphs that a model may protect (reviewed by hand, not required)
MAN_ALLOWED = (
    "Debian",
    "GNU",
    "Linux",
    "Unix",
    "UNIX",
    "POSIX",
    "Vim",
    "Vi",
    "Bram Moolenaar",
    "Free Software Foundation",
    "dpkg",
    "apt",
    "APT",
    "Emacs",
    "X11",
    "X Window System",
    "GTK",
    "Motif",
    "Perl",
    "Python",
    "Ruby",
    "Tcl",
    "Lua",
    "MS-DOS",
    "Windows",
    "Amiga",
    "BSD",
    "System V",
    "Solaris",
    "GNOME",
    "KDE",
    "Ubuntu",
    "Internet",
    "NFS",
    "Sun",
    "SunOS",
    "FreeBSD",
    "NetBSD",
    "OpenBSD",
    "Mac",
    "macOS",
    "Red Hat",
    "Colin Watson",
    "John W. Eaton",
    "Wilmer van der Gaast",
    "Graeme W. Wilford",
    "Ian Jackson",
    "Guillem Jover",
    "Raphaël Hertzog",
    "Juergen Weigert",
    "Gnu",
    "Xterm",
    "xterm",
    "GNU/Linux",
    "Fedora",
    "SELinux",
    "PAM",
    "Shadow",
    "Julianne Frances Haugh",
    "Tomasz Kłoczko",
    "Nicolas François",
    "The FreeBSD Project",
    # protocol, signal and environment-variable names: identifiers an LLM must keep verbatim
    "TLS",
    "HTTPS",
    "HTTP",
    "SSL",
    "PID",
    "PIDs",
    "HUP",
    "INT",
    "KILL",
    "TERM",
    "STOP",
    "CONT",
    "USR1",
    "PAGER",
    "MANPAGER",
    "EDITOR",
    "VISUAL",
    "SHELL",
    "PATH",
    "MANPATH",
    "LANG",
    "LC_ALL",
    "TERM",
    "UID",
    "GID",
    "UTF-8",
    "ASCII",
    "ISO",
    "RFC",
    "CPU",
    "RAM",
    "TTY",
    "URL",
    "URI",
    "DNS",
    "IP",
    "TCP",
    "UDP",
)
#: function words that tell a translated paragraph from an untranslated (English) one left in a page
FUNCTION_WORDS = {
    "en": {"the", "is", "are", "of", "to", "and", "with", "for", "that", "this", "be", "by", "or"},
    "fr": {"le", "la", "les", "des", "est", "une", "pour", "dans", "que", "qui", "avec", "sur", "du", "et"},
    "pl": {"się", "nie", "jest", "w", "z", "na", "do", "że", "to", "jak", "lub", "oraz", "jeśli", "dla"},
}
_HEADING = re.compile(r"^(?:[A-ZÀ-ÝĄĆĘŁŃÓŚŹŻ]{3,}\s+)+(?=[A-ZÀ-ÝĄĆĘŁŃÓŚŹŻ][a-zà-ÿąćęłńóśźż])")


def in_language(text: str, lang: str) -> bool:
    """The paragraph's function words are mostly ``lang``'s (a page's untranslated paragraphs are left out)."""
    words = re.findall(r"[^\W\d_]+", text.lower())
    counts = {lg: sum(w in fw for w in words) for lg, fw in FUNCTION_WORDS.items()}
    return counts[lang] >= 3 and counts[lang] > max(v for lg, v in counts.items() if lg != lang)


_SURNAMES = {
    "en": ["Smith", "Johnson", "Brown", "Taylor", "Wilson", "Clarke", "Walker", "Hughes", "Green", "Baker"],
    "fr": [
        "Dupont",
        "Lefèvre",
        "Moreau",
        "Girard",
        "Rousseau",
        "Fontaine",
        "Chevalier",
        "Lambert",
        "Bonnet",
        "Mercier",
    ],
    "pl": [
        "Kowalski",
        "Nowak",
        "Wiśniewska",
        "Wójcik",
        "Kamińska",
        "Lewandowski",
        "Zieliński",
        "Szymańska",
        "Woźniak",
        "Dąbrowski",
    ],
}
_GIVEN = {
    "en": ["Alice", "Robert", "Helen", "Thomas", "Sarah", "Daniel", "Emma", "George"],
    "fr": ["Marie", "Jean", "Camille", "Pierre", "Sophie", "Louis", "Claire", "Antoine"],
    "pl": ["Anna", "Piotr", "Katarzyna", "Tomasz", "Magdalena", "Michał", "Agnieszka", "Paweł"],
}
# sentence frames: {c} a citation, {n} a number form, {p} a person's full name
_FRAMES = {
    "en": [
        "In our experiments the accuracy reached {n} on the test split {c}.",
        "As reported {c}, the model keeps its precision of {n} across domains.",
        "{p} argued that the recall of {n} is too low for clinical use.",
        "The error rate fell to {n} after the second round of training {c}.",
        "This idea goes back to earlier work {c}; {p} later extended it.",
        "We thank {p} for comments on an earlier draft of this paper.",
    ],
    "fr": [
        "Dans nos expériences, la précision atteint {n} sur le jeu de test {c}.",
        "Comme l'ont montré les auteurs {c}, le rappel reste de {n} sur tous les domaines.",
        "{p} a soutenu que ce taux de {n} était trop faible pour un usage clinique.",
        "L'erreur moyenne est descendue à {n} après la deuxième phase d'entraînement {c}.",
        "Cette idée remonte à des travaux plus anciens {c} ; {p} l'a ensuite généralisée.",
        "Nous remercions {p} pour ses remarques sur une version antérieure de cet article.",
        "Le titre de l'ouvrage cité est « Méthodes d'évaluation » {c}.",
    ],
    "pl": [
        "W naszych eksperymentach dokładność wyniosła {n} na zbiorze testowym {c}.",
        "Jak pokazali autorzy {c}, czułość pozostaje na poziomie {n} we wszystkich dziedzinach.",
        "{p} twierdzi, że wynik {n} jest zbyt niski do zastosowań klinicznych.",
        "Średni błąd spadł do {n} po drugiej rundzie uczenia {c}.",
        "Ten pomysł pochodzi z wcześniejszych prac {c}; {p} później go uogólnił.",
        "Dziękujemy, że {p} przeczytał wcześniejszą wersję tego artykułu.",
    ],
}


def _numbers(lang: str, rng: random.Random) -> str:
    a, b, c = rng.randint(1, 99), rng.randint(0, 9), rng.randint(10, 99)
    if lang == "en":
        forms = [
            f"{a}.{b}%",
            f"0.{c}",
            f"{a}.{b} ± 0.{b}",
            f"{rng.randint(1, 9)},{rng.randint(100, 999)},000",
            f"{a}.{b}–{a + 2}.{b}%",
        ]
    else:
        pct = "\u202f%" if lang == "fr" and rng.random() < 0.5 else " %"
        thousands = rng.choice([" ", "\u00a0", "\u202f"])
        forms = [
            f"{a},{b}{pct}",
            f"0,{c}",
            f"{a},{b} ± 0,{b}",
            f"{rng.randint(1, 9)}{thousands}{rng.randint(100, 999)}{thousands}000",
            f"{a},{b}–{a + 2},{b}{pct}",
            f"{a}{pct}",
        ]
    return rng.choice(forms)


def _citation(lang: str, rng: random.Random) -> str:
    s = _SURNAMES[lang]
    x, y = rng.sample(s, 2)
    year = rng.randint(1985, 2024)
    page = rng.randint(3, 420)
    forms = {
        "en": [
            f"({x} et al., {year})",
            f"({x} and {y}, {year})",
            f"({x}, {year}, p. {page})",
            f"({x} {year})",
            f"(see {x} et al., {year})",
        ],
        "fr": [
            f"({x} et coll., {year})",
            f"({x} et {y}, {year})",
            f"({x}, {year}, p. {page})",
            f"({x} et al., {year})",
            f"(voir {x}, {year})",
            f"({x} (éd.), {year})",
            f"(§ {rng.randint(2, 40)})",
        ],
        "pl": [
            f"({x} i in., {year})",
            f"({x} i wsp., {year})",
            f"({x} i {y}, {year})",
            f"({x}, {year}, s. {page})",
            f"(zob. {x}, {year})",
            f"({x} (red.), {year})",
            f"(§ {rng.randint(2, 40)})",
        ],
    }[lang]
    return rng.choice(forms)


def written(lang: str, n: int) -> list[dict]:
    rng = random.Random(f"issue17-{lang}")
    out = []
    for i in range(n):
        frames = rng.sample(_FRAMES[lang], 2)
        text, expected, names = "", [], []
        for frame in frames:
            parts = {
                "c": _citation(lang, rng),
                "n": _numbers(lang, rng),
                "p": f"{rng.choice(_GIVEN[lang])} {rng.choice(_SURNAMES[lang])}",
            }
            sentence = frame.format(**parts)
            text += (" " if text else "") + sentence
            for key in ("c", "n"):
                if "{" + key + "}" in frame:
                    expected.append(_inner(parts[key]) if key == "c" else parts[key])
            if "{p}" in frame:
                (names if lang == "pl" else expected).append(parts["p"])
        out.append(
            {
                "language": lang,
                "kind": "written",
                "text": text,
                "expected": expected,
                "allowed": [],
                "unprotected_names": names,
                "source": "written for this set (scripts/build_protection_language_set.py)",
            }
        )
    return out


def _inner(citation: str) -> str:
    """The span a citation protects: a bracket wholly made of citations is protected with its brackets,
    except the editor form and § whose inner text is the citation."""
    if "(éd.)" in citation or "(red.)" in citation or citation.startswith("(§"):
        return citation[1:-1]
    return citation


@lru_cache(maxsize=None)
def package_of(path: str) -> str:
    out = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    return out.stdout.split(":", 1)[0].strip() if out.returncode == 0 else "unknown"


def render(path: str) -> str:
    env = {**os.environ, "MANWIDTH": "3000", "LANG": "C.UTF-8", "MAN_KEEP_FORMATTING": "0"}
    out = subprocess.run(["man", "-l", "-E", "UTF-8", path], capture_output=True, env=env)
    return subprocess.run(["col", "-b"], input=out.stdout, capture_output=True, env=env).stdout.decode(
        "utf-8", "replace"
    )


def man_paragraphs(lang: str, n: int) -> list[dict]:
    base = Path(MAN[lang])
    pages = sorted(
        str(p)
        for sec in ("man1", "man5", "man8")
        if (base / sec).is_dir()
        for p in (base / sec).iterdir()
        if p.name.endswith(".gz")
    )
    if lang == "en":  # the originals of the translated pages
        names = {
            Path(p).name
            for lg in ("fr", "pl")
            for sec in ("man1", "man5", "man8")
            for p in (Path(MAN[lg]) / sec).glob("*.gz")
        }
        pages = [p for p in pages if Path(p).name in names]
    per_page: dict[str, list[str]] = {}
    seen: set[str] = set()
    for page in pages:
        pkg = package_of(page)
        if pkg in EXCLUDED_PACKAGES:
            continue
        for para in re.split(r"\n[ \t]*\n", render(page)):
            flat = " ".join(line.strip() for line in para.splitlines() if line.strip())
            flat = _HEADING.sub("", flat)  # a section heading ("DESCRIPTION") run into its paragraph
            letters = sum(ch.isalpha() or ch.isspace() for ch in flat)
            if (
                flat
                and in_language(flat, lang)
                and (
                    200 <= len(flat) <= 900
                    and letters / len(flat) > 0.85
                    and "\t" not in para
                    and len(flat.split()) >= 30
                    and flat not in seen
                )
            ):
                seen.add(flat)
                per_page.setdefault(page, []).append(flat)
    picked: list[tuple[str, str]] = []
    while len(picked) < n and any(per_page.values()):
        for page in list(per_page):
            if per_page[page] and len(picked) < n:
                picked.append((page, per_page[page].pop(0)))
    return [
        {
            "language": lang,
            "kind": "man",
            "text": text,
            "expected": man_expected(text),
            "allowed": man_allowed(text),
            "unprotected_names": [],
            "source": f"{package_of(page)}: {page}",
        }
        for page, text in picked
    ]


_PERCENT = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)?[ \u00a0\u202f]?%")


#: upper-case identifiers with an underscore or a digit (SELECTED_EDITOR, LC_ALL, USR1): names, never ordinary words
_IDENTIFIER = re.compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")


def man_allowed(text: str) -> list[str]:
    """Proper names and identifiers of a manual-page paragraph that a model may protect (not required)."""
    names = [a for a in MAN_ALLOWED if re.search(rf"(?<!\w){re.escape(a)}(?!\w)", text)]
    return names + sorted({m.group() for m in _IDENTIFIER.finditer(text)} - set(names))


def man_expected(text: str) -> list[str]:
    """Labels of a manual-page paragraph: its percentages (always protected, §5.3, in every language)."""
    return [m.group() for m in _PERCENT.finditer(text)]


def main() -> None:
    rows = []
    for lang in ("en", "fr", "pl"):
        for kind_rows in (man_paragraphs(lang, MAN_PER_LANGUAGE), written(lang, WRITTEN_PER_LANGUAGE)):
            for i, r in enumerate(kind_rows):
                r["split"] = "tune" if i % 2 == 0 else "heldout"
                rows.append(r)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open("w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{len(rows)} examples → {OUT}")


if __name__ == "__main__":
    main()
