package github

import "testing"

func TestPullRequestOf(t *testing.T) {
	for file, want := range map[string]struct {
		pr PullRequest
		ok bool
	}{
		"pull_request.synchronize.json": {PullRequest{Number: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821"}, true},
		"pull_request.fork.json":        {PullRequest{Number: 2, Fork: true, HeadSHA: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c"}, true},
		"push.json":                     {PullRequest{}, false},
	} {
		ev, err := ReadEvent("../../testdata/github/" + file)
		if err != nil {
			t.Fatal(err)
		}
		pr, ok := PullRequestOf(ev)
		if pr != want.pr || ok != want.ok {
			t.Errorf("%s: %+v %v, want %+v %v", file, pr, ok, want.pr, want.ok)
		}
	}
	comment := map[string]any{"issue": map[string]any{"number": float64(9), "pull_request": map[string]any{"url": "x"}}}
	if pr, ok := PullRequestOf(comment); !ok || pr.Number != 9 {
		t.Errorf("issue_comment on a pull request: %+v %v", pr, ok)
	}
	issue := map[string]any{"issue": map[string]any{"number": float64(9)}}
	if _, ok := PullRequestOf(issue); ok {
		t.Error("a comment on an issue is not a pull request")
	}
}
