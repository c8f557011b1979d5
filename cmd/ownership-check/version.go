package main

import (
	"runtime/debug"

	"github.com/ownership-check/ownership-check/internal/model"
)

// versionOf is what --version says: the stamped version, else what the
// build recorded of itself, so that a bug report from a binary built with
// `go install module@v1.2.3` or `go build` in a checkout names what was
// built rather than "dev": the module's version when the go command knew
// it, else the commit (short) it was built at, "-dirty" when the work
// tree had changes; "dev" only when the build recorded neither (info nil:
// no build information, as in some test binaries).
func versionOf(stamped string, info *debug.BuildInfo) string {
	if stamped != "" {
		return stamped
	}
	if info == nil {
		return "dev"
	}
	if v := info.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var revision string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			revision = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if revision == "" {
		return "dev"
	}
	revision = model.ShortCommit(revision)
	if dirty {
		revision += "-dirty"
	}
	return revision
}
