#!/usr/bin/env bash
# Installs what the tests need when it is missing, and nothing else: etcd,
# curl and sha256sum from Debian's packages; kube-apiserver and kubectl v1.33.13 built from the
# k8s.io/kubernetes Go module (tools/kube) into .bin/; and the newest served
# kube-apiserver, v1.37.2 (tools/kube137), into .bin/kube-apiserver-1.37,
# which the e2e tests use with OWNERSHIP_CHECK_KUBE_VERSION=1.37. One kubectl
# serves both: the tests that run it only need it to talk to either server.
# Both API servers run on Debian's etcd 3.4. Helm 4's helm (tools/helm4)
# goes into .bin/helm4/helm for the tests that perform a real Helm 4 apply.
# The linter is hack/ensure-lint.sh's.
# Safe to rerun: each step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

KUBE_VERSION=v1.33.13
# The newest release the module proxy serves; its minor names the binary.
KUBE_VERSION_NEWEST=v1.37.2
BIN_DIR=.bin

# Debian packages the tests run: etcd, and the tools the install scripts
# of the action and the GitLab component call (curl, sha256sum), which
# the release tests run for real rather than skip.
debs=()
if ! command -v etcd >/dev/null 2>&1 && [ ! -x /usr/bin/etcd ]; then debs+=(etcd-server); fi
command -v curl >/dev/null 2>&1 || debs+=(curl ca-certificates)
command -v sha256sum >/dev/null 2>&1 || debs+=(coreutils)
if [ ${#debs[@]} -gt 0 ]; then
	echo "ensure-test-deps: installing ${debs[*]} (Debian)" >&2
	sudo_cmd=""
	[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${debs[@]}" >/dev/null
fi

tmps=()
trap 'rm -f "${tmps[@]}"' EXIT

# gobuild MODULE PACKAGE OUT STAMP ESTIMATE LDFLAGS: PACKAGE built in
# tools/MODULE into .bin/OUT, unless it is there with .bin/OUT.version
# saying STAMP. All builds share the Go build cache, so kubectl reuses what
# kube-apiserver compiled, and the second release recompiles only what
# changed between them.
gobuild() {
	local module=$1 pkg=$2 out=$3 want=$4 estimate=$5 ldflags=$6
	local stamp="$BIN_DIR/$out.version"
	if [ -x "$BIN_DIR/$out" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
		return
	fi
	echo "ensure-test-deps: building $out $want (first time: $estimate)" >&2
	mkdir -p "$(dirname "$BIN_DIR/$out")"
	local start tmp
	start=$(date +%s)
	# A private temp name: two concurrent runs must not write the same file.
	tmp="$BIN_DIR/$out.tmp.$$"
	tmps+=("$tmp")
	# v1.37 and Helm 4 need Go 1.26, as the product does (go.mod): auto
	# fetches the toolchain a module asks for when the go on PATH is older.
	(cd "tools/$module" && GOTOOLCHAIN=auto go build -ldflags "$ldflags" -o "../../$tmp" "$pkg")
	mv "$tmp" "$BIN_DIR/$out"
	echo "$want" >"$stamp"
	echo "ensure-test-deps: $out built in $(($(date +%s) - start))s" >&2
}

# build MODULE NAME VERSION OUT ESTIMATE: k8s.io/kubernetes/cmd/NAME from
# tools/MODULE into .bin/OUT, with .bin/OUT.version saying which release it
# is.
build() {
	local module=$1 name=$2 version=$3 out=$4 estimate=$5
	# Without these the binaries report v0.0.0-master: kube-apiserver in
	# /version (component-base), kubectl in `kubectl version` and its
	# User-Agent (client-go).
	local minor=${version#v1.} ldflags="" vpkg
	minor=${minor%%.*}
	for vpkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
		ldflags+=" -X $vpkg.gitVersion=$version -X $vpkg.gitMajor=1 -X $vpkg.gitMinor=$minor -X $vpkg.gitTreeState=clean"
	done
	gobuild "$module" "k8s.io/kubernetes/cmd/$name" "$out" "$version" "$estimate" "$ldflags"
}

build kube kube-apiserver "$KUBE_VERSION" kube-apiserver "about 6 minutes"
build kube kubectl "$KUBE_VERSION" kubectl "about 2 minutes"
build kube137 kube-apiserver "$KUBE_VERSION_NEWEST" kube-apiserver-1.37 "about 10 minutes"

# Helm 4's command line (tools/helm4's main) applies under its own name as
# field manager: `helm` in a folder of its own, and a link
# `helm-controller` to it for Flux 2.8's helm-controller (Helm 4 applying
# under that name). The version is tools/helm4's requirement; bump both.
# The stamp adds a digest of the module, so a change to it rebuilds; the
# ldflags set what Helm's version command and User-Agent say.
HELM4_VERSION=v4.3.1
gobuild helm4 . helm4/helm \
	"$HELM4_VERSION $(cat tools/helm4/go.mod tools/helm4/go.sum tools/helm4/main.go | sha256sum | cut -c1-12)" \
	"up to 17 minutes on 2 busy cores" "-X helm.sh/helm/v4/internal/version.version=$HELM4_VERSION"
ln -sfn helm "$BIN_DIR/helm4/helm-controller"
