"""Mentions and meanings (seed 003): library modules, no Dagster (the Dagster side is :mod:`.defs`).

Data flow: :mod:`.detector` (embedded) or :mod:`.stage_a` (LLM) find mentions → :mod:`.mentions` places
them (Stage B) → :mod:`.candidates` gathers WordNet (:mod:`.senses`) / Wikidata (:mod:`.wikidata`)
candidates → :mod:`.choose` picks one → :mod:`.suppression` drops rejected ones → :mod:`.resolver` builds
the ``resolved_meanings`` frame. :mod:`.wordnet_install` / :mod:`.wndb` set up the lexicon.
"""
