# Entry points of the pipeline.  Every target installs what it needs into a
# virtual environment (.venv) first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat setup.cfg pyproject.toml | cksum | cut -d' ' -f1)

PROBLEMS ?= sgf-problems
OUT ?= out
ALGO ?= dfs
# Training: make train runs a cosine schedule over TRAIN_EPOCHS epochs on every
# train problem and keeps the last (no records held back to choose an epoch:
# RESULTS.md, "make train keeps the last epoch"); a wall-clock budget in minutes
# (crossval's folds stop early by patience); seed, and bits a weight of the packed network.
TRAIN_EPOCHS ?= 28
TRAIN_MINUTES ?= 10
SEED ?= 0
# The network: dense (dcnn-eval's, the original network) or conv (3×3 convolutions, better on
# unseen problems): a named configuration of model/configs.py.
ARCH ?= dense
BITS ?= 5
# Problems written by make generate, and its other options
# (e.g. GENERATE_OPTIONS="--min-area 6 --max-area 13", the sizes trained on in the README).
COUNT ?= 1000
GENERATE_OPTIONS ?=
# solve-all: moves from each problem, and the smallest search area still
# expanded; subproblems validate re-solves.
DEPTH ?= 20
MIN_AREA ?= 7
# Beam options of solve-all and features (default: a worker process per core;
# e.g. BEAM="--runner DataflowRunner --project P ..." for a cloud runner).
BEAM ?= --direct_num_workers 0 --direct_running_mode multi_processing
SAMPLE ?= 200
# enclose: the folder of open-board problems (a book's corners, no wall, no
# target; e.g. OPEN=../shared/sgf-open) and its options (e.g. "--max-nodes 200000").
OPEN ?= tests/open-problems
ENCLOSE_OPTIONS ?=

.PHONY: all install test bench solve clean train crossval quantize report eval features generate solve-all validate check-dfpn check-gotools check-labels enclose network network-status network-reference network-report move-patterns

# The whole chain on $(PROBLEMS), ending with the report.  Each stage is its
# own make run so they go in order; every stage skips or overwrites cleanly.
all: $(STAMP)
	$(MAKE) solve-all
	$(MAKE) features
	$(MAKE) train
	$(MAKE) quantize
	$(MAKE) report

$(STAMP): setup.cfg pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m pipeline.warm_up   # numba compiles the kernels here once, not in the first command
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

# The test files in a pytest process per core, two at most (tests/run_groups.py);
# TEST_ARGS go to every pytest process, e.g. TEST_ARGS='-x -k enclose'.
test: $(STAMP)
	$(BIN)/python tests/run_groups.py $(TEST_ARGS)

# Solver benchmark: our DFS and df-pn against tsumego.js 1.1.0 (installed into
# a cache folder outside the repository) on ../shared/sgf-problems; then reach:
# 60 book readings of 17-23 points enclose left unsettled, solved within 10 CPU
# seconds each by DFS and by the search --seconds spends its time with (df-pn with
# the simulation and the eye space: the way time-pass), the readings in
# bench/draws/unsettled-readings.jsonl; each reading settled put to tsumego.js.
bench: $(STAMP)
	$(BIN)/python -m bench.solver_bench --problems ../shared/sgf-problems --peer-timeout 60
	$(BIN)/python -m bench.combination_reach --ways dfs,time-pass --sample 60 --seconds 10 --peer 20
	$(BIN)/python -m bench.model_bench --model $(OUT)/model
	$(BIN)/python -m bench.model_bench --model "" --architecture conv --planes 25
	$(BIN)/python -m bench.features_bench --problems ../shared/sgf-problems --subproblems $(OUT)/solve-all/subproblems
	$(BIN)/python -m bench.tactics_bench --problems ../shared/sgf-problems --subproblems $(OUT)/solve-all/subproblems
	$(BIN)/python -m bench.own_problems_bench --problems sgf-problems
	$(BIN)/python -m bench.guided_bench --problems ../shared/sgf-problems --guide model/networks/conv-books

# df-pn against DFS on every reference problem, both sides first, both ko
# masters: verdicts, winning moves, nodes and seconds (the tests check a subset).
check-dfpn: $(STAMP)
	$(BIN)/python -m bench.dfpn_agreement --problems ../shared/sgf-problems

# GoTools' own verdicts on its 11,545 enclosed problems (../shared/gotools) against the
# solver's, ALGO first; every disagreement listed (bench/gotools_check.py).  E.g.
# GOTOOLS_OPTIONS="--sample 2000 --seed 0" or "--files lv1.1,lv2.1 --workers 2".
GOTOOLS_OPTIONS ?=
check-gotools: $(STAMP)
	$(BIN)/python -m bench.gotools_check --gotools ../shared/gotools --algo $(ALGO) $(GOTOOLS_OPTIONS)

# Re-solve $(SAMPLE) random subproblems of solve-all with tsumego.js (the reference solver).
check-labels: $(STAMP)
	$(BIN)/python -m bench.peer_labels $(OUT)/solve-all --sample $(SAMPLE) --seed $(SEED)

# Solve every problem of $(PROBLEMS) for the side in PL[].
solve: $(STAMP)
	mkdir -p $(OUT)
	find $(PROBLEMS) -name '*.sgf' | sort | xargs $(BIN)/tsumego solve --algo $(ALGO) --json > $(OUT)/solve.jsonl
	@echo "solved: $$(wc -l < $(OUT)/solve.jsonl) problems -> $(OUT)/solve.jsonl"

# Every problem of $(PROBLEMS) into labelled subproblem SGFs, trees and stats
# under $(OUT)/solve-all (Beam; a rerun skips the problems already done).
solve-all: $(STAMP)
	$(BIN)/tsumego solve-all --problems $(PROBLEMS) --out $(OUT)/solve-all --max-depth $(DEPTH) --min-area $(MIN_AREA) $(BEAM)

# Re-solve $(SAMPLE) random subproblems of solve-all with the other search.
validate: $(STAMP)
	$(BIN)/tsumego validate $(OUT)/solve-all --sample $(SAMPLE) --seed $(SEED)

# Feature windows of every subproblem of solve-all into sharded TFRecords (Beam, options in BEAM).
features: $(STAMP)
	$(BIN)/tsumego features --subproblems $(OUT)/solve-all/subproblems --out $(OUT)/tfrecords $(BEAM)

# Feature folders whose records are also trained on, never evaluated (say generated
# problems' after make generate, solve-all and features): EXTRA_TRAIN="DIR ...".
EXTRA_TRAIN ?=
EXTRA_OPTIONS := $(foreach dir,$(EXTRA_TRAIN),--extra-train $(dir))

# Train the safety network on $(OUT)/tfrecords (written by make features).
train: $(STAMP)
	$(BIN)/tsumego train --data $(OUT)/tfrecords --out $(OUT)/model --config $(ARCH) --minutes $(TRAIN_MINUTES) \
	    --seed $(SEED) --epochs $(TRAIN_EPOCHS) $(EXTRA_OPTIONS)

# Accuracy on unseen problems: $(FOLDS) folds of whole problems of $(OUT)/tfrecords,
# each trained for at most $(TRAIN_MINUTES) minutes (model/cross_validation.py).
FOLDS ?= 5
crossval: $(STAMP)
	$(BIN)/tsumego crossval --data $(OUT)/tfrecords --out $(OUT)/crossval --folds $(FOLDS) --minutes $(TRAIN_MINUTES) --seed $(SEED) --architecture $(ARCH) $(EXTRA_OPTIONS)

# Pack the network at $(BITS) bits a weight; table of test error for 2..8 bits and float.
quantize: $(STAMP)
	$(BIN)/tsumego quantize --model $(OUT)/model --bits $(BITS)

# Error by size, bits table and training curves into reports/.
report: $(STAMP)
	$(BIN)/tsumego report --model $(OUT)/model --bits $(BITS) --out reports

# The packed network's verdict and best moves on every problem of $(PROBLEMS).
eval: $(STAMP)
	$(BIN)/tsumego eval --model $(OUT)/model/model-$(BITS)bit.tsq $(PROBLEMS)

# $(COUNT) random enclosed problems whose first move matters, verified by the
# solver, into $(OUT)/generated (same SEED, same files).
generate: $(STAMP)
	$(BIN)/tsumego generate --count $(COUNT) --seed $(SEED) --out $(OUT)/generated $(GENERATE_OPTIONS)

# Open-board problems of $(OPEN) framed into enclosed ones, their question
# inferred and checked against the book's move, into $(OUT)/enclosed (Beam,
# resumable); then e.g. make solve-all PROBLEMS=$(OUT)/enclosed.
enclose: $(STAMP)
	$(BIN)/tsumego enclose $(OPEN) --out $(OUT)/enclosed $(ENCLOSE_OPTIONS) $(BEAM)

# The shipped network (model/networks/$(NETWORK)) built again from the shared data:
# the published problems of $(SHARED)/sgf-open enclosed (unguided: the data does not
# depend on an earlier network), their trees capped at 100 nodes a side; the book
# problems whose position copies a held-out reference problem's left out
# (same-positions), the rest's features split by problem; the train split of the
# reference problems ($(SHARED)/sgf-problems, split by problem with 0.34 held out)
# drawn 4 times an epoch beside them; packed at $(BITS) bits, scored on the held-out
# reference split (its calibration sets eval's unsure band) and installed in
# $(NETWORK_DIR) with its float weights and its card (tsumego card).
# NETWORK_SIZE=short (the default, 123 minutes of stages on 2 cores): enclose at a tenth
# of its node budget and one training of conv-books-short from the shipped network's
# weights, so each build goes on from the last.  NETWORK_SIZE=full (about seven
# hours): enclose at its default budget, conv-books from nothing then conv-books-longer.
# Every stage keeps its output in $(NETWORK_CACHE), outside the repository, and a
# stamp; a stopped build goes on where it stopped, a stage whose inputs or settings
# changed runs again (pipeline/network_build.py).  make network-status says where it stands.
SHARED ?= ../shared
NETWORK ?= conv-books
NETWORK_DIR ?= model/networks/$(NETWORK)
NETWORK_SIZE ?= short
NETWORK_CACHE ?= $(HOME)/.cache/tsumego/network$(if $(filter short,$(NETWORK_SIZE)),-short)
# The book trees' cap (empty: the size's, 100)
MAX_SUBPROBLEMS ?=
# An ablation's build (say MAX_SUBPROBLEMS=300 in a cache of its own) links the stages
# this other cache has done with the same keys, the enclosed book problems above all.
NETWORK_SHARE ?=
# Generated problems in the open style trained on beside the books (0: none), and the
# short build's start: shipped (the network's weights) or fresh (from nothing)
NETWORK_GENERATED ?= 0
NETWORK_START ?= shipped
# The first training's epochs (empty: the recipe's): an ablation at equal time cuts them
# when its epochs hold more records
NETWORK_EPOCHS ?=
# The data stages' size where not NETWORK_SIZE's (empty: the same): NETWORK_DATA=full with
# NETWORK_SHARE=<the full cache> trains the short recipe on the full build's data
NETWORK_DATA ?=
REFERENCE := $(NETWORK_CACHE)/reference
NETWORK_BUILD = $(BIN)/python -m pipeline.network_build --size $(NETWORK_SIZE) --cache $(NETWORK_CACHE) \
	--shared $(SHARED) --network $(NETWORK) --seed $(SEED) --bits $(BITS) \
	$(if $(MAX_SUBPROBLEMS),--max-subproblems $(MAX_SUBPROBLEMS)) \
	--generated $(NETWORK_GENERATED) --start $(NETWORK_START) $(if $(NETWORK_EPOCHS),--epochs $(NETWORK_EPOCHS)) \
	$(if $(NETWORK_DATA),--data $(NETWORK_DATA)) \
	--beam "$(BEAM)" \
	--enclose-options "$(ENCLOSE_OPTIONS)" $(if $(NETWORK_SHARE),--share-from $(NETWORK_SHARE))
network: $(STAMP)
	$(NETWORK_BUILD) run

network-status: $(STAMP)
	$(NETWORK_BUILD) status

# The move order's learned patterns (solver/move_patterns.npz), fitted on searches of
# book problems enclosed as the full make network encloses them (its folder, enclosed
# first if it is not there), drawn from the training half of the collection, the
# benchmark draws left out (python -m solver.pattern_training; docs/solver.md).
PATTERNS_FILE ?= solver/move_patterns.npz
PATTERNS_CACHE ?= $(HOME)/.cache/tsumego/network
move-patterns: $(STAMP)
	$(BIN)/python -m pipeline.network_build run --size full --cache $(PATTERNS_CACHE) --shared $(SHARED) \
	    --beam "$(BEAM)" --until enclose
	$(BIN)/python -m solver.pattern_training $(PATTERNS_CACHE)/enclosed --out $(PATTERNS_FILE) \
	    --exclude bench/draws/*.jsonl

# The reference problems expanded as the book problems are, their features split by
# problem: the train split for make network's training, the test split held out.
network-reference: $(STAMP)
	$(NETWORK_BUILD) run --until reference-features

# The shipped network scored on problems it never trained on: the held-out
# reference problems (the test split above), with and without the 8 symmetries.
network-report: network-reference
	$(BIN)/tsumego report --model $(NETWORK_DIR) --data $(REFERENCE)/tfrecords --split test \
	    --out reports/$(NETWORK)

clean:
	rm -rf $(OUT) .pytest_cache
