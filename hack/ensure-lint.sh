#!/usr/bin/env bash
# Builds the linter `make lint` runs when it is missing: staticcheck, at the
# version tools/lint/go.mod pins, into .bin/ (its stamp is that version, so a
# bump rebuilds it). tools/lint is a module of its own so the linter's
# dependencies never enter the product's module graph; it needs Go 1.26,
# which the go command fetches as a toolchain when an older one runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN_DIR=.bin
lint_version=$(cd tools/lint && GOTOOLCHAIN=auto go list -m -f '{{.Version}}' honnef.co/go/tools)
if [ ! -x "$BIN_DIR/staticcheck" ] || [ "$(cat "$BIN_DIR/staticcheck.version" 2>/dev/null)" != "$lint_version" ]; then
	echo "ensure-lint: building staticcheck $lint_version" >&2
	mkdir -p "$BIN_DIR"
	tmp="$BIN_DIR/staticcheck.tmp.$$"
	trap 'rm -f "$tmp"' EXIT
	(cd tools/lint && GOTOOLCHAIN=auto go build -o "../../$tmp" honnef.co/go/tools/cmd/staticcheck)
	mv "$tmp" "$BIN_DIR/staticcheck"
	echo "$lint_version" >"$BIN_DIR/staticcheck.version"
fi
