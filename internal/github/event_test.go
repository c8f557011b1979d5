package github

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadPullRequest(t *testing.T) {
	dir := t.TempDir()
	write := func(name, payload string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(payload), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	recorded := func(file string) string { return "../../testdata/github/" + file }
	for _, tc := range []struct {
		name, event, path string
		pr                PullRequest
		ok                bool
	}{
		{"pull_request", "pull_request", recorded("pull_request.synchronize.json"),
			PullRequest{Number: 2, HeadSHA: "ec26c3e57ca3a959ca5aad62de7213c562f8c821", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}, true},
		{"pull_request from a fork", "pull_request", recorded("pull_request.fork.json"),
			PullRequest{Number: 2, Fork: true, HeadSHA: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}, true},
		{"pull_request_target", "pull_request_target", recorded("pull_request.fork.json"),
			PullRequest{Number: 2, Fork: true, HeadSHA: "0d1a26e67d8f5eaf1f6ba5c57fc3c7d91ac0fd1c", BaseSHA: "f95f852bd8fca8fcc58a9a2d6c842781e32a215e"}, true},
		{"push", "push", recorded("push.json"), PullRequest{}, false},
		{"issue_comment on a pull request", "issue_comment",
			write("comment.json", `{"issue": {"number": 9, "pull_request": {"url": "x"}}}`), PullRequest{Number: 9}, true},
		{"issue_comment on an issue", "issue_comment",
			write("issue.json", `{"issue": {"number": 9}}`), PullRequest{}, false},
		{"an event without payload type", "schedule", filepath.Join(dir, "absent.json"), PullRequest{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, ok, err := ReadPullRequest(tc.event, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if pr != tc.pr || ok != tc.ok {
				t.Errorf("%+v %v, want %+v %v", pr, ok, tc.pr, tc.ok)
			}
		})
	}
	if _, _, err := ReadPullRequest("pull_request", write("bad.json", "{")); err == nil {
		t.Error("a damaged payload is not an error")
	}
}
