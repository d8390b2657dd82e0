SHELL := /bin/bash
# ClusterMap — `make run` launches the app on the bundled world cities; `make test` runs every test.
SWIFT ?= swift
PREFIX ?= /usr/local
ARGS ?=

.PHONY: run test build release bench install setup clean

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

bench: setup
	$(SWIFT) build -c release --product clustermap-bench
	./scripts/bench.sh

install: release
	./scripts/install.sh "$(PREFIX)"

clean:
	rm -rf .build
