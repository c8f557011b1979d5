package github

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// GitHub's store is one of publish's two stores in the tests (the other is
// publish's fake, which records calls).
var (
	_ publish.Store = (*Store)(nil)
	_ publish.Hider = (*Store)(nil)
)

// TestStoreRunsThePublishProtocol runs publish's protocol over GitHub's
// store against the fake GitHub API: the comment created, then edited
// with a second section, and the labels set, in the REST calls GitHub
// is asked.
func TestStoreRunsThePublishProtocol(t *testing.T) {
	ctx := context.Background()
	srv := githubtest.New(t, "acme/shop", pr)
	c, err := NewClient(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(c, srv.GraphQLURL, "acme", "shop", pr)
	o := publish.Options{Comment: "update", Labels: true, Author: ActionsBot, Settle: time.Millisecond}
	for i, env := range []string{"staging", "prod"} {
		r := reporttest.Changes()
		r.Environment = env
		w := publish.Write(ctx, st, o, []*publish.Section{publish.NewSection(r, report.MarkdownOptions{})}, "")
		if w.Err != nil || w.LabelsErr != nil {
			t.Fatalf("%s: %+v", env, w)
		}
		if want := []publish.Outcome{publish.Created, publish.Updated}[i]; w.Result.Outcome != want {
			t.Errorf("%s: %s, want %s", env, w.Result.Outcome, want)
		}
	}
	cs := srv.Comments(pr)
	if len(cs) != 1 || len(publish.ParseSections(cs[0].Body)) != 2 {
		t.Fatalf("want one comment with both sections, got %+v", cs)
	}
	if want := []string{publish.LabelPrefix + "delete", publish.LabelPrefix + "scale-down"}; !slices.Equal(srv.Labels(pr), want) {
		t.Errorf("labels %v, want %v", srv.Labels(pr), want)
	}
	// The fake records a call once its answer is written: the last may
	// land just after the client has read it.
	want := []string{"GET", "POST", "GET", "GET", "POST", "GET", "PATCH", "GET", "GET"}
	var calls []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		calls = calls[:0]
		for _, c := range srv.Calls() {
			calls = append(calls, c.Method+" "+c.Path)
		}
		if len(calls) >= len(want) || time.Now().After(deadline) {
			break
		}
	}
	var methods []string
	for _, c := range calls {
		m, _, _ := strings.Cut(c, " ")
		methods = append(methods, m)
	}
	if !slices.Equal(methods, want) {
		t.Errorf("calls %q, want the methods %v", calls, want)
	}
}
