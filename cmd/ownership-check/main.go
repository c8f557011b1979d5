// Command ownership-check predicts what a Server-Side Apply deploy will do to
// field ownership and reports the transitions that need a human's attention.
package main

import (
	"os"

	"github.com/ownership-check/ownership-check/internal/cli"
)

// version is set at build time: -ldflags "-X main.version=v0.1.0".
var version = "dev"

func main() {
	os.Exit(cli.Main(version, os.Args[1:]))
}
