"""Documents for the hybrid routing tests (issue 44), written for them: word problems the rules cannot read
(EN and PL, the issue's shapes: quantities joined by a verb or a preposition, or one quantity with a question),
rule-readable units, and a technical text with no word problem (versions, years, tables, a changelog)."""

#: (problem, operation, operands, result): each its own paragraph, none readable by the rules
WORD_PROBLEMS: list[tuple[str, str, list[int], int]] = [
    ("Seven and five together make twelve.", "add", [7, 5], 12),
    ("Four groups of six apples give twenty-four apples.", "mul", [4, 6], 24),
    ("Anna had nine stickers and gave three to her brother, so six stickers remain.", "sub", [9, 3], 6),
    ("Three bags of eight marbles hold twenty-four marbles.", "mul", [3, 8], 24),
    ("Twelve cookies shared among four children give three cookies to every child.", "div", [12, 4], 3),
    ("A farmer has 15 eggs. How many boxes of 5 eggs can he fill?", "div", [15, 5], 3),
    ("Gdy do ośmiu dołożymy dwa, otrzymamy dziesięć.", "add", [8, 2], 10),
    ("Ola miała pięć cukierków, a Janek dał jej trzy. Ile cukierków ma teraz Ola?", "add", [5, 3], 8),
    ("Trzy grupy po cztery dzieci dają dwanaście dzieci.", "mul", [3, 4], 12),
    ("Kasia kupiła siedem jabłek i zjadła dwa, zostało jej pięć.", "sub", [7, 2], 5),
    ("Z dziesięciu ptaków odleciały cztery. Ile ptaków zostało na drzewie?", "sub", [10, 4], 6),
]

#: units the rules read (a frame each): they must never reach the model
RULE_UNITS = [
    "Addition is commutative: 3 + 4 = 4 + 3.",
    "We know that 6 × 7 = 42.",
    "Dwa plus dwa równa się cztery.",
]

PLAIN = [
    "The children went outside after lunch and played in the garden.",
    "Dzieci bawiły się w ogrodzie aż do wieczora.",
]


def word_problem_document() -> str:
    parts = ["# Word problems"]
    for k, (problem, *_rest) in enumerate(WORD_PROBLEMS):
        parts.append(problem)
        if k % 4 == 0:
            parts.append(RULE_UNITS[(k // 4) % len(RULE_UNITS)])
        if k % 5 == 2:
            parts.append(PLAIN[(k // 5) % len(PLAIN)])
    return "\n\n".join(parts) + "\n"


TECHNICAL = """# acme-sync

acme-sync 2.4.1 mirrors directories between hosts. It was first released in 2015 and rewritten in 2021.
Python 3.9 to 3.12 are supported; Python 3.8 support ended in version 2.0.

## Installation

Install it with pip. The wheel is about 4 MB and needs 2 GB of free memory for large trees.

## Configuration

The default port is 8443 and the worker pool has 4 threads per core. Set `retries = 3` to retry
a failed transfer three times; the timeout is 30 s, and the chunk size is 64 KiB.

| Option | Default | Since |
|--------|---------|-------|
| port | 8443 | 1.0 |
| workers | 4 | 1.2 |
| chunk | 64 | 2.1 |

Section 4 describes the protocol; RFC 8446 defines the TLS 1.3 handshake that it uses.

## Changelog

### 2.4.1 (2024-03-02)

- Fixed issue #212: a transfer of 0 bytes hung on Windows 10.
- Raised the default chunk size from 32 to 64 KiB.

### 2.4.0 (2024-01-15)

- New option `--jobs 8` runs eight transfers at once.
- Dropped support for Debian 10 and Ubuntu 18.04.

### 2.3.0 (2023-09-30)

- The status page shows 3 graphs and refreshes every 5 seconds.
- Logs rotate after 7 days or 100 MB, whichever comes first.

## Benchmarks

On 10 000 files of 1 MB, version 2.4 took 41 s against 58 s for version 2.3 (measured on 12 March 2024).

1. Start the server.
2. Copy 3 files.
3. Stop the server.

## Support

Releases get fixes for 18 months. Report bugs on the tracker; mention your version and platform.
See [3] for the design and [4] for the benchmark method.

Version 2 renamed the configuration file. Version 3 is planned for 2025.

The project has two maintainers and one release manager.

Windows 11, macOS 14 and Linux 6.1 are tested in CI on every commit.
"""

#: written after the routing and scored once, not tuned on (13 of 14 sent at the first run: the lexicon does
#: not read the collective numeral "czworgu", so that problem has one quantity and no cue)
HELD_OUT_PROBLEMS = [
    "Five birds sat on a fence and two more joined them, so seven birds were on the fence.",
    "Ben has eleven marbles. He loses four of them at school. How many marbles does he have left?",
    "Two rows of nine chairs make eighteen chairs.",
    "Mia bought 3 packs of 6 juice boxes for the party.",
    "If you split twenty sweets between five friends, every friend gets four.",
    "Twice six is twelve.",
    "A baker made 24 rolls and sold 15 of them before noon.",
    "Janek ma sześć piłek, a Zosia ma o dwie więcej. Ile piłek ma Zosia?",
    "Pięć koszyków po trzy gruszki to piętnaście gruszek.",
    "Mama upiekła dwanaście ciastek i rozdała je czworgu dzieciom po równo.",
    "Do siedmiu dodajemy trzy i wychodzi dziesięć.",
    "W klasie jest 18 uczniów, 7 z nich to dziewczynki. Ilu jest chłopców?",
    "Tata kupił 4 bułki po 2 złote.",
    "Z szesnastu jabłek zjedzono sześć, zostało dziesięć.",
]
