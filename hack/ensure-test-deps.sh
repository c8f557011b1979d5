#!/usr/bin/env bash
# Installs what the tests need when it is missing, and nothing else: etcd
# from Debian's packages, kube-apiserver and kubectl v1.33.13 built from
# the k8s.io/kubernetes Go module (tools/kube) into .bin/. The linter is
# hack/ensure-lint.sh's.
# Safe to rerun: each step is skipped when its result is already there.
set -euo pipefail
cd "$(dirname "$0")/.."

KUBE_VERSION=v1.33.13
BIN_DIR=.bin

if ! command -v etcd >/dev/null 2>&1 && [ ! -x /usr/bin/etcd ]; then
	echo "ensure-test-deps: installing etcd-server (Debian)" >&2
	sudo_cmd=""
	[ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
	$sudo_cmd apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq etcd-server >/dev/null
fi

# Without these the binaries report v0.0.0-master: kube-apiserver in
# /version (component-base), kubectl in `kubectl version` and its
# User-Agent (client-go).
minor=${KUBE_VERSION#v1.}
minor=${minor%%.*}
ldflags=""
for vpkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
	ldflags+=" -X $vpkg.gitVersion=$KUBE_VERSION -X $vpkg.gitMajor=1 -X $vpkg.gitMinor=$minor -X $vpkg.gitTreeState=clean"
done

tmps=()
trap 'rm -f "${tmps[@]}"' EXIT

# build NAME ESTIMATE: k8s.io/kubernetes/cmd/NAME into .bin/NAME, with
# .bin/NAME.version saying which release it is. Both commands come from the
# one module, so the second reuses the packages the first compiled.
build() {
	local name=$1 stamp="$BIN_DIR/$1.version"
	if [ -x "$BIN_DIR/$name" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$KUBE_VERSION" ]; then
		return
	fi
	echo "ensure-test-deps: building $name $KUBE_VERSION (first time: $2)" >&2
	mkdir -p "$BIN_DIR"
	local start tmp
	start=$(date +%s)
	# A private temp name: two concurrent runs must not write the same file.
	tmp="$BIN_DIR/$name.tmp.$$"
	tmps+=("$tmp")
	(cd tools/kube && go build -ldflags "$ldflags" -o "../../$tmp" "k8s.io/kubernetes/cmd/$name")
	mv "$tmp" "$BIN_DIR/$name"
	echo "$KUBE_VERSION" >"$stamp"
	echo "ensure-test-deps: $name built in $(($(date +%s) - start))s" >&2
}

build kube-apiserver "about 6 minutes"
build kubectl "about 2 minutes"
