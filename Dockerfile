# syntax=docker/dockerfile:1
# The container image, the second way to run the action
# (`uses: docker://ghcr.io/ownership-check/ownership-check@sha256:...`).
# It holds the release's own linux binary, the one SHA256SUMS lists and the
# provenance attests, with git (the snapshot store drives the git CLI) and CA
# certificates. The release workflow builds it for linux/amd64 and
# linux/arm64 after `make release-local`; the action never builds it.
# By hand: make release-local RELEASE_TARGETS=linux/amd64 && docker build .
FROM alpine:3.20
ARG TARGETARCH
RUN apk add --no-cache git ca-certificates \
 && git config --system --add safe.directory '*'
COPY dist/release/ownership-check-linux-${TARGETARCH} /usr/local/bin/ownership-check
# No USER: GitHub starts container actions as root and a fixed uid breaks on
# runners whose user differs (the workspace and the GITHUB_OUTPUT files are
# the runner user's, and a workflow cannot pass --user to an action). This
# tells `ownership-check action` to drop root itself, to the owner of
# GITHUB_WORKSPACE, before it reads anything (internal/action/user.go);
# the composite action, on the runner, never switches. Outside Actions, run
# the image with --user.
ENV OWNERSHIP_CHECK_ACTION_USER=workspace-owner
ENTRYPOINT ["/usr/local/bin/ownership-check"]
CMD ["action"]
