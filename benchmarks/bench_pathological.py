"""Every asset on pathological shapes (issue 14): time and peak memory against input size.

Each point (shape, size) runs in a process of its own — the whole pipeline for one document
(``pipeline.run_document``: source_documents → resolved_meanings, NER on, embedded defaults) —
so its peak resident memory (``ru_maxrss``) is that document's alone. Shapes:

* ``paragraph`` — one line of prose (names, numbers, years, ``[N]`` citations): one huge paragraph
  (``paragraph-fr``: the same in French, read by the French model; not in the default set);
* ``list`` — one line of comma-separated capitalised words (an author list);
* ``md-nest`` — Markdown blockquotes and lists nested up to 60 levels, over and over;
* ``tex-nest`` — one LaTeX environment and brace group inside the next, as deep as the size allows;
* ``pdf-text`` — a PDF's text: pages of hard-wrapped paragraphs without blank lines between form feeds and
  running headers, each with an R session (``R>``, ``+`` continuations, output), an e-mail quote run and
  wrapped lines that start like list items (``+ ``, ``xi.``), a display equation and a table of numbers;
* ``display`` — the display finder's worst case: one run of maths lines, wide table rows and wrapped cells that
  never ends.

Linear shows as a flat "s/MB" column (the whole run) and "parse s/MB" (``parsed_chunks`` alone, issue 46); "peak" is the whole process (Python, spaCy, WordNet
included), "MB/MB" what each extra MB of input costs. ``BENCH_PATHOLOGICAL_MB`` sets the
sizes (default ``0.1,0.2,0.4``), ``BENCH_PATHOLOGICAL_SHAPES`` the shapes; the documented limit
(``TEXTGUARD_MAX_DOCUMENT_BYTES``, 10 MiB) is measured with ``BENCH_PATHOLOGICAL_MB=5,10``.

``python -m benchmarks.bench_pathological --point SHAPE MB`` runs one point and prints JSON.
"""

from __future__ import annotations

import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

SHAPES = ("paragraph", "list", "md-nest", "tex-nest", "pdf-text")
ENDINGS = {
    "paragraph": "txt",
    "paragraph-fr": "txt",
    "list": "txt",
    "md-nest": "md",
    "tex-nest": "tex",
    "pdf-text": "txt",
    "display": "txt",
}
_WORDS = (
    "the method of a result in this paper we show that model data value shows under river stone "
    "measure observed sample with for and or large small first second analysis"
).split()
_MOTS = (
    "la méthode de ce résultat dans cet article nous montrons que le modèle les données une valeur "
    "sous la rivière pierre mesure observée échantillon avec pour et ou grand petit première seconde analyse"
).split()
_NAMES = ("Dirichlet", "Hilbert", "Noether", "Ramanujan", "Kovalevskaya", "Paris", "Geneva", "Cambridge")


def _sentence(rnd: random.Random, vocabulary: tuple[str, ...] | list[str] = _WORDS) -> str:
    words = [rnd.choice(vocabulary) for _ in range(rnd.randint(8, 16))]
    words[rnd.randrange(len(words))] = rnd.choice(_NAMES)
    if rnd.random() < 0.3:
        words.append(f"in {rnd.randint(1900, 2024)}")
    if rnd.random() < 0.2:
        words.append(f"[{rnd.randint(1, 40)}]")
    if rnd.random() < 0.2:
        words.append(f"at {rnd.randint(2, 99)}.{rnd.randint(0, 9)} percent")
    text = " ".join(words)
    return text[0].upper() + text[1:] + "."


def document(shape: str, n_bytes: int, seed: int = 1) -> str:
    """A document of about ``n_bytes`` UTF-8 bytes of the given shape."""
    rnd = random.Random(seed)
    parts: list[str] = []
    n = 0
    if shape in ("paragraph", "paragraph-fr"):
        vocabulary = _MOTS if shape == "paragraph-fr" else _WORDS
        while n < n_bytes:
            parts.append(_sentence(rnd, vocabulary))
            n += len(parts[-1].encode("utf-8")) + 1
        return " ".join(parts) + "\n"
    if shape == "list":
        from textguard_pipeline_tests.protection.shapes import shape as list_shape

        return list_shape("list", max(1, n_bytes // 1000), seed) + "\n"
    if shape == "md-nest":
        depth = 0
        while n < n_bytes:
            depth = depth + 1 if depth < 60 else 1
            line = ("\n" if depth == 1 else "") + "> " * depth + "  " * depth + "- " + _sentence(rnd)
            parts.append(line)
            n += len(line) + 1
        return "\n".join(parts) + "\n"
    if shape == "tex-nest":
        opening, closing = [], []
        while n < n_bytes:
            env = rnd.choice(("quote", "itemize", "center"))
            item = "\\item " if env == "itemize" else ""
            head = f"\\begin{{{env}}}\n{item}{_sentence(rnd)} \\textbf{{{rnd.choice(_NAMES)} {{\\em {rnd.choice(_WORDS)}}}}}\n\n"
            tail = f"\\end{{{env}}}\n"
            opening.append(head)
            closing.append(tail)
            n += len(head) + len(tail)
        return (
            "\\documentclass{article}\n\\begin{document}\n"
            + "".join(opening)
            + "".join(reversed(closing))
            + ("\\end{document}\n")
        )
    if shape == "pdf-text":
        page = 0
        while n < n_bytes:
            page += 1
            header = f"{page} Journal of Pathological Shapes" if page % 2 else f"Author One, Author Two {page}"
            lines = [("\f" if page > 1 else "") + header]
            for _ in range(3):
                lines += textwrap.wrap(" ".join(_sentence(rnd) for _ in range(rnd.randint(3, 8))), 90)
                lines[-1] += " As shown."
            lines += ["R> fm <- glm(y ~ x + z, data = d,", "+   family = poisson)", "R> summary(fm)", "Coefficients:"]
            lines += [f"x{k}  {rnd.random():.6f}  {rnd.random():.6f}  ***" for k in range(6)]
            lines += ["> " + q for q in textwrap.wrap(" ".join(_sentence(rnd) for _ in range(3)), 80)]
            wrapped = textwrap.wrap(" ".join(_sentence(rnd) for _ in range(4)), 90)
            lines += [("+ " if k % 2 else "xi. ") + w if k else w for k, w in enumerate(wrapped)]
            # a display equation and a table of numbers, as a PDF's text writes them
            lines += ["", "              −1", "   β̂ =   X ⊤X    X ⊤y           (2)", "    n   n", ""]
            lines += [f"x{k}     {rnd.random():.3f}    ({rnd.random():.3f})    {rnd.random():.3f}" for k in range(4)]
            page_text = "\n".join(lines) + "\n"
            parts.append(page_text)
            n += len(page_text.encode("utf-8"))
        return "".join(parts)
    if shape == "display":
        # the display finder's worst case: one run of maths and table lines that never ends, wide rows and
        # wrapped cells in every column
        row = "  ".join(f"{k:>4}.{k % 7}" for k in range(60))
        out = []
        while n < n_bytes:
            line = rnd.choice([row, "   ∑  x i  =  β  (3)", " " * rnd.randint(4, 200) + "wrapped cell text", "n   n"])
            out.append(line)
            n += len(line) + 1
        return "\n".join(out) + "\n"
    raise ValueError(f"unknown shape {shape!r} (one of {', '.join(SHAPES)})")


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kB


def _cpu_s() -> float:
    """CPU seconds of this process: on a shared, loaded machine the wall clock says more about the neighbours."""
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def point(shape: str, mb: float) -> dict:
    """One document through every asset, in this process: per-asset seconds, rows or error, peak so far."""
    from textguard_pipeline.pipeline import components_from_env, run_document

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"doc.{ENDINGS[shape]}"
        path.write_text(document(shape, int(mb * 1_000_000)), encoding="utf-8")
        size = path.stat().st_size
        t_load = time.perf_counter()
        components = components_from_env()
        base = {"load_s": time.perf_counter() - t_load, "base_mb": _peak_mb()}
        assets: list[dict] = []
        clock = [time.perf_counter(), _cpu_s()]

        def on_frame(name, df):
            now, cpu = time.perf_counter(), _cpu_s()
            error = ""
            if "status" in df.columns and len(df) and df.iloc[0]["status"] != "ok":
                error = str(df.iloc[0]["error"])
            assets.append(
                {
                    "asset": name,
                    "s": now - clock[0],
                    "cpu_s": cpu - clock[1],
                    "rows": len(df),
                    "error": error,
                    "peak_mb": _peak_mb(),
                }
            )
            print(json.dumps(assets[-1]), file=sys.stderr, flush=True)  # progress, for long points
            clock[:] = [time.perf_counter(), _cpu_s()]

        t, cpu0 = time.perf_counter(), _cpu_s()
        error = ""
        try:
            with components:
                run_document(path, tmp, components, on_frame)
        except Exception as exc:  # a named per-document failure is a result here, not a crash of the bench
            error = f"{type(exc).__name__}: {exc}"[:300]
        return {
            "shape": shape,
            "bytes": size,
            "s": time.perf_counter() - t,
            "cpu_s": _cpu_s() - cpu0,
            "peak_mb": _peak_mb(),
            "assets": assets,
            "error": error,
            **base,
        }


def run_point(shape: str, mb: float) -> dict:
    """:func:`point` in a child process; its peak is the child's ``ru_maxrss``."""
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench_pathological", "--point", shape, str(mb)],
        capture_output=True,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    if done.returncode != 0:
        return {"shape": shape, "bytes": int(mb * 1e6), "error": done.stderr.strip().splitlines()[-1][:300]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _sizes() -> list[float]:
    return [float(x) for x in os.environ.get("BENCH_PATHOLOGICAL_MB", "0.1,0.2,0.4").split(",") if x.strip()]


def _peak_asset(r: dict) -> str:
    """The asset during which the process reached its peak (the first one at the final maximum)."""
    return next((a["asset"] for a in r["assets"] if a["peak_mb"] >= r["peak_mb"] - 1), "start-up")


def main() -> None:
    shapes = [s for s in os.environ.get("BENCH_PATHOLOGICAL_SHAPES", ",".join(SHAPES)).split(",") if s]
    print(
        f"{'shape':9} {'size':>8} {'wall':>7} {'cpu':>7} {'cpu s/MB':>8} {'parse s/MB':>10} {'peak':>7} {'MB/MB':>6} "
        "peak during; most cpu; failures"
    )
    for shape in shapes:
        first = None
        for mb in _sizes():
            r = run_point(shape, mb)
            size_mb = r["bytes"] / 1e6
            if "assets" not in r:
                print(f"{shape:9} {size_mb:6.2f}MB  crashed: {r['error']}", flush=True)
                continue
            first = first or r
            growth = (r["peak_mb"] - first["peak_mb"]) / (size_mb - first["bytes"] / 1e6) if r is not first else 0
            busiest = max(r["assets"], key=lambda a: a["cpu_s"]) if r["assets"] else {"asset": "-", "cpu_s": 0}
            failed = [f"{a['asset']}: {a['error'][:80]}" for a in r["assets"] if a["error"]]
            failed += [r["error"]] if r["error"] else []
            parse = next((a["cpu_s"] for a in r["assets"] if a["asset"] == "parsed_chunks"), float("nan"))
            print(
                f"{shape:9} {size_mb:6.2f}MB {r['s']:6.0f}s {r['cpu_s']:6.0f}s {r['cpu_s'] / size_mb:8.0f} "
                f"{parse / size_mb:10.2f} "
                f"{r['peak_mb']:5.0f}MB {growth:6.0f} {_peak_asset(r)}; {busiest['asset']} "
                f"{busiest['cpu_s']:.0f}s; {'; '.join(failed) or 'none'}",
                flush=True,
            )


if __name__ == "__main__":
    if sys.argv[1:2] == ["--point"]:
        print(json.dumps(point(sys.argv[2], float(sys.argv[3]))))
    else:
        main()
