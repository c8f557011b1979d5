package gitlab

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

func env(kv map[string]string) func(string) string {
	return func(k string) string { return kv[k] }
}

// A merge request pipeline: GitLab's variables and the inputs as
// OWNERSHIP_CHECK_<INPUT>, each missing one its default.
func TestReadJob(t *testing.T) {
	j, err := ReadJob(env(map[string]string{
		"CI_API_V4_URL": "https://gitlab.example/api/v4", "CI_PROJECT_ID": "42", "CI_MERGE_REQUEST_PROJECT_ID": "42",
		"CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "42", "CI_MERGE_REQUEST_IID": "7", "CI_MERGE_REQUEST_DIFF_BASE_SHA": "b4se",
		"CI_COMMIT_SHA": "merged", "CI_MERGE_REQUEST_SOURCE_BRANCH_SHA": "h3ad", "CI_PROJECT_URL": "https://gitlab.example/shop/app/",
		"CI_MERGE_REQUEST_PROJECT_URL":  "https://gitlab.example/shop/app",
		"OWNERSHIP_CHECK_FIELD_MANAGER": "deployer", "OWNERSHIP_CHECK_PATHS": "deploy/a\n# not this\n\ndeploy/b\n",
		"OWNERSHIP_CHECK_TARGETS": "web, api\ndb", "OWNERSHIP_CHECK_STATUS": "true", TokenVariable: " glpat-x \n",
	}))
	if err != nil {
		t.Fatal(err)
	}
	if j.Project != "42" || j.MergeRequest != 7 || j.Fork || j.Base != "b4se" || j.Head != "h3ad" || j.Commit != "merged" || j.Token != "glpat-x" {
		t.Errorf("job %+v", j)
	}
	if j.MergeRequestURL != "https://gitlab.example/shop/app/-/merge_requests/7" {
		t.Errorf("merge request URL %s", j.MergeRequestURL)
	}
	if got := strings.Join(j.Lines("paths"), ","); got != "deploy/a,deploy/b" {
		t.Errorf("paths %s", got)
	}
	if got := strings.Join(j.Words("targets"), ","); got != "web,api,db" {
		t.Errorf("targets %s", got)
	}
	for name, want := range map[string]string{"mode": "check", "environment": "default", "config-ref": "base", "comment": "update",
		"offline": "auto", "fail-on": model.DefaultFailOn(), "snapshot-branch": model.DefaultSnapshotBranch, "field-manager": "deployer"} {
		if j.Get(name) != want {
			t.Errorf("input %s = %q, want %q", name, j.Get(name), want)
		}
	}
	if !j.Bool("status") || j.Bool("labels") || !j.Bool("chart-cache") {
		t.Errorf("booleans %v", j.Values)
	}
	c := j.HeadCommit()
	if c.SHA != "h3ad" || c.URL != "https://gitlab.example/shop/app/-/commit/h3ad" || c.BlobURL != "https://gitlab.example/shop/app/-/blob/h3ad" {
		t.Errorf("head commit %+v", c)
	}
}

// A fork's merge request runs in the fork: its source project is not the
// merge request's.
func TestReadJobFork(t *testing.T) {
	j, err := ReadJob(env(map[string]string{"CI_PROJECT_ID": "99", "CI_MERGE_REQUEST_PROJECT_ID": "42",
		"CI_MERGE_REQUEST_SOURCE_PROJECT_ID": "99", "CI_MERGE_REQUEST_IID": "7"}))
	if err != nil || !j.Fork || j.Project != "42" {
		t.Errorf("fork: %+v %v", j, err)
	}
}

// A wrong word is an error naming the variable and the words allowed.
func TestReadJobBadInputs(t *testing.T) {
	_, err := ReadJob(env(map[string]string{"OWNERSHIP_CHECK_COMMENT": "always", "OWNERSHIP_CHECK_MODE": "migrate", "CI_MERGE_REQUEST_IID": "x"}))
	for _, want := range []string{
		`OWNERSHIP_CHECK_COMMENT (input comment): "always" is not one of update, new, hide-and-new, off, on-findings`,
		`OWNERSHIP_CHECK_MODE (input mode): "migrate" is not one of check, snapshot`,
		`CI_MERGE_REQUEST_IID: "x"`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

func TestInputVariable(t *testing.T) {
	for name, want := range map[string]string{"field-manager": "OWNERSHIP_CHECK_FIELD_MANAGER", "fail-on-cause": "OWNERSHIP_CHECK_FAIL_ON_CAUSE", "mode": "OWNERSHIP_CHECK_MODE"} {
		if got := InputVariable(name); got != want {
			t.Errorf("%s: %s", name, got)
		}
	}
}
