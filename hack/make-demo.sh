#!/bin/sh
# Rebuilds testdata/demo/snapshots.bundle, the snapshot branch `make demo`
# checks against: it plays the demo's history (another client, the deploy of
# testdata/demo/deployed, an autoscaler, a labeler) on the real test API
# server, runs `ownership-check snapshot`, and bundles the branch as data.
set -eu
cd "$(dirname "$0")/.."
./hack/ensure-test-deps.sh
go test -count=1 -run '^TestRegenDemo$' ./internal/check -regen-demo -v
