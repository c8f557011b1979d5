package snapshot

import (
	"os"
	"path/filepath"
	"strings"
)

// bundlePath tells whether repo names a git bundle file (`git bundle
// create`): a snapshot branch committed as data, such as the demo's. It is
// read as a remote, so it can be read and never written. It returns the
// absolute path, which git needs as a remote's URL.
func bundlePath(repo string) (string, bool) {
	if !strings.HasSuffix(repo, ".bundle") {
		return "", false
	}
	fi, err := os.Stat(repo)
	if err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		return "", false
	}
	return abs, true
}
