"""Compatibility shim: markers and the StructureNumberingGate live in :mod:`textguard_pipeline.markers`."""

from ..markers.gate import *  # noqa: F401,F403
from ..markers.gate import (  # noqa: F401
    LLM_SYSTEM_PROMPT,
    S1_MAX_DIGITS,
    SECTION_POSITION_PATTERNS,
    GateResult,
    StructureNumberingGate,
    check_position_indicator,
    check_prefix_mostly_numbered,
    compute_structure_risk,
    detect_sequence,
    detect_sequences,
)
from ..markers.miner import CandidateMiner, MiningResult, group_occurrences  # noqa: F401
from ..markers.model import *  # noqa: F401,F403
from ..markers.model import (  # noqa: F401
    ENTITY_NUMERAL,
    FALLBACK,
    GATE_OFF,
    HARD_REJECT,
    KINDS,
    LOW,
    PAGE_BREAK_RE,
    SOFT_FLAG,
    SOFT_FLAG_ACTIONS,
    STANDARD_ID,
    VERSIONED_NAME,
    CandidateGate,
    MarkerCandidate,
    MarkerOccurrence,
    PageIndex,
    SequenceDetectionResult,
    StructureGateConfig,
    gate_config_from_env,
    split_value,
)
from ..markers.tables import (  # noqa: F401
    GATED_COLUMNS,
    OCCURRENCE_COLUMNS,
    decision_violations,
    gated_frame,
    mining_exclusions,
    occurrences_frame,
    occurrences_from_frame,
)
