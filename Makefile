# Entry points of the pipeline.  Every target installs what it needs into a
# virtual environment (.venv) first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat setup.cfg pyproject.toml | cksum | cut -d' ' -f1)

PROBLEMS ?= sgf-problems
OUT ?= out
ALGO ?= dfs

.PHONY: all install test bench solve clean

all: solve

$(STAMP): setup.cfg pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -q tests

# Solver benchmark: ours against tsumego.js 1.1.0 (installed into a cache
# folder outside the repository) on ../shared/sgf-problems.
bench: $(STAMP)
	$(BIN)/python -m bench.solver_bench --problems ../shared/sgf-problems

# Solve every problem of $(PROBLEMS) for the side in PL[].
solve: $(STAMP)
	mkdir -p $(OUT)
	find $(PROBLEMS) -name '*.sgf' | sort | xargs $(BIN)/tsumego solve --algo $(ALGO) --json > $(OUT)/solve.jsonl
	@echo "solved: $$(wc -l < $(OUT)/solve.jsonl) problems -> $(OUT)/solve.jsonl"

clean:
	rm -rf $(OUT) .pytest_cache
