#!/usr/bin/env bash
# Builds the release binaries and their SHA256SUMS, as the release workflow
# does (`make release-local` runs the same): one static binary per target,
# named ownership-check-<os>-<arch>, the names scripts/install.sh downloads.
#
#   hack/release-build.sh VERSION OUT_DIR [os/arch ...]
#
# Reproducible: the same commit and Go version give the same bytes
# (-trimpath drops this machine's paths, no cgo, the version comes from
# ldflags, and the VCS stamp is the commit's).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 2 ]; then
	echo "usage: $0 VERSION OUT_DIR [os/arch ...]" >&2
	exit 2
fi
version=$1 out=$2
shift 2
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux/amd64 linux/arm64 darwin/amd64 darwin/arm64)

if ! [[ $version =~ ^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$ ]]; then
	echo "release-build: version \"$version\" is not a release tag like v1.2.3" >&2
	exit 2
fi

mkdir -p "$out"
rm -f "$out"/ownership-check-* "$out/SHA256SUMS"
for target in "${targets[@]}"; do
	os=${target%/*} arch=${target#*/}
	echo "release-build: $version $os/$arch" >&2
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch GOFLAGS=-mod=readonly \
		go build -trimpath -ldflags "-s -w -X main.version=$version" \
		-o "$out/ownership-check-$os-$arch" ./cmd/ownership-check
done

# The format of sha256sum, which `sha256sum -c` and scripts/install.sh read.
(
	cd "$out"
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum ownership-check-*
	else
		shasum -a 256 ownership-check-*
	fi
) >"$out/SHA256SUMS.tmp"
mv "$out/SHA256SUMS.tmp" "$out/SHA256SUMS"
cat "$out/SHA256SUMS" >&2
