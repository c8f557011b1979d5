package cli

import "testing"

// TestDeployDefaults: the workflow's commit and actor are the defaults of
// what check records, read here so that check reads no workflow variable.
func TestDeployDefaults(t *testing.T) {
	t.Setenv("GITHUB_SHA", "0123456789abcdef0123456789abcdef01234567")
	t.Setenv("GITHUB_ACTOR", "octocat")
	if got := sourceCommit(""); got != "0123456789abcdef0123456789abcdef01234567" {
		t.Errorf("source commit = %q, want $GITHUB_SHA", got)
	}
	if got := sourceCommit("abc"); got != "abc" {
		t.Errorf("source commit = %q, want the flag's", got)
	}
	if got := deployedBy(); got != "octocat" {
		t.Errorf("deployed by = %q, want $GITHUB_ACTOR", got)
	}
	t.Setenv("GITHUB_SHA", "")
	t.Setenv("GITHUB_ACTOR", "")
	t.Setenv("USER", "dev")
	if got, by := sourceCommit(""), deployedBy(); got != "" || by != "dev" {
		t.Errorf("outside a workflow: %q by %q, want check's default (HEAD) by $USER", got, by)
	}
}
