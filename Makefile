SHELL := /bin/bash
# ClusterMap — `make run` launches the app on the bundled world cities; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=

.PHONY: run test build release bench bench-compare install setup clean fuzz

run: setup release
	./.build/release/clustermap $(ARGS)

test:
	./scripts/setup.sh test
	$(SWIFT) build
	./scripts/test.sh

setup:
	./scripts/setup.sh

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release --product clustermap

# A long seeded fuzz run of the GeoJSON, NDJSON and CSV readers and of the tile readers (MVT,
# PMTiles and its directories); the test suite runs a short one.
fuzz:
	GEODATA_FUZZ_ITERATIONS=$${GEODATA_FUZZ_ITERATIONS:-200000} $(SWIFT) test --filter GeoDataTests.FuzzTests
	TILES_FUZZ_ITERATIONS=$${TILES_FUZZ_ITERATIONS:-100000} $(SWIFT) test --filter TilesTests.TileFuzzTests

bench: setup
	$(SWIFT) build -c release --product clustermap-bench
	$(SWIFT) build -c release --product clustermap
	./scripts/bench.sh

# ClusterMap against the C++ port of supercluster (pip, in a venv under .build/) at 1M and 10M.
bench-compare: setup
	$(SWIFT) build -c release --product clustermap-bench
	./scripts/bench-compare.sh

install: release
	./scripts/install.sh "$(PREFIX)"

clean:
	rm -rf .build
