# The README's two commands are `make demo` and `make test`.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
BIN      := dist/ownership-check

.PHONY: all build demo test test-deps unit lint bench bench-go clean

all: lint test

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ownership-check

# The main job on an embedded default, no cluster needed: check the demo's
# pull request offline against the snapshot branch committed as a git bundle
# (rebuilt by hack/make-demo.sh). It fails the check (exit 1: a split-owned
# item); only exit 2, the tool failing, fails the target.
demo: build
	./$(BIN) check testdata/demo/pr --offline --field-manager deployer \
		--environment staging --snapshot-repo testdata/demo/snapshots.bundle --output text \
		|| test $$? -eq 1

test-deps:
	./hack/ensure-test-deps.sh

# Unit and end-to-end tests (the e2e ones start a real kube-apiserver + etcd).
test: test-deps lint
	$(GO) test -count=1 -timeout 40m ./...

# Fast tests only: no API server.
unit:
	$(GO) test -short -count=1 ./...

lint:
	$(GO) vet ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# check vs check --offline vs kubectl diff vs the bare dry-run PATCHes on the
# real test API server (docs/benchmarks.md). BENCH_N=100,1000,5000 for the
# whole curve.
BENCH_N ?= 100,1000
bench: test-deps
	./bench/run -n $(BENCH_N) -markdown dist/benchmarks.md

# The packages' Go micro-benchmarks.
bench-go: test-deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf dist
