package cli

import (
	"bytes"
	"strings"
	"testing"
)

// A snapshot repository that is not one says to set --snapshot-repo once.
func TestBadSnapshotRepoAdvisesOnce(t *testing.T) {
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Run("test", []string{"check", dir, "--field-manager", "d", "--offline", "--snapshot-repo", dir + "/nonexistent"}, &stdout, &stderr)
	if n := strings.Count(stderr.String(), "--snapshot-repo"); code != ExitError || n != 1 {
		t.Errorf("exit %d, stderr %q; want exit 2 naming --snapshot-repo once, not %d times", code, stderr.String(), n)
	}
}
