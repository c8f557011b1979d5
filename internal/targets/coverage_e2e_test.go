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

// TestFirstRunLeadsWithThePullRequest: a first run of every target (no
// snapshot, nothing deployed) where the pull request bumps one image:
// its markdown names that change within its first 40 lines, though every
// target creates its whole environment, and its target's section comes
// first.
func TestFirstRunLeadsWithThePullRequest(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	r.edit("clusters/staging/apps.yaml", "newTag: 6.7.1", "newTag: 6.7.2")
	defer r.Restore()
	var stdout, stderr bytes.Buffer
	code := cli.Run("test", []string{"check", "--target", "all", "--base", "HEAD", "--output", "markdown", "--snapshot-repo", r.snapshots}, &stdout, &stderr)
	if code == 2 {
		t.Fatalf("check: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	md := stdout.String()
	if first := strings.Index(md, "\n### "); first < 0 || !strings.HasPrefix(md[first:], "\n### ⚠️ staging/flux-system/apps ") && !strings.HasPrefix(md[first:], "\n### ✅ staging/flux-system/apps ") {
		t.Errorf("the first section is not the pull request's target's: %.80s", md[max(first, 0):])
	}
	lines := strings.Split(md, "\n")
	at := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "**This pull request:**") && strings.Contains(l, "`Deployment apps/podinfo` create") {
			at = i
			break
		}
	}
	if at < 0 || at >= 40 {
		t.Errorf("the pull request's change is at line %d of %d, want within the first 40:\n%s", at+1, len(lines), strings.Join(lines[:min(60, len(lines))], "\n"))
	}
}
