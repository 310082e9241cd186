"""The report's parent loads the workers' shared models without a thread or an open file a fork would copy."""

import subprocess
import sys

_PROBE = """
import os, threading
from textguard_pipeline.operations.preload import preload_shared
from textguard_pipeline.operations.parallel import start_method
from textguard_pipeline.ingest.languages import default_detector
from textguard_pipeline.lib.nlp import load_spacy
from textguard_pipeline.protection import citation_patterns

preload_shared()
files = []
for fd in os.listdir("/proc/self/fd"):
    try:
        files.append(os.readlink(f"/proc/self/fd/{fd}"))
    except OSError:
        pass
print("threads", threading.active_count())
print("start", start_method())
print("files", [f for f in files if f.startswith("/") and not f.startswith("/dev/")])
print("langid", default_detector()._identifier is not None)
print("spacy", load_spacy.cache_info().currsize)
print("citations", citation_patterns._compiled.cache_info().currsize)
from textguard_pipeline.meanings import graph, wn_tables
from textguard_pipeline.meanings.wordnet_install import wordnet_status
print("wordnet", int(wordnet_status() is not None), wn_tables.load_tables.cache_info().currsize, graph.load_graph.cache_info().currsize)
"""


def test_preload_fills_the_workers_caches_and_leaves_no_thread_or_open_file_for_the_fork():
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert out["threads"] == "1" and out["start"] == "fork"
    assert out["files"] == "[]"  # no SQLite connection (WordNet, the instance) crosses the fork
    assert out["langid"] == "True"
    assert int(out["spacy"]) >= 2  # protection's `ner` and meanings' `parse` pipelines
    assert int(out["citations"]) >= 1
    installed, tables, graphs = map(int, out["wordnet"].split())
    assert tables == graphs == installed  # WordNet's bulk tables and synset graph, read from their files


_FORKED_ENCODER = """
import os, numpy as np
from textguard_pipeline.operations.preload import preload_shared
from textguard_pipeline.lib.encoder import default_encoder

preload_shared()
texts = ["The committee met by the bank of the river.", "A short one."]
parent = default_encoder().encode(texts)
pids = []
for _ in range(2):  # two workers use the inherited encoder (ONNX Runtime session or numpy) at once
    pid = os.fork()
    if pid == 0:
        os._exit(0 if np.allclose(default_encoder().encode(texts), parent, atol=1e-6) else 3)
    pids.append(pid)
print(default_encoder().runtime, [os.waitstatus_to_exitcode(os.waitpid(p, 0)[1]) for p in pids])
"""


def test_forked_workers_encode_with_the_preloaded_encoder_as_the_parent_does():
    done = subprocess.run([sys.executable, "-c", _FORKED_ENCODER], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("[0, 0]"), done.stdout
