#!/usr/bin/env bash
# Installs what the end-to-end tests need when it is missing, and nothing
# else: etcd from Debian's packages, and kube-apiserver v1.33.13 built from the
# k8s.io/kubernetes Go module (tools/kube-apiserver) into .bin/.
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

stamp="$BIN_DIR/kube-apiserver.version"
if [ ! -x "$BIN_DIR/kube-apiserver" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$KUBE_VERSION" ]; then
	echo "ensure-test-deps: building kube-apiserver $KUBE_VERSION (first time: about 6 minutes)" >&2
	mkdir -p "$BIN_DIR"
	start=$(date +%s)
	# Without these the server reports v0.0.0-master in /version.
	vpkg=k8s.io/component-base/version
	minor=${KUBE_VERSION#v1.}
	minor=${minor%%.*}
	ldflags="-X $vpkg.gitVersion=$KUBE_VERSION -X $vpkg.gitMajor=1 -X $vpkg.gitMinor=$minor -X $vpkg.gitTreeState=clean"
	# A private temp name: two concurrent runs must not write the same file.
	tmp="$BIN_DIR/kube-apiserver.tmp.$$"
	trap 'rm -f "$tmp"' EXIT
	(cd tools/kube-apiserver && go build -ldflags "$ldflags" -o "../../$tmp" k8s.io/kubernetes/cmd/kube-apiserver)
	mv "$tmp" "$BIN_DIR/kube-apiserver"
	echo "$KUBE_VERSION" >"$stamp"
	echo "ensure-test-deps: kube-apiserver built in $(($(date +%s) - start))s" >&2
fi
