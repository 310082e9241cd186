"""Dagster-side shared pieces: the Parquet IO manager, partitions, the per-document runner, check factories, resources."""
