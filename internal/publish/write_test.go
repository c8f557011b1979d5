package publish

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

// The protocol over a store, held to the calls it makes: the fake records
// them as github's Store makes them of GitHub (internal/github's tests run
// the same protocol against the fake GitHub API).

func sectionOf(r *report.Report, env string) *Section {
	r.Environment = env
	return NewSection(r, report.MarkdownOptions{})
}

func options(comment string) Options {
	return Options{Comment: comment, Author: "bot", Settle: time.Millisecond}
}

func wantCalls(t *testing.T, st *fakeStore, want ...string) {
	t.Helper()
	if got := st.takeCalls(); !slices.Equal(got, want) {
		t.Errorf("calls %q, want %q", got, want)
	}
}

func TestWriteCreatesEditsAndLeaves(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	w := Write(ctx, st, options("update"), []*Section{sectionOf(reporttest.Mixed(), "staging")}, "")
	if w.Err != nil || w.Result.Outcome != Created || w.Result.URL == "" {
		t.Fatalf("first write: %+v", w)
	}
	wantCalls(t, st, "list 0", "create", "list 0")

	prod := sectionOf(reporttest.Clean(), "prod")
	w = Write(ctx, st, options("update"), []*Section{prod}, "")
	if w.Err != nil || w.Result.Outcome != Updated || w.Result.ID != 1 {
		t.Fatalf("second write: %+v", w)
	}
	wantCalls(t, st, "list 0", "edit 1", "list 0")
	if len(st.comments) != 1 || len(ParseSections(st.comments[0].Body)) != 2 {
		t.Fatalf("want one comment with both sections, got %+v", st.comments)
	}

	w = Write(ctx, st, options("update"), []*Section{prod}, "")
	if w.Err != nil || w.Result.Outcome != Unchanged {
		t.Fatalf("third write: %+v", w)
	}
	wantCalls(t, st, "list 0")
}

// TestWriteOnlyOurComment: a marked comment of another author is never
// edited or deleted; without a known author no comment is ours.
func TestWriteOnlyOurComment(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	forged := CommentMarker + "\nnot ours"
	st.add("mallory", forged)
	sec := sectionOf(reporttest.Mixed(), "staging")
	if w := Write(ctx, st, options("update"), []*Section{sec}, ""); w.Err != nil || w.Result.Outcome != Created || w.Result.ID == 1 {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "list 0", "create", "list 0")
	if st.comments[0].Body != forged {
		t.Errorf("the forged comment was edited: %q", st.comments[0].Body)
	}

	o := options("update")
	o.Author = ""
	if w := Write(ctx, st, o, []*Section{sectionOf(reporttest.Clean(), "prod")}, ""); w.Err != nil || w.Result.Outcome != Created {
		t.Fatalf("write without an author: %+v", w)
	}
	calls := st.takeCalls()
	if slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, "edit") || strings.HasPrefix(c, "delete") }) {
		t.Errorf("calls %q: a comment was taken for ours without an author", calls)
	}
}

func TestWriteReadsEveryPage(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	st.pageSize = 1
	st.add("alice", "lgtm")
	st.add("bob", "nit")
	st.add("bot", MergeComment("", sectionOf(reporttest.Mixed(), "staging"), MaxCommentLen))
	if w := Write(ctx, st, options("update"), []*Section{sectionOf(reporttest.Clean(), "prod")}, ""); w.Err != nil || w.Result.Outcome != Updated || w.Result.ID != 3 {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "list 0", "list 1", "list 2", "edit 3", "list 0", "list 1", "list 2")
}

// TestWriteCommentDeletedBeforeEdit: the comment goes between the read and
// the edit; the protocol reads again and creates one.
func TestWriteCommentDeletedBeforeEdit(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	st.add("bot", MergeComment("", sectionOf(reporttest.Mixed(), "staging"), MaxCommentLen))
	st.fail = func(call string) error {
		if call == "edit 1" {
			st.comments = nil
			return &failure{Failure{Status: 404}}
		}
		return nil
	}
	w := Write(ctx, st, options("update"), []*Section{sectionOf(reporttest.Clean(), "prod")}, "")
	if w.Err != nil || w.Result.Outcome != Created || w.Result.Writes != 2 {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "list 0", "edit 1", "list 0", "create", "list 0")
}

func TestWriteRetriesTransientFailures(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	failed := false
	st.fail = func(call string) error {
		if call == "list 0" && !failed {
			failed = true
			return &failure{Failure{Status: 502, Transient: true, Wait: time.Millisecond}}
		}
		return nil
	}
	if w := Write(ctx, st, options("update"), []*Section{sectionOf(reporttest.Clean(), "prod")}, ""); w.Err != nil || w.Result.Outcome != Created {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "list 0", "list 0", "create", "list 0")
}

// TestWriteCannotComment: a refusal is ErrCannotComment, named with what
// was being done; the labels are still set from this run's sections.
func TestWriteCannotComment(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	st.fail = func(call string) error {
		if call == "create" {
			return &failure{Failure{Status: 403}}
		}
		return nil
	}
	o := options("update")
	o.Labels = true
	w := Write(ctx, st, o, []*Section{sectionOf(reporttest.Clean(), "prod")}, "")
	if !errors.Is(w.Err, ErrCannotComment) || !strings.Contains(w.Err.Error(), "creating a comment on pull request #7") {
		t.Fatalf("err = %v, want ErrCannotComment creating the comment", w.Err)
	}
	if w.Result.Outcome != "" || w.LabelsErr != nil {
		t.Errorf("written %+v", w)
	}
	wantCalls(t, st, "list 0", "create", "labels 0", "add "+LabelPrefix+"no-changes")
}

func TestWriteLabels(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	st.labels = []string{"needs-review", LabelPrefix + "no-changes"}
	o := options("off")
	o.Labels = true
	if w := Write(ctx, st, o, []*Section{sectionOf(reporttest.Changes(), "staging")}, ""); w.LabelsErr != nil || w.Result.Outcome != "" {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "labels 0", "add "+LabelPrefix+"delete "+LabelPrefix+"scale-down", "remove "+LabelPrefix+"no-changes")
	if want := []string{"needs-review", LabelPrefix + "delete", LabelPrefix + "scale-down"}; !slices.Equal(st.labels, want) {
		t.Errorf("labels %v, want %v", st.labels, want)
	}
}

// TestWriteHideAndNew: a changed verdict is a new comment, and the old
// one hidden through the store.
func TestWriteHideAndNew(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	if w := Write(ctx, st, options("hide-and-new"), []*Section{sectionOf(reporttest.Mixed(), "staging")}, ""); w.Err != nil || w.Result.Outcome != Created {
		t.Fatalf("first write: %+v", w)
	}
	wantCalls(t, st, "list 0", "list 0", "create", "list 0")
	w := Write(ctx, st, options("hide-and-new"), []*Section{sectionOf(reporttest.Clean(), "staging")}, "")
	if w.Err != nil || w.HideErr != nil || w.Result.Outcome != Created || w.Result.ID != 2 {
		t.Fatalf("second write: %+v", w)
	}
	wantCalls(t, st, "list 0", "create", "hide 1")
}

func TestWriteOnFindingsAllClear(t *testing.T) {
	ctx := context.Background()
	st := newFake("bot")
	w := Write(ctx, st, options("on-findings"), []*Section{sectionOf(reporttest.Clean(), "prod")}, "")
	if w.Err != nil || w.Result.Outcome != NotCreated {
		t.Fatalf("write: %+v", w)
	}
	wantCalls(t, st, "list 0")
}
