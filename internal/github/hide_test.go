package github

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

func inEnv(r *report.Report, env string) *report.Report {
	r.Environment = env
	return r
}

// TestHideAndNew: while the verdict stays, the comment is edited; when it
// changes, a new comment is posted (people are notified) and the old one
// is minimized as outdated. Another author's marked comment is never
// touched.
func TestHideAndNew(t *testing.T) {
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	p, _ := publisher(t, srv, "pull_request.synchronize.json")
	p.Comment = "hide-and-new"
	ctx := context.Background()

	p.Publish(ctx, inEnv(reporttest.Mixed(), "staging"))
	p.Publish(ctx, inEnv(reporttest.Mixed(), "staging"))
	if cs := srv.Comments(2); len(cs) != 1 {
		t.Fatalf("%d comments for the same verdict, want 1", len(cs))
	}
	foreign := srv.AddComment(2, "mallory", publish.CommentMarker+"\nnot ours")

	p.Publish(ctx, inEnv(reporttest.Clean(), "staging"))
	cs := srv.Comments(2)
	if len(cs) != 3 {
		t.Fatalf("%d comments after the verdict changed, want the old, mallory's and a new one", len(cs))
	}
	old, newest := cs[0], cs[len(cs)-1]
	if old.Minimized != "OUTDATED" || newest.Minimized != "" {
		t.Errorf("old comment minimized %q, new %q: want the old one hidden as outdated", old.Minimized, newest.Minimized)
	}
	if !strings.HasPrefix(publish.Verdict(newest.Body), "✅") || !strings.HasPrefix(publish.Verdict(old.Body), "❌") {
		t.Errorf("verdicts: old %q, new %q", publish.Verdict(old.Body), publish.Verdict(newest.Body))
	}
	for _, c := range cs {
		if c.ID == foreign && (c.Minimized != "" || c.Body != publish.CommentMarker+"\nnot ours") {
			t.Errorf("another author's marked comment was touched: %+v", c)
		}
	}
	if !strings.Contains(p.commentURL, "issuecomment-") {
		t.Errorf("comment-url %q", p.commentURL)
	}
}

// TestLabels: labels: true adds the labels that hold and removes the
// action's own that no longer do; a label of anyone else stays.
func TestLabels(t *testing.T) {
	srv := githubtest.New(t, "Codertocat/Hello-World", 2)
	srv.SetLabels(2, "needs-review", publish.LabelPrefix+"no-changes")
	p, _ := publisher(t, srv, "pull_request.synchronize.json")
	p.Labels = true
	ctx := context.Background()

	p.Publish(ctx, inEnv(reporttest.Changes(), "staging"))
	want := []string{"needs-review", publish.LabelPrefix + "delete", publish.LabelPrefix + "scale-down"}
	if got := srv.Labels(2); !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}
	p.Publish(ctx, inEnv(reporttest.Clean(), "staging"))
	want = []string{"needs-review", publish.LabelPrefix + "no-changes"}
	if got := srv.Labels(2); !slices.Equal(got, want) {
		t.Errorf("labels %v, want %v", got, want)
	}

	// With the comment off, the labels follow this run's sections.
	p.Comment = "off"
	p.Publish(ctx, inEnv(reporttest.Mixed(), "staging"))
	if got := srv.Labels(2); !slices.Contains(got, publish.LabelPrefix+"conflict") || slices.Contains(got, publish.LabelPrefix+"no-changes") {
		t.Errorf("labels with comment: off: %v", got)
	}
}
