"""Text patterns shared by the slices that read prose (meanings' masking, ingest's chunker and language detection)."""

from __future__ import annotations

import re

#: a web address, up to the next space: blanked before text is read for words
URL_RE = re.compile(r"https?://\S+|www\.\S+")
#: a ``%`` that starts a LaTeX comment (not ``\\%``)
TEX_COMMENT_SIGN = re.compile(r"(?<!\\)%")
