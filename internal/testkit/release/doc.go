// Package release holds the tests of what a release is made of and how the
// action installs it: hack/release-build.sh, which the release workflow and
// `make release-local` run, and the composite action's steps in action.yml
// with scripts/install.sh, which the tests run with bash as the runner does,
// against a fake release served over HTTP. It has no code of its own.
package release
