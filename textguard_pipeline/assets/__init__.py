"""Thin Dagster assets, one module per family; the logic lives in core/."""
