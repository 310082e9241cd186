"""Numeric ``[N]`` citations (seed 002): the parser (:mod:`.parser`) and the document-level rows (:mod:`.documents`)."""
