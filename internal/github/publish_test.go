package github

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// publisher is a Publisher on a runner whose event is the recorded
// payload event, with GitHub's API faked by srv.
func publisher(t *testing.T, srv *githubtest.Server, event string) (*Publisher, func() string) {
	t.Helper()
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary")
	if err := os.WriteFile(summary, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"GITHUB_EVENT_PATH": "../../testdata/github/" + event, "GITHUB_EVENT_NAME": strings.Split(event, ".")[0],
		"GITHUB_REPOSITORY": "Codertocat/Hello-World", "GITHUB_API_URL": srv.URL, "GITHUB_GRAPHQL_URL": srv.GraphQLURL,
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242", "GITHUB_STEP_SUMMARY": summary,
	}
	a, _ := action(env)
	p := &Publisher{Action: a, Environment: "staging", Comment: "update", ReportDir: dir, Settle: 5 * time.Millisecond}
	return p, func() string {
		b, err := os.ReadFile(summary)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
}

func TestPublishComments(t *testing.T) {
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	p, summary := publisher(t, srv, "pull_request.synchronize.json")
	rep := reporttest.Mixed()
	p.Publish(context.Background(), rep)
	cs := srv.Comments(2)
	if len(cs) != 1 || !NewSection(rep, report.MarkdownOptions{RunURL: "https://github.com/Codertocat/Hello-World/actions/runs/4242", Commit: p.commit()}).In(cs[0].Body) {
		t.Fatalf("want one comment with the report's section, got %d comments", len(cs))
	}
	if s := summary(); !strings.HasPrefix(s, CommentMarker) || strings.Contains(s, "could not be written") {
		t.Errorf("job summary:\n%s", s)
	}
}

// TestPublishFallsBack: a token that cannot comment costs the comment
// only; the job summary carries the report and says why.
func TestPublishFallsBack(t *testing.T) {
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	srv.SetReadOnly(true)
	p, summary := publisher(t, srv, "pull_request.fork.json")
	p.Publish(context.Background(), reporttest.Mixed())
	if n := len(srv.Comments(2)); n != 0 {
		t.Errorf("%d comments written with a read-only token", n)
	}
	s := summary()
	if !strings.Contains(s, "The pull request comment could not be written") || !strings.Contains(s, "forks get a read-only token") ||
		!strings.Contains(s, "Deployment shop/web") {
		t.Errorf("job summary:\n%s", s)
	}
}
