# polyfuse: top-level entry points. `make demo` and `make test` work on a fresh Debian 12.
BUILD ?= build
JOBS  ?= $(shell nproc)
SUDO  := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Exactly the Debian packages the build, the tests and the demo need.
DEB_PACKAGES := build-essential cmake pkg-config libisl-dev libboost-graph-dev \
  coinor-libcbc-dev catch2 libyaml-cpp-dev nlohmann-json3-dev libfmt-dev libcli11-dev \
  ocl-icd-opencl-dev opencl-c-headers pocl-opencl-icd llvm-14-tools python3 \
  python3-matplotlib python3-numpy

.PHONY: deps build test demo clean
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

clean:
	rm -rf $(BUILD)
