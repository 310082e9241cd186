"""Dagster-free pieces every capability shares: spans and the char-range rule, placeholders, spaCy loading,
the HTTP and chat clients."""
