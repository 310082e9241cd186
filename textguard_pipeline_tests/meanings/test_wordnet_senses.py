"""Tests for core/wordnet_senses.py: candidates, Lesk vs the first-sense baseline, signals.

Runs against the small lexicon shipped in data/wordnet (every sense of the
labelled lemmas is in it), installed into a temp ``TEXTGUARD_WN_DATA`` for
this module; ``test_wordnet_setup.py`` runs the same labelled set against the
full WordNet 3.0 converted from /usr/share/wordnet.
"""

from __future__ import annotations

import pytest

from textguard_pipeline.core import wordnet_setup
from textguard_pipeline.core.wordnet_senses import (
    LeskDisambiguator,
    MeaningCandidate,
    evaluate,
    first_sense,
    is_generic_noun,
    is_multiword_lemma,
    lexicon_cache,
    normalize_pos,
    sense_count,
    stem,
    wordnet_candidates,
)

# Mentions in context with their intended sense, identified by lemma + part of speech + a
# keyword of the intended gloss (robust across lexicon versions, unlike raw offsets).
# Contexts are plain sentences on the sample-corpus topics, written not to quote the gloss.
# (mention, pos, context, gold gloss keyword)
LABELLED = [
    # security, networks, software
    ("key", "n", "Press the Enter key on the keyboard twice to confirm the command.", "keyboard"),
    ("key", "n", "The key to the success of the migration was careful planning.", "crucial for explaining"),
    ("key", "n", "See the key at the bottom of the map for the meaning of each symbol.", "explain symbols"),
    ("key", "n", "He turned the key in the lock and opened the door.", "inserted into the appropriate lock"),
    (
        "server",
        "n",
        "During the TLS handshake the server sends its certificate and the browser checks it before any data is exchanged.",
        "client stations",
    ),
    ("server", "n", "The server brought our drinks to the table in the restaurant.", "serve at table"),
    ("client", "n", "Every client on the local network downloads the update from the file server.", "computer network"),
    ("client", "n", "The lawyer met her client at the courthouse to discuss the case.", "advice of a lawyer"),
    ("client", "n", "The shop offers a discount to every client who pays in cash.", "pays for goods"),
    (
        "protocol",
        "n",
        "TLS 1.3 is a protocol for securing traffic between computers on the Internet.",
        "transmission of data",
    ),
    (
        "protocol",
        "n",
        "Diplomatic protocol requires that the ambassador be greeted by the head of state.",
        "ceremony and etiquette",
    ),
    (
        "certificate",
        "n",
        "The certificate, signed by a trusted authority, states that the public key belongs to the named server.",
        "attesting to the truth",
    ),
    ("signature", "n", "The signature on the contract was written by hand in blue ink.", "own handwriting"),
    ("signature", "n", "The signature after the clef has three sharps, so the piece is in A major.", "sharps or flats"),
    ("attack", "n", "The army launched an attack on the enemy positions at dawn.", "offensive against an enemy"),
    ("attack", "n", "An attack of asthma kept him awake most of the night.", "uncontrollable condition"),
    ("attack", "n", "The senator's speech was a fierce attack on the new budget and its critics.", "adverse criticism"),
    (
        "virus",
        "n",
        "The virus spread through infected email attachments and deleted files on every computer it reached.",
        "software program",
    ),
    ("virus", "n", "The influenza virus replicates inside the cells of the lungs.", "infectious agent"),
    (
        "worm",
        "n",
        "The worm copied itself from one computer to the next over the network without any user action.",
        "software program",
    ),
    ("worm", "n", "The bird pulled a worm out of the wet soil of the garden.", "soft-bodied animals"),
    ("bug", "n", "A bug in the parser caused the program to crash on empty input.", "defect in a computer program"),
    ("bug", "n", "A small bug crawled across the leaf and the child tried to catch it.", "creeping or crawling"),
    ("port", "n", "Connect the printer to the serial port on the back of the computer.", "computer circuit"),
    ("port", "n", "The ship entered the port and unloaded its cargo of grain.", "seaport or airport"),
    ("port", "n", "After dinner they drank a glass of port with the cheese.", "dessert wine"),
    ("host", "n", "Each host on the network runs a web server and shares its printers.", "client stations"),
    ("host", "n", "The host welcomed the guests to the party at her home.", "invites guests"),
    ("host", "n", "The parasite lives inside its host and feeds on its blood.", "parasite"),
    (
        "code",
        "n",
        "The source code of the program is written in Python and stored in a repository.",
        "computer program",
    ),
    (
        "code",
        "n",
        "The code of conduct lists the rules that every employee must follow.",
        "rules or principles or laws",
    ),
    ("code", "n", "The spies used a secret code to send short messages by telegraph.", "brevity or secrecy"),
    (
        "cipher",
        "n",
        "In Caesar's cipher each letter of the alphabet is shifted by three positions.",
        "secret method of writing",
    ),
    (
        "cipher",
        "n",
        "The intercepted cipher was a message that nobody at the embassy could read.",
        "message written in a secret code",
    ),
    ("record", "n", "She set a new world record in the 100 metres sprint.", "extreme attainment"),
    ("record", "n", "He played an old jazz record on the phonograph.", "sound recording"),
    (
        "message",
        "n",
        "The client sends a short message to the server asking for the page.",
        "communication (usually brief)",
    ),
    ("channel", "n", "Boats sailed through the narrow channel between the two islands.", "body of water"),
    ("channel", "n", "She switched to another channel to watch the evening news on television.", "television station"),
    ("window", "n", "Close the window on the screen to return to the desktop.", "computer screen"),
    ("window", "n", "Open the window to let some fresh air into the room.", "glass windowpane"),
    ("shell", "n", "The turtle withdrew its head into its shell.", "arthropods and turtles"),
    ("shell", "n", "The artillery fired a shell that exploded near the trench.", "ammunition"),
    (
        "token",
        "n",
        "The tokenizer splits the sentence into tokens, and each token is one occurrence of a word.",
        "instance of a type of symbol",
    ),
    ("token", "n", "Insert a token into the slot machine to play another game.", "slot machines"),
    ("risk", "n", "The organization must assess the risk of data loss before deploying the system.", "incurring loss"),
    (
        "policy",
        "n",
        "The encryption policy adopted by the company requires full disk encryption on every laptop.",
        "plan of action",
    ),
    ("policy", "n", "She bought an insurance policy to cover the house against fire.", "insurance"),
    ("threat", "n", "Ransomware is a serious threat to hospitals and their patients.", "source of danger"),
    ("control", "n", "Turn the volume control on the radio to make it quieter.", "operation of a machine"),
    ("control", "n", "In the experiment the control group received a placebo.", "scientific experiment"),
    # mathematics
    (
        "matrix",
        "n",
        "Multiply the matrix by a vector; each row of the matrix holds the coefficients of one equation.",
        "rows and columns",
    ),
    ("matrix", "n", "The fossils were embedded in a matrix of fine-grained rock.", "fossils"),
    (
        "vector",
        "n",
        "The velocity vector has a length, its magnitude, and a direction in space.",
        "orientation in space",
    ),
    ("vector", "n", "Mosquitoes are the vector that carries malaria from person to person.", "transmits a disease"),
    (
        "function",
        "n",
        "The function maps each element of the domain to exactly one element of the range.",
        "mathematical relation",
    ),
    ("function", "n", "The main function of the heart is to pump blood.", "what something is used for"),
    (
        "function",
        "n",
        "The program calls the sort function from its main loop after reading the input.",
        "computer program",
    ),
    ("set", "n", "The set of natural numbers is infinite.", "collection of numbers"),
    ("set", "n", "He won the first set of the tennis match six games to four.", "tennis"),
    ("ring", "n", "She wore a gold ring with a diamond on her finger.", "jewelry"),
    ("ring", "n", "The boxers climbed through the ropes into the ring.", "box or wrestle"),
    (
        "group",
        "n",
        "In algebra a group is a set with an associative operation, an identity element and inverses.",
        "identity element",
    ),
    (
        "field",
        "n",
        "The rational numbers form a field, since addition and multiplication are commutative and every nonzero element has an inverse.",
        "(mathematics)",
    ),
    (
        "field",
        "n",
        "Computational linguistics is a field of study between linguistics and computer science.",
        "branch of knowledge",
    ),
    ("field", "n", "The farmer ploughed the field before planting corn.", "cleared of trees"),
    ("degree", "n", "The polynomial has degree three because the highest power of x is three.", "highest power"),
    ("degree", "n", "She earned a degree in mathematics from the university.", "college or university"),
    ("degree", "n", "The two lines meet at an angle of ninety degrees.", "arcs and angles"),
    ("root", "n", "The square root of sixteen is four.", "multiplied by itself"),
    ("root", "n", "The roots of the tree absorb water from the soil.", "underground organ"),
    (
        "mean",
        "n",
        "The arithmetic mean of the scores is their sum divided by the number of scores.",
        "average of n numbers",
    ),
    (
        "table",
        "n",
        "The results are summarised in a table with one row per model and one column per metric.",
        "rows and columns",
    ),
    ("table", "n", "They sat around the kitchen table for dinner.", "smooth flat top"),
    ("order", "n", "The general gave the order to retreat.", "command given by a superior"),
    ("order", "n", "The entries of the index are listed in alphabetical order.", "arrangement of separate elements"),
    (
        "translation",
        "n",
        "A translation of the coordinate system moves its origin but keeps the direction of each axis.",
        "origin of the coordinate system",
    ),
    (
        "translation",
        "n",
        "The English translation of the Latin poem lost the metre of the original.",
        "second language",
    ),
    # machine learning
    ("model", "n", "The statistical model describes how the data were generated.", "hypothetical description"),
    ("model", "n", "The model posed for the painter for three hours.", "poses for a photographer"),
    ("model", "n", "The company released a new model of its car this year.", "type of product"),
    ("network", "n", "The railway network links every town in the country.", "intersecting lines"),
    ("network", "n", "The television network broadcast the debate on all its stations.", "broadcasting stations"),
    (
        "weight",
        "n",
        "In the weighted average each observation has a weight that reflects its importance in the distribution.",
        "(statistics)",
    ),
    ("weight", "n", "The weight of the box is the force that gravity exerts on its mass.", "gravity"),
    (
        "bias",
        "n",
        "The reviewer's bias against the authors made a fair assessment of the paper impossible.",
        "objective consideration",
    ),
    ("training", "n", "Years of training made the surgeons skilled at the operation.", "skilled behavior"),
    (
        "memory",
        "n",
        "The program ran out of memory because the computer has only four gigabytes of RAM.",
        "electronic memory device",
    ),
    ("memory", "n", "She has a vivid memory of her first day at school.", "something that is remembered"),
    ("kernel", "n", "The kernel of the walnut is the part you eat.", "edible part of a seed"),
    ("kernel", "n", "Each kernel of wheat was ground into flour.", "whole grain"),
    ("score", "n", "The orchestra played from the printed score of the symphony.", "musical composition"),
    ("score", "n", "The final score of the game was three goals to one.", "accomplishment of a team"),
    # documents and scholarship
    ("page", "n", "The citation is on page twelve of the report.", "one side of one leaf"),
    ("paper", "n", "The authors published a paper in the journal describing their experiments.", "scholarly article"),
    ("paper", "n", "Print the report on recycled paper.", "cellulose pulp"),
    ("paper", "n", "He reads the morning paper over breakfast.", "daily or weekly publication"),
    (
        "document",
        "n",
        "The policy document explains how official records are kept.",
        "writing that provides information",
    ),
    ("chapter", "n", "The third chapter of the book describes the experiments.", "subdivision of a written work"),
    ("chapter", "n", "The local chapter of the association meets every month.", "local branch"),
    ("index", "n", "Look up the term in the index at the back of the book.", "alphabetical listing"),
    ("index", "n", "The consumer price index rose by two percent last year.", "numerical scale"),
    ("reference", "n", "The paper lists thirty references to earlier publications.", "publication"),
    ("note", "n", "The soprano held the high note for four bars.", "pitch and duration"),
    ("note", "n", "She left a short note for her colleague on the desk.", "short personal letter"),
    ("citation", "n", "Each citation in the text points to the source of the quoted passage.", "source of information"),
    ("citation", "n", "The court sent a citation ordering the defendant to appear at the hearing.", "summons"),
    ("foot", "n", "Each metrical foot in the line of Latin verse has a long and a short syllable.", "prosody"),
    ("foot", "n", "He hurt his foot while running and could not walk.", "below the ankle"),
    ("bank", "n", "She deposited her salary at the bank.", "financial institution"),
    ("bank", "n", "They had a picnic on the bank of the river.", "sloping land"),
    ("interest", "n", "The bank charges interest on the loan.", "borrowing money"),
    ("interest", "n", "The students showed great interest in the topic and asked many questions.", "sense of concern"),
    # verbs and adjectives
    ("encrypt", "v", "The client will encrypt the message before sending it over the network.", "into code"),
    ("run", "v", "The program will run on any computer with Python installed.", "be operating"),
    ("run", "v", "The children run across the field every morning.", "move fast by using one's feet"),
    ("execute", "v", "The server will execute the script every night.", "process or program"),
    ("execute", "v", "The prisoner was executed at dawn.", "kill as a means of socially sanctioned punishment"),
    ("train", "v", "We train the model on a large corpus of documents.", "educate"),
    ("secure", "a", "Store the backup keys in a secure location.", "free from danger"),
    ("sharp", "a", "The knife has a sharp edge that cuts easily.", "suitable for cutting"),
]


# Mentions found by the pipeline in the sample corpus (data/corpus: RFC 8446, the convolution
# arithmetic guide, the Latin-style paper, the evaluate READMEs, the policies), in their own
# sentences: WordNet's natural sense distribution, where the first sense is usually right.
CORPUS_LABELLED = [
    (
        "threat",
        "n",
        "This threat already exists to some extent because clients that value robustness respond to network errors by attempting to retry requests.",
        "source of danger",
    ),
    (
        "criteria",
        "n",
        "If the server has multiple certificates, it chooses one of them based on the above-mentioned criteria (in addition to other criteria, such as transport-layer endpoint, local configuration, and preferences).",
        "basis for comparison",
    ),
    (
        "importance",
        "n",
        "Based on a great deal of experimentation, it also suggests that simple, trainable embeddings are more effective than domain-specific schemes, and stresses the importance of techniques to reduce overfitting, like dropout and batch normalization.",
        "worthy of note",
    ),
    (
        "negotiation",
        "n",
        "Servers MUST ensure that they negotiate the same cipher suite when receiving a conformant updated ClientHello (if the server selects the cipher suite as the first step in the negotiation, then this will happen automatically).",
        "discussion intended to produce an agreement",
    ),
    (
        "progress",
        "n",
        "The early progress made in that paper towards examining rhyme with 1D convolutional networks, as well as inferring significance with occlusion maps was an important inspiration for this research.",
        "gradual improvement",
    ),
    (
        "indications",
        "n",
        "Extensions are generally structured in a request/response fashion, though some extensions are just indications with no corresponding response.",
        "serves to indicate or suggest",
    ),
    (
        "discrepancies",
        "n",
        "This can lead to discrepancies between BLEU scores and human ratings.",
        "conflicting facts",
    ),
    (
        "accuracy",
        "n",
        "Latin hexameter verse is stylistically dense and is well classified by most supervised machine-learning methods, so there is no need to turn to Deep Learning for an additional percentage point or two of accuracy.",
        "near to the true value",
    ),
    (
        "prime",
        "n",
        "The negotiated key (Z) is converted to a byte string by encoding in big-endian and left-padded with zeros up to the size of the prime.",
        "no factor but itself",
    ),
    (
        "code",
        "n",
        "All code and data is available under CC-BY, except where restricted by upstream licenses. The code repository includes all of the source data, the saved models, and Python notebooks to replicate all figures.",
        "computer program",
    ),
    (
        "entropy",
        "n",
        "The general pattern here is that the secrets shown down the left side of the diagram are just raw entropy without context, whereas the secrets down the right side include Handshake Context.",
        "communication theory",
    ),
    (
        "list",
        "n",
        "This metric takes as input a list of predicted sentences and a list of lists of reference sentences (since each predicted sentence can have multiple references).",
        "ordered array of items",
    ),
    (
        "stream",
        "n",
        "A vector (single-dimensioned array) is a stream of homogeneous data elements.",
        "resembles a flowing stream",
    ),
    (
        "establishment",
        "n",
        "Confidentiality: Data sent over the channel after establishment is only visible to the endpoints.",
        "act of forming or establishing",
    ),
    (
        "permutation",
        "n",
        "The collection of kernels defining a discrete convolution has a shape corresponding to some permutation of (n, m, k_1, ..., k_N).",
        "arrangement of a given number of elements",
    ),
    (
        "model",
        "n",
        "Enrolment through the management service should be mandatory for every device, whatever its model.",
        "type of product",
    ),
    (
        "sort",
        "n",
        "It is clear that there are some sort of emergent stylistic properties in the trained syllable embeddings, much as word embeddings will evolve to reflect an underlying semantic structure.",
        "category of things",
    ),
    (
        "speed",
        "n",
        "If data can be replayed a large number of times, additional attacks become possible, such as making repeated measurements of the speed of cryptographic operations.",
        "rate (usually rapid)",
    ),
    (
        "tool",
        "n",
        "This is where Convolutional Neural Networks (CNNs), currently the tool of choice for image classification, should be ideal.",
        "means whereby some act is accomplished",
    ),
    (
        "secret",
        "n",
        "The general pattern for adding a new secret is to use HKDF-Extract with the Salt being the current secret state and the Input Keying Material (IKM) being the new secret to be added.",
        "remain hidden from others",
    ),
    (
        "remainder",
        "n",
        "A server which does not request client authentication MAY compute the remainder of the transcript independently and then send a NewSessionTicket immediately upon sending its Finished.",
        "left after other parts",
    ),
    (
        "cooperation",
        "n",
        "At minimum, a fully constant-time server or client would require close cooperation with the application-layer protocol implementation.",
        "joint operation",
    ),
    (
        "approach",
        "n",
        "tokenizer: approach used for standardizing predictions and references. The default tokenizer is tokenizer_13a, a relatively minimal tokenization approach.",
        "deal with a problem",
    ),
    ("author", "n", "Karthikeyan Bhargavan (co-author of RFC7627), INRIA.", "writes (books"),
    (
        "minimum",
        "n",
        "At a minimum, this update and review shall be conducted once per year.",
        "smallest possible quantity",
    ),
    (
        "metric",
        "n",
        "The metric takes two lists of sentences as input: one representing predictions and references, with the sentences consisting of words in the CoNLL format.",
        "quantification",
    ),
    (
        "compatibility",
        "n",
        "This increases compatibility with existing servers that incorrectly implemented version negotiation.",
        "harmonious or congenial combination",
    ),
    (
        "concerns",
        "n",
        "It is understood, however, that due to operational concerns not all deployments will maintain state at that level.",
        "interests you because it is important",
    ),
    (
        "plenty",
        "n",
        "Although some scholars still deny any deliberate use of rhyme, there is plenty of traditional scholarship as well as quantitative stylometry.",
        "large number or amount",
    ),
    (
        "border",
        "n",
        "Difficult decisions and misclassifications were not placed just over the line near a border between two clusters, but rather squarely in the middle of the mistaken class.",
        "line that indicates a boundary",
    ),
]


def labelled_items(wnet, rows=None):
    """(mention, context, candidates, gold) for every labelled row; the gold must be unambiguous."""
    items = []
    for mention, pos, context, keyword in LABELLED + CORPUS_LABELLED if rows is None else rows:
        candidates = wordnet_candidates(wnet, mention, pos, limit=0)
        gold = [c for c in candidates if keyword.lower() in c.gloss.lower()]
        assert len(gold) == 1, f"label {mention!r}/{keyword!r} matches {len(gold)} of {len(candidates)} senses"
        items.append((mention, context, candidates, gold[0]))
    return items


def check_lesk_against_baseline(wnet, label: str) -> dict:
    """Lesk vs the first-sense baseline on the whole set and on each part; Lesk must not lose."""
    lesk = LeskDisambiguator(wnet)
    results = {}
    for part, rows in (
        ("written sentences", LABELLED),
        ("sample-corpus sentences", CORPUS_LABELLED),
        ("all", LABELLED + CORPUS_LABELLED),
    ):
        r = results[part] = evaluate(lesk, labelled_items(wnet, rows))
        print(
            f"\n[{label}] {part}: {r['n']} labelled mentions, Lesk accuracy {r['lesk']:.1%}, "
            f"first-sense baseline {r['first_sense']:.1%}",
            end="",
        )
        assert r["lesk"] >= r["first_sense"], part
    assert results["all"]["n"] >= 80
    return results["all"]


@pytest.fixture(scope="module")
def wnet(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("TEXTGUARD_WN_DATA", str(tmp_path_factory.mktemp("wn_senses")))
    mp.setenv("TEXTGUARD_WN_DOWNLOAD", "0")
    mp.delenv("TEXTGUARD_WN_LEXICON", raising=False)
    info = wordnet_setup.install_wordnet(wndb_dirs=(), allow_download=False, log=lambda _m: None)
    assert info.is_mini
    yield wordnet_setup.open_wordnet()
    wordnet_setup._close_pool()
    mp.undo()


def test_lesk_beats_or_equals_first_sense_on_labelled_set(wnet):
    result = check_lesk_against_baseline(wnet, "shipped small lexicon")
    # The set deliberately holds non-first senses too; Lesk must find most of them.
    assert result["lesk"] >= 0.6


def test_labelled_set_is_on_corpus_topics_and_mixed():
    assert len(LABELLED) + len(CORPUS_LABELLED) >= 80 and len(CORPUS_LABELLED) >= 25
    assert len({m for m, *_ in LABELLED}) >= 50
    assert {p for _m, p, *_ in LABELLED} >= {"n", "v", "a"}


def test_candidates_are_ranked_wordnet_senses(wnet):
    cands = wordnet_candidates(wnet, "matrix", "n")
    assert cands and all(isinstance(c, MeaningCandidate) for c in cands)
    assert [c.sense_rank for c in cands] == sorted(c.sense_rank for c in cands)
    assert cands[0].sense_rank == 1 and "rows and columns" in cands[0].gloss
    lexicon_id = wnet.lexicons()[0].id
    assert all(c.meaning_id.startswith(lexicon_id + "-") and c.source == "wordnet" and c.pos == "n" for c in cands)
    assert len(wordnet_candidates(wnet, "key", "n", limit=3)) == 3


def test_candidates_multiword_inflection_and_pos(wnet):
    for text in ("neural network", "neural_network", "Neural Networks", "neural-network"):
        cands = wordnet_candidates(wnet, text, "n")
        assert cands and cands[0].lemma == "neural network", text
    assert is_multiword_lemma(wnet, "neural networks")
    assert is_multiword_lemma(wnet, "neural_network")
    assert not is_multiword_lemma(wnet, "network")
    assert not is_multiword_lemma(wnet, "purple network")
    # Morphy: inflected forms resolve to their lemma.
    assert {c.lemma for c in wordnet_candidates(wnet, "matrices", "n")} == {"matrix"}
    assert {c.lemma for c in wordnet_candidates(wnet, "encrypted", "v")} == {"encrypt"}
    # An adjective query includes satellites; a noun query gives nouns only.
    assert {c.pos for c in wordnet_candidates(wnet, "secure", "ADJ", limit=0)} <= {"a", "s"}
    assert {c.pos for c in wordnet_candidates(wnet, "key", "NOUN", limit=0)} == {"n"}
    # Without pos: nouns first, then verbs, adjectives, adverbs.
    order = {"n": 0, "v": 1, "a": 2, "s": 2, "r": 3}
    for word in ("set", "use", "run", "record", "secure"):
        poses = [order[c.pos] for c in wordnet_candidates(wnet, word, limit=0)]
        assert poses == sorted(poses), word
    assert {c.pos for c in wordnet_candidates(wnet, "use", limit=0)} >= {"n", "v"}
    assert wordnet_candidates(wnet, "qwertyuiop") == []
    with pytest.raises(ValueError):
        normalize_pos("xyz")


def test_exact_lemma_before_lemmatised_one(wnet):
    cands = wordnet_candidates(wnet, "training", "n", limit=0)
    assert cands[0].lemma == "training"


def test_first_sense_and_choose_reason_codes(wnet):
    cands = wordnet_candidates(wnet, "bank", "n")
    assert first_sense(cands) is cands[0]
    assert first_sense(list(reversed(cands))).sense_rank == 1
    assert first_sense([]) is None
    lesk = LeskDisambiguator(wnet)
    assert lesk.choose("bank", "anything", []) == (None, 0.0, "no_candidates")
    chosen, conf, reason = lesk.choose("bank", "", cands)
    assert chosen is first_sense(cands) and reason == "first_sense_backoff" and 0 < conf < 0.8
    chosen, conf, reason = lesk.choose("bank", "They had a picnic on the bank of the river.", cands)
    assert "sloping land" in chosen.gloss and reason == "gloss_overlap" and conf >= 0.6
    one = cands[:1]
    assert lesk.choose("bank", "whatever", one)[2] == "single_candidate"


def test_lesk_handles_candidates_from_elsewhere(wnet):
    """A non-WordNet candidate (e.g. Wikidata) is scored on its gloss, not looked up."""
    cands = wordnet_candidates(wnet, "bank", "n")[:2] + [
        MeaningCandidate("wikidata:Q1", "Bank", "river bank of the river Thames picnic", "n", 1, "wikidata")
    ]
    chosen, _conf, reason = LeskDisambiguator(wnet).choose("bank", "a picnic by the river Thames", cands)
    assert chosen.source == "wikidata" and reason == "gloss_overlap"


def test_function_words_weigh_nothing(wnet):
    lesk = LeskDisambiguator(wnet)
    for word in ("the", "of", "which", "used"):
        assert lesk.stats.weight(stem(word)) == 0.0
    assert lesk.stats.weight(stem("cryptography")) > 5


def test_generic_noun_and_sense_count_signals(wnet):
    for word in ("thing", "person", "way", "time", "part"):
        assert is_generic_noun(wnet, word), word
    for word in ("encryption", "matrix", "convolution", "syllable", "neuron"):
        assert not is_generic_noun(wnet, word), word
    assert not is_generic_noun(wnet, "qwertyuiop")
    assert sense_count(wnet, "encryption", "n") == 1
    assert sense_count(wnet, "bank", "n") == len(wordnet_candidates(wnet, "bank", "n", limit=0)) > 5
    assert sense_count(wnet, "qwertyuiop") == 0


def test_first_sense_mode_is_the_baseline(wnet):
    baseline = LeskDisambiguator(wnet, use_lesk=False)
    result = evaluate(baseline, labelled_items(wnet))
    assert result["lesk"] == result["first_sense"]


def test_lexicon_lookups_are_shared_across_resolvers_of_one_lexicon(wnet, monkeypatch):
    """Resolvers are built per run: the second one must find the first one's WordNet work done."""
    from textguard_pipeline.core import wordnet_senses
    from textguard_pipeline.core.meanings import CandidateFinder
    from textguard_pipeline.core.mentions import WordSignals

    calls = []
    real = wordnet_senses.wordnet_candidates
    monkeypatch.setattr(wordnet_senses, "wordnet_candidates", lambda *a, **k: calls.append(a[1:]) or real(*a, **k))
    first = CandidateFinder(wnet).find("matrix", "subject", pos="n")
    second = CandidateFinder(wnet).find("matrix", "subject", pos="n")  # a new finder: a new run
    assert [c.meaning_id for c in second[0]] == [c.meaning_id for c in first[0]]
    assert calls == [("matrix",)]
    # Lesk signatures and word signals: one store per lexicon, seen by every new instance
    a, b = LeskDisambiguator(wnet), LeskDisambiguator(wnet)
    cand = wordnet_candidates(wnet, "matrix", "n")[0]
    a.signature(cand)
    assert cand.meaning_id in b._signatures
    assert WordSignals(wnet)._cache is WordSignals(wnet)._cache
    # a different lexicon object gets its own store
    assert lexicon_cache(object(), "candidates") is not lexicon_cache(wnet, "candidates")


def test_lexicon_cache_is_bounded(wnet, monkeypatch):
    from textguard_pipeline.core import wordnet_senses

    monkeypatch.setattr(wordnet_senses, "LEXICON_CACHE_LIMIT", 3)
    cache = lexicon_cache(wnet, "bounded-test")
    for i in range(7):
        cache[i] = i
    assert len(cache) <= 3 and cache[6] == 6


def test_a_mentions_stems_and_lesk_scores_are_computed_once_for_the_choice_its_calibration_and_the_ranker(
    wnet, monkeypatch
):
    from textguard_pipeline.meanings import senses
    from textguard_pipeline.meanings.calibration import evidence_features
    from textguard_pipeline.meanings.ranker import option_features

    lesk = LeskDisambiguator(wnet, margin=6.0)
    cands = wordnet_candidates(wnet, "bank", "n")
    context = "We had a picnic on the bank of the river and watched the water go by."
    ev = senses.SenseEvidence(pooled_context=context + " The bank was muddy after the flood.")
    fresh = LeskDisambiguator(wnet)
    expected = [fresh._score(fresh.context_stems("bank", context), c) for c in cands]
    computed = []
    real = lesk._score
    monkeypatch.setattr(lesk, "_score", lambda stems, c: computed.append(c.meaning_id) or real(stems, c))
    chosen, _conf, reason = lesk.choose_scored("bank", context, cands, ev)
    evidence_features(lesk, "bank", context, cands, chosen, reason, ev)
    option_features(lesk, "bank", context, cands, ev, None, chosen.meaning_id, 0.5)
    # each sense scored once against the mention's context and once against the lemma's pooled one
    assert sorted(computed) == sorted(c.meaning_id for c in cands for _ in range(2))
    local = lesk.context_stems("bank", context)
    assert lesk.context_stems("bank", context) is local and local == fresh.context_stems("bank", context)
    assert [lesk.score(local, c) for c in cands] == expected
    # stems not made by context_stems (any iterable) are scored afresh every time
    computed.clear()
    lesk.score(["river", "water"], cands[0])
    lesk.score(["river", "water"], cands[0])
    assert computed == [cands[0].meaning_id] * 2
    # the memo is bounded: past CONTEXT_MEMO contexts the first one's stems are made again
    for i in range(senses.CONTEXT_MEMO):
        lesk.context_stems("bank", f"context number {i}")
    again = lesk.context_stems("bank", context)
    assert again is not local and again == local
