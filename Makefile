# mdc: the everyday commands. The scripts in scripts/ do the work.
#
#   make run      build and run PostgreSQL, mdc-server and mdc-gateway
#   make test     build and run every test (CI runs it after make lint)
#   make lint     the static checks, changing nothing (scripts/lint.sh):
#                 clang-format, gofmt and go vet, ruff and mypy, tsc and eslint
#   make build    build only (into $(MDC_BUILD_DIR), default build/)
#   make format   clang-format the C++ code (.clang-format), gofmt the Go code
#   make test-containers  build the images with podman, run compose.yaml's
#                 default services and its scale profile (scripts/test-containers.sh)
#   make bench    the ingest benchmark (bench/run.sh, docs/performance.md)
#   make pg-stop  stop the private PostgreSQL that `make run` started
#   make clean    remove the build folder (keeps .mdc/, the local database)

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
BUILD_DIR := $(or $(MDC_BUILD_DIR),build)
export PATH := /usr/local/go/bin:$(PATH)

.PHONY: run test lint test-containers build bench format pg-stop clean

run:
	bash scripts/run.sh

test:
	bash scripts/test.sh

lint:
	bash scripts/lint.sh

test-containers:
	bash scripts/test-containers.sh

build:
	bash scripts/install-deps.sh test
	MDC_TESTS=ON bash scripts/build.sh

bench:
	bash bench/run.sh

format:
	git ls-files -z -- '*.cc' '*.h' '*.cpp' '*.hpp' | xargs -0 -r clang-format -i --style=file
	git ls-files -z -- '*.go' | xargs -0 -r gofmt -l -w

pg-stop:
	bash scripts/pg.sh stop

clean:
	rm -rf -- "$(BUILD_DIR)"
