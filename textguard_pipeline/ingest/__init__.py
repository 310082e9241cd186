"""Documents in: the corpus scanner, strict UTF-8 reading, the lossless chunker and chunk languages."""
