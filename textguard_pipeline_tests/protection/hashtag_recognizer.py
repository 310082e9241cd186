"""A recogniser added the documented way (one module; its one config line is in test_layout.py)."""

import re

from textguard_pipeline.protection.model import Candidate
from textguard_pipeline.protection.recognizers.base import PerChunkRecognizer


class HashtagRecognizer(PerChunkRecognizer):
    name = "hashtag"
    priority = 35

    def find(self, text):
        return [Candidate(m.start(), m.end(), self.name, "HASHTAG") for m in re.finditer(r"(?<!\w)#\w+", text)]
