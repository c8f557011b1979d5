package targets_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestCoverageLineAgrees: `targets --render` and `check` of every target
// of one repository end with the same coverage line, so that what the
// listing claims is what the check did (a first run: no snapshot).
func TestCoverageLineAgrees(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := cli.Run("test", args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	code, listed, errOut := run("targets", "--render")
	if code != 0 {
		t.Fatalf("targets --render: exit %d\n%s%s", code, listed, errOut)
	}
	code, checked, errOut := run("check", "--target", "all", "--output", "text", "--snapshot-repo", r.snapshots)
	if code == 2 {
		t.Fatalf("check: exit %d\n%s%s", code, checked, errOut)
	}
	want, got := lastLine(listed), lastLine(checked)
	if !strings.HasPrefix(want, "coverage: ") || !strings.Contains(want, " not checked: ") || want != got {
		t.Errorf("targets --render ends with\n  %s\ncheck ends with\n  %s\n\ntargets:\n%s", want, got, listed)
	}
	code, md, _ := run("check", "--target", "all", "--output", "markdown", "--snapshot-repo", r.snapshots)
	if code == 2 || !strings.Contains(md, strings.TrimPrefix(want, "coverage: ")) {
		t.Errorf("markdown lacks the coverage line %q:\n%s", want, md)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
