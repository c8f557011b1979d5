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
# Not root. 1001 is the runner user of GitHub-hosted runners, which owns the
# mounted workspace and the GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files; on a
# self-hosted runner with another uid, pass --user to match (see docs/).
USER 1001:121
ENTRYPOINT ["/usr/local/bin/ownership-check"]
CMD ["action"]
