// Command ownership-check predicts what a Server-Side Apply deploy will do to
// field ownership and reports the transitions that need a human's attention.
package main

import (
	"os"
	"runtime/debug"

	"github.com/ownership-check/ownership-check/internal/cli"
)

// version is set at build time: -ldflags "-X main.version=v0.1.0". A
// plain `go build` or `go install` leaves it empty, and the build's own
// record says what was built (versionOf).
var version string

func main() {
	info, _ := debug.ReadBuildInfo()
	os.Exit(cli.Main(versionOf(version, info), os.Args[1:]))
}
