package gitlab

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/gitlab/gitlabtest"
)

// TestFileAt: a file at a commit through the repository files API: found,
// absent from a commit that is there (no file), a commit that is not
// (an error, never "no file"), a nested path, the size bound, and a
// public project read without a token while a private one is not.
func TestFileAt(t *testing.T) {
	ctx := context.Background()
	base, gone := strings.Repeat("b", 40), strings.Repeat("d", 40)
	srv := gitlabtest.New(t, project, mr)
	srv.AddToken(testToken, botUser)
	srv.AddCommit(base, map[string]string{".ownership-check.yaml": "ignore: []\n", "ci/oc.yaml": "targets: []\n", "big.yaml": strings.Repeat("x", 2048)})
	c, err := NewClient(srv.URL, testToken)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, commit string
		want         string
		found        bool
		err          string
	}{
		{file: ".ownership-check.yaml", commit: base, want: "ignore: []\n", found: true},
		{file: "ci/oc.yaml", commit: base, want: "targets: []\n", found: true},
		{file: "missing.yaml", commit: base},
		{file: ".ownership-check.yaml", commit: gone, err: "reading commit dddddddddddd of project " + project + ": GitLab API GET /projects/" + project + "/repository/commits/" + gone + ": 404 Not Found: 404 Commit Not Found"},
		{file: "big.yaml", commit: base, err: "big.yaml at commit bbbbbbbbbbbb of project " + project + ": larger than 1024 bytes"},
	} {
		data, found, err := c.FileAt(ctx, project, tc.file, tc.commit, 1024)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s at %s: error %v, want %q", tc.file, tc.commit[:4], err, tc.err)
			}
			continue
		}
		if err != nil || found != tc.found || string(data) != tc.want {
			t.Errorf("%s at %s: %q %v %v, want %q %v", tc.file, tc.commit[:4], data, found, err, tc.want, tc.found)
		}
	}

	anonymous, err := NewClient(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := anonymous.FileAt(ctx, project, ".ownership-check.yaml", base, 1024); err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("a private project without a token: %v, want 401", err)
	}
	srv.SetPublic(true)
	if data, found, err := anonymous.FileAt(ctx, project, ".ownership-check.yaml", base, 1024); err != nil || !found || string(data) != "ignore: []\n" {
		t.Errorf("a public project without a token: %q %v %v", data, found, err)
	}
	// GitLab takes the file's path as one segment, its slashes encoded.
	if !slices.ContainsFunc(srv.Calls(), func(c string) bool {
		return strings.HasPrefix(c, "GET /api/v4/projects/42/repository/files/ci%2Foc.yaml/raw?ref=")
	}) {
		t.Errorf("no call with the nested path encoded: %v", srv.Calls())
	}
}
