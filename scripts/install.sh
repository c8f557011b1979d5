#!/usr/bin/env bash
# Installs the ownership-check release binary for this runner's OS and
# architecture, after checking it against the release's SHA256SUMS, into the
# runner's tool cache (ownership-check/<version>/<arch>/), and writes its path
# to the step output `path`. action.yml runs it; so does a person, by hand.
#
# Environment (all optional):
#   OWNERSHIP_CHECK_VERSION     release to install, e.g. v1.2.3 (the `version` input)
#   OWNERSHIP_CHECK_ACTION_REF  the action's ref (`github.action_ref`): a full
#                               release tag is the version when none is given;
#                               otherwise (v1, a commit) the VERSION file
#                               shipped with the action is
#   OWNERSHIP_CHECK_ACTION_REPOSITORY  owner/name the releases belong to
#   OWNERSHIP_CHECK_DOWNLOAD_URL  base URL holding <version>/<asset>, for GitHub
#                               Enterprise Server or a mirror; default
#                               $GITHUB_SERVER_URL/<repository>/releases/download
#   OWNERSHIP_CHECK_TOKEN       the workflow's token (the github-token input):
#                               sent with downloads from $GITHUB_SERVER_URL
#                               only (an internal mirror of the action on
#                               GitHub Enterprise Server needs it), and given
#                               to `gh attestation verify`
#   OWNERSHIP_CHECK_PROVENANCE  auto (default: verify the build's provenance
#                               on github.com when the GitHub CLI and a token
#                               are there), require (verify or refuse), off
set -euo pipefail

action_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# fail prints an error annotation (stdout: the runner reads workflow commands
# there) and stops: nothing is installed and nothing runs.
fail() {
	local msg="$*"
	echo "::error title=ownership-check install::${msg//%/%25}"
	exit 1
}

log() { echo "ownership-check install: $*"; }

# Versions are release tags: v1.2.3, v1.2.3-rc.1. A major tag (v1) moves, so
# it cannot name a binary or its cache entry.
semver='^v[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'

repository=${OWNERSHIP_CHECK_ACTION_REPOSITORY:-}
# A local action (uses: ./) has no repository of its own.
[ -n "$repository" ] || repository=ownership-check/ownership-check
releases_page="${GITHUB_SERVER_URL:-https://github.com}/$repository/releases"

version=${OWNERSHIP_CHECK_VERSION:-}
from="the version input"
if [ -z "$version" ]; then
	ref=${OWNERSHIP_CHECK_ACTION_REF:-}
	if [[ $ref =~ $semver ]]; then
		version=$ref
		from="the action's ref"
	elif [ -f "$action_dir/VERSION" ]; then
		version=$(tr -d ' \t\r\n' <"$action_dir/VERSION")
		from="the action's VERSION file (ref ${ref:-none})"
	else
		fail "no version to install: set the action's version input to a release, e.g. v1.2.3 (see $releases_page)"
	fi
fi
[[ $version =~ ^[0-9] ]] && version="v$version"
if ! [[ $version =~ $semver ]]; then
	fail "version \"$version\" (from $from) is not a release version: give a full release tag such as v1.2.3 (see $releases_page)"
fi

case "${RUNNER_OS:-$(uname -s)}" in
Linux) goos=linux ;;
macOS | Darwin) goos=darwin ;;
Windows | MINGW* | MSYS* | CYGWIN*)
	fail "Windows runners are not supported: run the job on a Linux or macOS runner" ;;
*) fail "runner OS ${RUNNER_OS:-$(uname -s)} is not supported: ownership-check is released for Linux and macOS" ;;
esac
case "${RUNNER_ARCH:-$(uname -m)}" in
X64 | x86_64 | amd64) goarch=amd64 arch=x64 ;;
ARM64 | arm64 | aarch64) goarch=arm64 arch=arm64 ;;
*) fail "runner architecture ${RUNNER_ARCH:-$(uname -m)} is not supported: ownership-check is released for x64 and arm64" ;;
esac
asset="ownership-check-$goos-$goarch"

sha256() {
	if command -v sha256sum >/dev/null 2>&1; then
		sha256sum "$1" | cut -d' ' -f1
	elif command -v shasum >/dev/null 2>&1; then
		shasum -a 256 "$1" | cut -d' ' -f1
	else
		fail "neither sha256sum nor shasum is installed: the download cannot be verified"
	fi
}

# Tool cache layout of actions/tool-cache: <tool>/<semver>/<arch>, complete
# once <arch>.complete exists, so a half-written entry is never used.
tool_cache=${RUNNER_TOOL_CACHE:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tool-cache}
dir="$tool_cache/ownership-check/${version#v}/$arch"
bin="$dir/ownership-check"

set_output() {
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"
	fi
}

installed() {
	set_output path "$bin"
	set_output version "$version"
	# Later steps may run the CLI by name, e.g. to loop over overlays.
	if [ -n "${GITHUB_PATH:-}" ]; then
		printf '%s\n' "$dir" >>"$GITHUB_PATH"
	fi
	log "$1"
}

# A cached entry is checked again against the digest recorded when it was
# verified: a truncated or altered file is downloaded anew, never run.
if [ -f "$dir.complete" ] && [ -x "$bin" ] && [ -f "$dir/ownership-check.sha256" ]; then
	if [ "$(sha256 "$bin")" = "$(cat "$dir/ownership-check.sha256")" ]; then
		installed "$version $goos/$goarch from the tool cache ($bin)"
		exit 0
	fi
	log "the cached $bin does not match its recorded digest: downloading it again"
fi

command -v curl >/dev/null 2>&1 || fail "curl is required to download the release"

base=${OWNERSHIP_CHECK_DOWNLOAD_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repository/releases/download}
base="${base%/}/$version"

tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/ownership-check-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# download URL FILE: 200 or a clear error. curl retries what may pass on a
# second try (timeouts, 5xx, 429); a 404 means no such release or asset.
download() {
	local code status=0 auth=()
	# The token goes to the GitHub server the workflow runs on, never to a
	# mirror elsewhere; curl drops it on a redirect to another host.
	if [ -n "${OWNERSHIP_CHECK_TOKEN:-}" ] && [[ $1 == "${GITHUB_SERVER_URL:-https://github.com}/"* ]]; then
		auth=(--header "Authorization: Bearer $OWNERSHIP_CHECK_TOKEN")
	fi
	code=$(curl --silent --show-error --location --retry 3 --connect-timeout 20 --max-time 300 \
		"${auth[@]}" --output "$2" --write-out '%{http_code}' "$1") || status=$?
	if [ "$status" -ne 0 ]; then
		fail "downloading $1 failed (curl exit status $status): check the runner's network access to $base, or set OWNERSHIP_CHECK_DOWNLOAD_URL to a mirror"
	fi
	case $code in
	200) ;;
	404) return 44 ;;
	*) fail "downloading $1: HTTP $code" ;;
	esac
}

if ! download "$base/SHA256SUMS" "$tmp/SHA256SUMS"; then
	fail "no release $version (from $from): $base/SHA256SUMS was not found (HTTP 404). Set the version input to a published release (see $releases_page)"
fi
want=$(awk -v a="$asset" '$2 == a || $2 == "*" a { print $1; exit }' "$tmp/SHA256SUMS")
if ! [[ $want =~ ^[0-9a-f]{64}$ ]]; then
	fail "the SHA256SUMS of release $version lists no $asset: this release has no $goos/$goarch binary"
fi
if ! download "$base/$asset" "$tmp/$asset"; then
	fail "release $version has no asset $asset ($base/$asset: HTTP 404)"
fi
got=$(sha256 "$tmp/$asset")
if [ "$got" != "$want" ]; then
	fail "checksum mismatch: $asset of release $version has SHA-256 $got, but its SHA256SUMS says $want. The download is corrupt or was altered; it was deleted and not run"
fi
log "$asset $version: SHA-256 $got matches the release's SHA256SUMS"

# SHA256SUMS comes from the same release as the binary: the build's
# provenance, signed by GitHub's attestation service, is what ties the
# binary to this repository's release workflow. Verified when the GitHub
# CLI is there (it is on GitHub's hosted runners) and a token lets it ask.
provenance=${OWNERSHIP_CHECK_PROVENANCE:-auto}
verify=no
case $provenance in
require) verify=yes ;;
auto)
	if command -v gh >/dev/null 2>&1 && [ -n "${OWNERSHIP_CHECK_TOKEN:-}" ] &&
		[ "${GITHUB_SERVER_URL:-https://github.com}" = https://github.com ]; then
		verify=yes
	fi ;;
off) ;;
*) fail "OWNERSHIP_CHECK_PROVENANCE=$provenance: use auto, require or off" ;;
esac
if [ $verify = yes ]; then
	command -v gh >/dev/null 2>&1 || fail "provenance: OWNERSHIP_CHECK_PROVENANCE=require, but the GitHub CLI (gh) is not installed"
	host=${GITHUB_SERVER_URL:-https://github.com}
	host=${host#https://}
	if ! GH_TOKEN=${OWNERSHIP_CHECK_TOKEN:-} GH_HOST=$host gh attestation verify "$tmp/$asset" --repo "$repository" >"$tmp/attestation.log" 2>&1; then
		fail "provenance: gh attestation verify refused $asset of release $version for $repository ($(tr '\n' ' ' <"$tmp/attestation.log")): it was deleted and not run"
	fi
	log "$asset $version: provenance verified (gh attestation verify --repo $repository)"
else
	log "$asset $version: provenance not verified (OWNERSHIP_CHECK_PROVENANCE=$provenance; on github.com it is when the GitHub CLI and a token are there); the checksum was"
fi

# Install next to the cache entry, then rename: a concurrent job sharing
# this tool cache sees either nothing or a complete entry.
mkdir -p "$(dirname "$dir")"
stage=$(mktemp -d "$dir.tmp.XXXXXX")
mv "$tmp/$asset" "$stage/ownership-check"
chmod 0755 "$stage/ownership-check"
printf '%s' "$got" >"$stage/ownership-check.sha256"
rm -rf "$dir" "$dir.complete"
if ! mv "$stage" "$dir" 2>/dev/null; then
	rm -rf "$stage"
fi
# A job that won the race to create $dir got stage moved inside it.
rm -rf "${dir:?}/$(basename "$stage")"
[ -x "$bin" ] || fail "cannot install into $dir"
touch "$dir.complete"
installed "$version $goos/$goarch installed in $dir"
