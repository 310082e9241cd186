"""The word tables behind the citation and number patterns, per language.

Only the patterns' *vocabulary* lives here (month names, locator abbreviations,
hyper-parameter names …), so that a language (issue 17) adds or extends a
:class:`Vocabulary` instead of editing regular expressions. ``vocabularies.VOCABULARIES``
maps an ISO code to its tables; ``None``/unknown codes use English.
"""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Vocabulary:
    """Tables one language's citation and number conventions are built from (regex fragments allowed
    where a word has variants, e.g. ``Q[1-4]``)."""

    #: capitalised words that look like a surname before a year but never are (any citation form)
    not_surnames: tuple[str, ...]
    #: words that are rarely surnames and often name a thing with a year-like number ("Expo 2005",
    #: "Room 2014", "Windows 2000"): refused only in the comma-less forms ("Name 2015")
    not_surnames_weak: tuple[str, ...]
    #: lower-case name particles (van, de, …); the first letter may be capitalised
    particles: tuple[str, ...]
    #: words joining the last two authors
    conjunctions: tuple[str, ...]
    #: "et al." spellings (regex, lower case)
    et_al: tuple[str, ...]
    #: prefixes inside a citation bracket ("see", "e.g.", "cf.")
    prefixes: tuple[str, ...]
    #: locator words before a number ("p.", "table", "fig."); case-insensitive, optional final dot
    locators: tuple[str, ...]
    #: words before a narrative "Name 2015" that say it is not a citation ("the Expo 2005")
    determiners: tuple[str, ...]
    #: status words standing for a year ("in press", "n.d.")
    year_words: tuple[str, ...]
    #: words near which a bare decimal is a metric (E6)
    metric_words: tuple[str, ...]
    #: named settings whose value follows them ("batch size 32", "learning rate of 3e-4")
    parameters: tuple[str, ...]
    #: linking words between a setting's name and its value ("of", "set to", "=")
    parameter_links: tuple[str, ...]
    #: count nouns after a setting's value ("10 epochs", "50000 samples")
    count_nouns: tuple[str, ...]
    #: words joining the two ends of a number range ("to")
    range_words: tuple[str, ...]
    #: capitalised words that may open a sentence before a narrative "Name 2015" ("As Novak 2015 showed")
    openers: tuple[str, ...] = ()
    #: trailing remarks inside a citation bracket ("and references therein")
    suffixes: tuple[str, ...] = ()
    #: nouns a cited work qualifies ("the Einasto 1965 density profile"): a determiner before a
    #: narrative "Name 2015" is then no sign of a look-alike
    cited_nouns: tuple[str, ...] = ()
    #: words that open a venue's name ("Proceedings of Eurocrypt 2001"): a "Name 2015" after them is a venue
    venue_heads: tuple[str, ...] = ()
    #: statistic symbols before a comparison ("p < .05", "r = 0.87")
    stat_symbols: tuple[str, ...] = ()
    #: capitalised words that never open a journal's or organisation's name before a citation's year
    #: ("(June, 2020)" is a date, "(Windows, 2000)" a product; "(Biometrics, 2001)" is cited)
    not_venues: tuple[str, ...] = ()
    #: words written for ``%`` after a number ("12,5 pour cent", "3,5 proc."); read by the local-number
    #: recogniser of the decimal-comma languages only (English chunks are unchanged)
    percent_words: tuple[str, ...] = ()


# The word tables stay dense (one language readable at a glance): not reformatted.
# fmt: off
_MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December", "Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec",
)

ENGLISH = Vocabulary(
    not_surnames=(
        *_MONTHS, "Spring", "Summer", "Autumn", "Fall", "Winter",
        "Section", "Sections", "Sec", "Table", "Tables", "Figure", "Figures", "Fig", "Figs", "Eq", "Eqs",
        "Equation", "Chapter", "Ch", "Appendix", "Page", "Pages", "Part", "Version", "Release", "Volume", "Vol",
        "Issue", "Step", "Stage", "Phase", "Level", "Since", "Until", "In", "On", "At", "By", "From", "For", "To",
        "Of", "The", "This", "That", "These", "Those", "See", "Also", "And", "Or", "But", "Copyright", "Windows",
        "Python", "Java", "Rev", "Update", "Edition", "Year", "Years", "Q[1-4]", "Note", "Example", "Draft",
        "Published", "Accessed", "Retrieved", "RFC", "ISO", "IEEE",
        # institutions and journals: "Smithsonian Astrophysical Observatory (2021)", "(Biometrics, 2001)"
        "Observatory", "University", "Institute", "Laboratory", "Society", "Association", "Agency", "Department",
        "Foundation", "Journal", "Proceedings", "Transactions", "Annals", "Letters", "Biometrics", "Biometrika",
        "Econometrica",
    ),
    not_surnames_weak=(
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday", "Christmas", "Easter",
        "Room", "Rooms", "Gate", "Gates", "Building", "Floor", "Suite", "Box", "Platform", "Terminal", "Office",
        "Street", "St", "Road", "Rd", "Avenue", "Ave", "Boulevard", "Route", "Highway", "Flight", "Bus", "Train",
        "Unit", "Apt", "Apartment", "Block", "Zone", "Code", "Postcode", "Zip", "Station", "Bed", "Lot",
        "Model", "Models", "Series", "Type", "Mk", "Class", "No", "Number", "Nr", "Item", "Order",
        "Patient", "Participant", "Subject", "Group", "Run", "Trial", "Experiment", "Wave", "Cohort", "Sample",
        "Expo", "Olympics", "Olympic", "Games", "Cup", "Euro", "World", "Summit", "Conference", "Workshop",
        "Eurocrypt", "Crypto", "Asiacrypt", "Usenix", "Siggraph", "Interspeech", "SemEval", "TensorFlow",
        "PyTorch", "ImageNet", "Keras", "Eurospeech", "Proceedings",
        "Symposium", "Congress", "Meeting", "Festival", "Exhibition", "Championship", "Championships",
        "Census", "Budget", "Act", "Law", "Plan", "Agenda", "Vision", "Strategy", "Report", "Survey", "Election",
        "Elections", "Class", "Cohort", "Batch", "Week", "Month", "Today", "Now", "Then", "Before", "After",
        "Around", "About", "Circa", "During", "Between", "Early", "Late", "Mid", "Until", "Through", "Up", "Over",
        "Under", "Below", "Above", "Top", "Server", "Studio", "Vista", "Word", "Excel", "Fortran", "Ada", "Perl",
        "Ruby", "Matlab", "Mathematica", "Maple", "Unicode", "ECMAScript", "Boeing", "Airbus", "Cessna", "Nokia",
        "Canon", "Nikon", "Sony", "Samsung", "Galaxy", "Pentium", "Intel", "Ryzen", "Xeon", "Core", "Tesla",
        "Ubuntu", "Debian", "Fedora", "Android", "Linux", "Kernel", "Mac", "Office", "Professional", "Edition",
        "Ed", "Vintage", "Anno", "Year", "Term", "Semester", "Quarter", "Season", "Round", "Stage", "Chapter",
        "Lines", "Line", "Row", "Column", "Col", "Slide", "Frame", "Track", "Channel", "Port", "Pin",
    ),
    particles=("van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "dos", "das", "le", "la", "ter",
               "ten", "al", "el", "bin", "ibn", r"st\.?"),
    conjunctions=("and", "&", "&amp;"),
    et_al=(r"et\s*\.?\s*al",),
    prefixes=(r"see\s+also", "see", r"e\.\s?g\.", r"cf\.", r"i\.\s?e\.", r"for\s+example", r"for\s+instance",
              "also", r"as\s+in", r"but\s+see", r"compare", r"reviewed\s+in", r"as\s+reviewed\s+by",
              r"discussed\s+in", r"following", r"after", r"from", r"in", r"via", r"based\s+on", r"adapted\s+from"),
    locators=("pp", "p", "pg", "pgs", "ch", "chap", "chapter", "chapters", "sec", "sect", "section", "sections",
              "para", "fig", "figs", "figure", "figures", "tab", "table", "tables", "eq", "eqs", "equation",
              "equations", "app", "appendix", "vol", "no", "n", "note", "fn", "footnote", "ll", "l", "line", "lines",
              "col", "cols", "thm", "theorem", "lemma", "prop", "def", "definition", "alg", "algorithm", "box",
              "panel", "§§", "§"),
    determiners=("the", "a", "an", "this", "that", "these", "those", "our", "their", "its", "his", "her", "my",
                 "your", "each", "every", "per", "no", "room", "gate", "model", "version"),
    year_words=(r"n\.\s?d\.", r"in\s+press", "forthcoming", r"in\s+prep\.?", r"submitted"),
    metric_words=(
        "accuracy", "accuracies", "precision", "recall", r"F[-_ ]?1", r"F[-_ ]?score", "f-measure", "AUC", "ROC",
        "BLEU", r"ROUGE(?:-[\dLlSsWw]+)?", "METEOR", "chrF", "TER", "WER", "CER", "perplexity", "PPL", "mAP", "IoU",
        "top-?[15]", r"exact\s+match", "EM", "score", "scores", "error", "loss", "correlation", "p-value",
        r"significan\w*", "mean", "average", "median", "std", "variance", "result", "results", "value",
        "ratio", "split", r"R\^?2", "R²", r"R-squared",
    ),
    parameters=(
        r"learning[\s-]+rates?", "lr", r"(?:mini-?)?batch[\s-]+sizes?", r"epochs?", r"dropout(?:[\s-]+rate)?",
        r"temperature", r"top-?[kp]", r"nucleus(?:[\s-]+sampling)?", r"weight[\s-]+decay", "momentum",
        r"warm-?up(?:[\s-]+(?:steps|ratio|epochs))?", r"beam[\s-]+(?:size|width)", r"hidden[\s-]+(?:size|dim\w*)",
        r"embedding[\s-]+(?:size|dim\w*)", r"(?:max(?:imum)?[\s-]+)?(?:sequence|context|input)[\s-]+length",
        r"max[\s-]+(?:new[\s-]+)?tokens", r"gradient[\s-]+clipping", r"(?:label[\s-]+)?smoothing",
        r"samples?", r"ratio", r"seed", r"(?:training[\s-]+)?steps",
        r"iterations", r"patience", r"rank", r"lora[\s-]+(?:rank|alpha)", r"number[\s-]+of[\s-]+\w+",
        r"sample[\s-]+size", r"threshold", r"penalty", r"decay[\s-]+rate", r"kl[\s-]+coefficient",
        # a parameter's documented default is its value: "defaults to `80`", "default=5", "[default: 100]"
        r"defaults?",
    ),
    parameter_links=(r"of", r"was", r"is", r"were", r"are", r"set\s+to", r"fixed\s+(?:at|to)", r"equal\s+to",
                     r"to", r"at", r"="),
    count_nouns=(r"epochs?", r"samples", r"examples", r"steps", r"iterations", r"updates", r"tokens",
                 r"instances", r"images", r"sentences", r"documents", r"utterances", r"episodes", r"runs",
                 r"seeds", r"folds", r"trials", r"participants", r"subjects", r"respondents", r"warm-?up\s+steps",
                 r"training\s+(?:steps|examples|samples|images|epochs)"),
    range_words=("to",),
    openers=("As", "Like", "Unlike", "Thus", "Hence", "Here", "Recently", "Later", "Earlier", "Similarly",
             "However", "Moreover", "Furthermore", "Indeed", "While", "Although", "Whereas", "According", "Per",
             "Then", "Both", "Following", "After", "Before", "Yet", "So", "Notably", "Originally", "First",
             "Second", "Finally", "Using", "With", "We", "Our", "Only", "Even", "Note", "Work", "Studies"),
    suffixes=(r"and\s+references\s+(?:therein|cited\s+therein)", r"for\s+(?:a|an)\s+(?:review|overview)",
              r"for\s+(?:more\s+)?details", r"for\s+(?:a\s+)?discussion", r"and\s+others", r"among\s+others",
              r"private\s+communication", r"in\s+prep(?:aration|\.)?"),
    cited_nouns=("model", "models", "profile", "form", "formula", "formulas", "paper", "method", "approach",
                 "algorithm", "correction", "convention", "relation", "function", "estimator", "test", "data",
                 "dataset", "catalog", "catalogue", "fit", "fits", "definition", "parameterization",
                 "parametrization", "scheme", "prescription", "simulation", "simulations", "results", "analysis",
                 "sample", "survey", "implementation", "procedure", "statistic", "criterion", "bound", "theorem",
                 "equation", "equations", "calibration", "measurement", "measurements", "solution", "code"),
    venue_heads=("Proceedings", "Conference", "Workshop", "Symposium", "Congress", "Meeting", "Transactions",
                 "Journal", "Annals", "Advances", "Findings", "Volume", "Vol"),
    stat_symbols=("p", "P", "r", "t", "d", "F", "χ", "χ2", "χ²"),
    not_venues=(
        *_MONTHS, "Spring", "Summer", "Autumn", "Fall", "Winter", "Section", "Sec", "Table", "Figure", "Fig",
        "Eq", "Equation", "Chapter", "Ch", "Appendix", "Page", "Part", "Version", "Release", "Volume", "Vol", "Issue",
        "Q[1-4]", "Copyright", "Since", "Until", "In", "On", "At", "By", "From", "For", "To", "Of", "The", "This",
        "See", "Also", "And", "Or", "But", "Note", "Accessed", "Retrieved", "Published", "Sections", "Tables",
        "Figures", "Figs", "Eqs", "Pages", "Step", "Stage", "Phase", "Level", "Windows", "Python", "Java", "Update",
        "Edition", "Year", "Years", "Example", "Draft",
    ),
)

# fmt: on


def extend(base: Vocabulary, **more: tuple[str, ...]) -> Vocabulary:
    """``base`` with each named table extended (a language that shares most of English's conventions)."""
    return replace(base, **{k: tuple(getattr(base, k)) + tuple(v) for k, v in more.items()})
