# The README's two commands are `make demo` and `make test`.
GO       ?= go
VERSION  ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS  := -s -w -X main.version=$(VERSION)
BIN      := dist/ownership-check

.PHONY: all build release-local demo test test-deps unit lint bench bench-go clean

all: lint test

build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN) ./cmd/ownership-check

# What the release workflow publishes, built here: every target's binary and
# SHA256SUMS in dist/release (hack/release-build.sh). The version is the
# VERSION file's, which a release tag must equal; RELEASE_TARGETS=linux/amd64
# builds one.
RELEASE_VERSION ?= $(shell cat VERSION)
RELEASE_TARGETS ?= linux/amd64 linux/arm64 darwin/amd64 darwin/arm64
release-local:
	./hack/release-build.sh $(RELEASE_VERSION) dist/release $(RELEASE_TARGETS)

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

# The packages whose tests start an API server (their TestMain runs
# testcluster.Run): they run once more on the newest served release.
E2E_PKGS := $(sort $(patsubst %/,./%,$(dir $(shell grep -rl --include='*_test.go' 'func TestMain.*testcluster\.Run' internal))))

# Unit and end-to-end tests (the e2e ones start a real kube-apiserver + etcd):
# everything on the pinned v1.33, then the e2e packages on v1.37. The second
# run compiles nothing new: only the API server differs. One after the other:
# run together on 2 cores they saved about 3 of 6.5 warm minutes, but the
# doubled load made a timing-sensitive test (concurrent sticky comments) fail.
test: test-deps lint
	$(GO) test -count=1 -timeout 40m ./...
	OWNERSHIP_CHECK_KUBE_VERSION=1.37 $(GO) test -count=1 -timeout 40m $(E2E_PKGS)

# Fast tests only: no API server.
unit:
	$(GO) test -short -count=1 ./...

# go vet, staticcheck (pinned in tools/lint, built into .bin/) and gofmt.
lint:
	./hack/ensure-lint.sh
	$(GO) vet ./...
	.bin/staticcheck ./...
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# check vs check --offline vs kubectl diff vs the bare dry-run PATCHes on the
# real test API server (docs/benchmarks.md), locally and through a proxy
# that adds BENCH_LATENCY each way (a remote cluster; empty: local only).
# BENCH_N=100,1000,5000 for the whole curve.
BENCH_N ?= 100,1000
BENCH_LATENCY ?= 15ms
bench: test-deps
	./bench/run -n $(BENCH_N) $(if $(BENCH_LATENCY),-latency $(BENCH_LATENCY)) -markdown dist/benchmarks.md

# The packages' Go micro-benchmarks.
bench-go: test-deps
	$(GO) test -run '^$$' -bench . -benchmem ./...

clean:
	rm -rf dist
