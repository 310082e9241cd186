"""Word + number markers (seed 004).

:mod:`.model` (config, data types, pages, CandidateGate) → :mod:`.miner` → :mod:`.gate`
(StructureNumberingGate) → :mod:`.tables` (Parquet shapes); :mod:`.defs` holds the Dagster side.
"""
