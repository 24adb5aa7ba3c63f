# polyfuse: top-level entry points. `make demo` and `make test` work on a fresh Debian 12.
BUILD ?= build
JOBS  ?= $(shell nproc)
SUDO  := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Exactly the Debian packages the build, the tests and the demo need.
DEB_PACKAGES := build-essential cmake pkg-config libisl-dev libboost-graph-dev \
  coinor-libcbc-dev catch2 libyaml-cpp-dev nlohmann-json3-dev libfmt-dev libcli11-dev \
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd llvm-14-tools clang-14 python3 \
  python3-matplotlib python3-numpy chromium libmlir-19-dev mlir-19-tools llvm-19-dev \
  python3-dev pybind11-dev python3-pytest python3-pandas libtcmalloc-minimal4

.PHONY: deps build test demo clean check-sanitize fuzz install
deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "make deps: installing$$(echo $$missing | sed 's/^/ /')"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	else echo "make deps: all packages present"; fi

build: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	cmake --build $(BUILD) -j $(JOBS) -- --no-print-directory

test: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

demo: build
	./tools/demo.sh

# `make install PREFIX=DIR` puts the polyfuse command in DIR/bin and the Python package in
# DIR/lib/python3/dist-packages (default PREFIX: /usr/local).
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# AddressSanitizer + UndefinedBehaviorSanitizer, every finding fatal: the unit tests, the
# fast lit tests (not the per-example sweeps or nvcc) and a short fuzz run of each parser.
# Leak checking is on wherever no OpenCL runs. Where PoCL runs, its worker threads make
# LeakSanitizer's exit-time tracer crash now and then ("Tracer caught signal 11"), so
# those processes run with ASan and UBSan but without the leak check; leaks inside
# PoCL/LLVM are suppressed anyway (test/sanitizer/lsan.supp).
SAN_BUILD ?= build-asan
SAN_BASE := UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 POCL_CACHE_DIR=$(CURDIR)/$(SAN_BUILD)/pocl-cache
SAN_ENV := $(SAN_BASE) ASAN_OPTIONS=detect_leaks=1 \
  LSAN_OPTIONS=suppressions=$(CURDIR)/test/sanitizer/lsan.supp:print_suppressions=0
SAN_ENV_OPENCL := $(SAN_BASE) ASAN_OPTIONS=detect_leaks=0
# The fast folders' tests that start PoCL (a RUN line that executes), found by content so
# that a new test lands on the right side of the leak check by itself.
SAN_FAST_DIRS := errors check fuse mlir
empty :=
space := $(empty) $(empty)
SAN_OPENCL_LIT := $(subst $(space),|,$(sort $(patsubst test/lit/%,%,$(shell cd $(CURDIR) && \
  grep -rlE 'RUN:.*(polyfuse exec|%oracle|opencl)' $(addprefix test/lit/,$(SAN_FAST_DIRS)) \
  | grep -v /Inputs/))))
SLOW_UNIT := fusion: ilp equals exhaustive on 300 random programs
# Under the sanitizers (10-20x slower) the random-program sweep runs this many of its 300,
# and the tests tagged [slow] (sweeps over examples and brute forces, the same code on more
# inputs) are left to make test: the sanitizer stage stays within CI's time.
SAN_RANDOM_PROGRAMS ?= 60
# And this many of the 20 random programs run on PoCL (two plans each): PoCL compiling
# kernels inside the instrumented process is most of that test's time.
SAN_OPENCL_PROGRAMS ?= 8
# Left to make test: under the sanitizers these repeat code that other tests there run
# already (a 2-layer model's exec, where mlir/ imports and plans models; the same sweep
# six times, where robust.test runs it; validation in an experiment, beside
# exec/validate.test; replanned contractions beside contraction_tile.test; streamed sums
# beside stream_numerics.test; vectors, which register_rows, scalar_tail and codegen/
# emit; the linalg examples' runs, whose import mlir/ and the mlir fuzzer check; tiled
# contractions run on PoCL, split-K and not, whose plans codegen/plan_roundtrip.test
# generates from JSON here; a streamed tile of gathered values, beside stream_tile.test):
# about 500 s of the 45 minutes CI allows, by ASan runs' --time-tests (contraction_tile
# 58 s, split_k 54 s alone).
SAN_SKIP_LIT := exec/models.test|experiment/sweep.test|experiment/validation.test|exec/replan_contractions.test|exec/stream.test|exec/vector.test|exec/linalg.test|exec/split_k.test|exec/contraction_tile.test|exec/stream_gather.test
LIT := python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv $(SAN_BUILD)/test/lit
FUZZ_SECONDS ?= 10
check-sanitize: deps
	cmake -S . -B $(SAN_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
	  -DPOLYFUSE_SANITIZE=ON >/dev/null
	cmake --build $(SAN_BUILD) -j $(JOBS) -- --no-print-directory
	@echo "== sanitizers: unit tests (the random programs beside the others; the [slow] sweeps are make test's)"
	$(SAN_ENV) POLYFUSE_RANDOM_PROGRAMS=$(SAN_RANDOM_PROGRAMS) $(SAN_BUILD)/bin/unit_tests "$(SLOW_UNIT)" > $(SAN_BUILD)/unit-slow.log 2>&1 & slow=$$!; \
	  $(SAN_ENV) $(SAN_BUILD)/bin/unit_tests "~$(SLOW_UNIT)" "~opencl:*" "~[slow]" && \
	  $(SAN_ENV_OPENCL) POLYFUSE_OPENCL_PROGRAMS=$(SAN_OPENCL_PROGRAMS) $(SAN_BUILD)/bin/unit_tests "opencl:*"; rest=$$?; \
	  wait $$slow; s=$$?; cat $(SAN_BUILD)/unit-slow.log; test $$rest -eq 0 -a $$s -eq 0
	@echo "== sanitizers: fast lit tests (leaks checked where no OpenCL runs)"
	$(SAN_ENV) $(LIT) --filter '^polyfuse :: (errors|check|fuse|mlir)/' --filter-out '$(SAN_OPENCL_LIT)'
	$(SAN_ENV_OPENCL) $(LIT) --filter '^polyfuse :: ((exec|codegen|experiment|hardening)/|$(SAN_OPENCL_LIT))' \
	  --filter-out '$(SAN_SKIP_LIT)'
	@echo "== sanitizers: fuzzing, $(FUZZ_SECONDS) s per parser"
	$(MAKE) --no-print-directory fuzz BUILD=$(SAN_BUILD)

# A fuzz run of each parser (polyfuse-fuzz: TC front end and later stages, the linalg
# importer with MLIR's parser under it, experiment YAML, device YAML, plans read back). A crash saves its input under $(BUILD)/fuzz-crashes and fails.
fuzz:
	$(SAN_ENV) $(BUILD)/bin/polyfuse-fuzz tc --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz-crashes examples
	$(SAN_ENV) $(BUILD)/bin/polyfuse-fuzz mlir --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz-crashes \
	  examples/linalg test/lit/mlir test/lit/semantics test/lit/hardening
	$(SAN_ENV) $(BUILD)/bin/polyfuse-fuzz config --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz-crashes test/fuzz/corpus/config
	$(SAN_ENV) $(BUILD)/bin/polyfuse-fuzz device --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz-crashes \
	  test/fuzz/corpus/device examples/devices
	$(SAN_ENV) $(BUILD)/bin/polyfuse-fuzz plan --seconds $(FUZZ_SECONDS) --crashes $(BUILD)/fuzz-crashes test/fuzz/corpus/plan

clean:
	rm -rf $(BUILD) $(SAN_BUILD)
