"""Declarative automation: which assets the daemon materializes on its own, and their settings-aware code versions.

Every document asset gets, from :func:`automate` (applied once to the merged definitions, so no slice repeats it):

* a code version ``<slice's version>+s<hash>`` where the hash covers the settings that change what the asset
  produces (:data:`SETTINGS_OF`), so a settings change is a code version change of exactly those assets;
* an ``AutomationCondition``: the root (``source_documents``, requested by the corpus sensor for new or changed
  files) re-runs on a code version change only; every other free asset is eager (new partition, an upstream
  updated) or re-runs on a code version change. Its downstream assets follow by ``eager``.

An asset that spends on the LLM (:func:`paid_assets`) gets no condition unless ``TEXTGUARD_AUTOMATE_PAID=on``;
it then draws on the rolling daily budget (``TEXTGUARD_LLM_MAX_COST_PER_DAY``, lib/ledger.py): its runs carry
that budget scope as a tag. The daemon evaluates the conditions in :data:`automation_sensor`.
"""

from __future__ import annotations

import hashlib
from typing import Any, Callable

import dagster as dg
from dagster import AutomationCondition as AC

from .. import settings
from ..lib.ledger import DAILY
from .last_good import SETTINGS_MARK
from .runner import BUDGET_TAG

ROOT = "source_documents"
SENSOR_NAME = "textguard_automation"


def _llm_on() -> bool:
    return settings.llm_settings().enabled


def _llm_model() -> tuple[str, str] | None:
    llm = settings.llm_settings()
    return (llm.url, llm.model) if llm.enabled else None


def _ner() -> tuple:
    s = settings.math_ner_settings()
    return (s.backend, s.url, _llm_model() if s.backend != "rules" else None)


def _markers() -> tuple:
    s = settings.markers_gate_settings()
    llm = _llm_model() if s.soft_flag_action == "llm" else None
    return (s.enabled, s.sequence_threshold, s.soft_flag_action, s.fallback_max_markers, llm)


def _meanings() -> tuple:
    s, wn = settings.meanings_settings(), settings.wordnet_settings()
    llm = (s.rate, _llm_model()) if s.use_llm else None
    # fp32 (the default) leaves the tuple as it was: documents resolved before the precision existed stay fresh
    encoder = s.sense_encoder if s.sense_encoder_precision == "fp32" else (s.sense_encoder, s.sense_encoder_precision)
    return (s.wikidata_mode, s.spacy_model, s.boundary, s.min_occurrences_subject, s.min_occurrences_author,
            encoder, wn.lexicon, llm)  # fmt: skip


def _rewrite() -> tuple:
    s = settings.rewrite_settings()
    return (s.task, s.max_attempts, s.chunk_chars, s.temperature, s.length_band, s.language, _llm_model())


#: asset → the settings that change its output (not timeouts, retries, concurrency, caches or budgets: those
#: change how, or whether, it runs, not what a successful run writes)
SETTINGS_OF: dict[str, Callable[[], Any]] = {
    "source_documents": settings.max_document_bytes,
    "parsed_chunks": lambda: (settings.language_settings(), settings.chunk_limits()),
    "protected_chunks": lambda: settings.protection_settings(),
    "ner_frames": _ner,
    "gated_markers": _markers,
    "resolved_meanings": _meanings,
    "rewritten_chunks": _rewrite,
    "rewritten_documents": _rewrite,
}


def settings_version(asset: str) -> str:
    """A short hash of the settings that change ``asset``'s output ("" for an asset no setting changes)."""
    read = SETTINGS_OF.get(asset)
    if read is None:
        return ""
    return hashlib.sha256(repr(read()).encode()).hexdigest()[:8]


def paid_assets() -> set[str]:
    """The assets that call the LLM with the settings as they are now."""
    paid = {"rewritten_chunks", "rewritten_documents"}
    if _llm_on() and settings.math_ner_settings().backend != "rules":
        paid.add("ner_frames")
    if _llm_on() and settings.markers_gate_settings().soft_flag_action == "llm":
        paid.add("gated_markers")
    if settings.meanings_settings().use_llm and _llm_on():
        paid.add("resolved_meanings")
    return paid


def _rerun_on_new_version() -> AC:
    # A version change stays pending until this sensor requests the re-run (it waits out a run in progress),
    # and only that handles it. since_last_handled() also let an update of the asset handle it, and the first
    # tick after a restart sees the change together with any materialization the stopped daemon never
    # evaluated (or a run of the old code ending later): the re-run was lost (the flaky live test, issue 52).
    return (
        AC.code_version_changed().since(AC.newly_requested())
        & ~AC.any_deps_missing()
        & ~AC.any_deps_in_progress()
        & ~AC.in_progress()
    ).with_label("code_version_changed")


def condition_for(asset: str, *, is_root: bool) -> AC | None:
    """The automation condition of ``asset`` (None: the daemon never starts it on its own)."""
    if asset in paid_assets() and not settings.operations_settings().automate_paid:
        return None
    return _rerun_on_new_version() if is_root else AC.eager() | _rerun_on_new_version()


def _spec(spec: dg.AssetSpec) -> dg.AssetSpec:
    asset = spec.key.to_user_string()
    extra = settings_version(asset)
    version = f"{spec.code_version}{SETTINGS_MARK}{extra}" if extra and spec.code_version else spec.code_version
    return spec.replace_attributes(
        code_version=version, automation_condition=condition_for(asset, is_root=not list(spec.deps))
    )


def automate(defs: dg.Definitions) -> dg.Definitions:
    """``defs`` with every asset's settings-aware code version and automation condition (module docstring)."""
    return defs.map_asset_specs(func=_spec)


def automation_sensor() -> dg.AutomationConditionSensorDefinition:
    """The sensor the daemon evaluates the conditions in (running at start unless ``TEXTGUARD_AUTOMATION=off``)."""
    ops = settings.operations_settings()
    return dg.AutomationConditionSensorDefinition(
        SENSOR_NAME,
        target=dg.AssetSelection.all(),
        default_status=dg.DefaultSensorStatus.RUNNING if ops.automation else dg.DefaultSensorStatus.STOPPED,
        minimum_interval_seconds=ops.automation_interval_s,
        # its requests become backfills, whose own scope would be capped per backfill (TEXTGUARD_LLM_MAX_COST),
        # once per tick: the daily cap is the one that bounds a daemon left running
        run_tags={BUDGET_TAG: DAILY},
        description=(
            "Materializes every free asset of a newly registered or changed document (eager), and re-runs "
            "the assets whose code or settings version changed. LLM-spending assets only with "
            "TEXTGUARD_AUTOMATE_PAID=on."
        ),
    )
