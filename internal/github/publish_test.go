package github

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
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
	p := &Publisher{Action: a, Environment: "staging", Comment: "update", ReportDir: dir, Settle: 5 * time.Millisecond, Open: OpenStore(a, "")}
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
	if len(cs) != 1 || !publish.NewSection(rep, report.MarkdownOptions{RunURL: "https://github.com/Codertocat/Hello-World/actions/runs/4242", Commit: p.commit()}).In(cs[0].Body) {
		t.Fatalf("want one comment with the report's section, got %d comments", len(cs))
	}
	if s := summary(); !strings.HasPrefix(s, publish.CommentMarker) || strings.Contains(s, "could not be written") {
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

// matrixHead is the head commit of the recorded pull_request event.
const matrixHead = "ec26c3e57ca3a959ca5aad62de7213c562f8c821"

// TestPublishMatrix runs the action's publishing of two environments
// against the GitHub fake, as a matrix does.
func TestPublishMatrix(t *testing.T) {
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	alpha, zeta := reporttest.Clean(), reporttest.Repeated("zeta", 120)
	alpha.Environment = "alpha"
	for _, r := range []*report.Report{zeta, alpha} {
		p, _ := publisher(t, srv, "pull_request.synchronize.json")
		p.Environment = r.Environment
		p.Now = func() time.Time { return time.Date(2026, 11, 23, 10, 58, 0, 0, time.UTC) }
		p.Publish(context.Background(), r)
	}
	cs := srv.Comments(2)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want one for the matrix", len(cs))
	}
	body := cs[0].Body
	reporttest.Readable(t, publish.MaxCommentLen, body, alpha, zeta)
	if got, want := reporttest.VerdictLine(body), "❌ **zeta**: drift on 120 objects (`.data.mode`, kubectl-edit); no ownership conflicts in alpha."; got != want {
		t.Errorf("verdict = %q, want %q", got, want)
	}
	if strings.Index(body, "env=zeta:begin") > strings.Index(body, "env=alpha:begin") {
		t.Error("the failing environment must come first")
	}
	link := "(https://github.com/Codertocat/Hello-World/blob/" + matrixHead + "/deploy/base/flags.yaml#L1)"
	if !strings.Contains(body, link) {
		t.Errorf("no link %s to the source at the pull request's head", link)
	}
	if strings.Count(body, "head commit [`ec26c3e`](https://github.com/Codertocat/Hello-World/commit/"+matrixHead+")") != 2 {
		t.Error("each section's footer must name the head commit")
	}
}
