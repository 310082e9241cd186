"""Word + number markers (seed 004): mining (:mod:`.mining`), the StructureNumberingGate (:mod:`.gate`), tables (:mod:`.tables`)."""
