# syntax=docker/dockerfile:1
# Build a static binary, then ship it in a small image with git (the
# snapshot store drives the git CLI) and CA certificates.
FROM golang:1.24-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" \
      -o /out/ownership-check ./cmd/ownership-check

FROM alpine:3.20
RUN apk add --no-cache git ca-certificates \
 && git config --system --add safe.directory '*'
COPY --from=build /out/ownership-check /usr/local/bin/ownership-check
# No USER: GitHub starts Docker actions as root and a fixed uid breaks on
# runners whose user differs (the workspace and the GITHUB_OUTPUT files are
# the runner user's, and a workflow cannot pass --user to an action).
# `ownership-check action` drops root itself, to the owner of
# GITHUB_WORKSPACE, before it reads anything (internal/cli/actionuser_linux.go).
# Outside Actions, run the image with --user.
ENTRYPOINT ["/usr/local/bin/ownership-check"]
CMD ["action"]
