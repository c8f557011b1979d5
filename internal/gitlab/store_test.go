package gitlab

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ownership-check/ownership-check/internal/gitlab/gitlabtest"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/publish"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

const (
	testToken = "glpat-store-test-token"
	botUser   = "project_42_bot_1a2b"
	project   = "42"
	mr        = 7
)

func newStore(t *testing.T) (*gitlabtest.Server, *Store) {
	t.Helper()
	srv := gitlabtest.New(t, project, mr)
	srv.AddToken(testToken, botUser)
	c, err := NewClient(srv.URL, testToken)
	if err != nil {
		t.Fatal(err)
	}
	return srv, &Store{Client: c, Project: project, MergeRequest: mr, WebURL: "https://gitlab.example/g/app/-/merge_requests/7"}
}

func write(t *testing.T, st *Store, o publish.Options, reps ...*report.Report) publish.Written {
	t.Helper()
	var secs []*publish.Section
	for _, r := range reps {
		secs = append(secs, publish.NewSection(r, report.MarkdownOptions{Limit: MaxNoteLen}))
	}
	if o.Comment == "" {
		o.Comment = "update"
	}
	if o.Settle == 0 {
		o.Settle = time.Millisecond
	}
	o.Limit = MaxNoteLen
	return publish.Write(context.Background(), st, o, secs, "")
}

func TestStoreWithoutTokenCannotComment(t *testing.T) {
	srv, st := newStore(t)
	c, err := NewClient(srv.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	st.Client = c
	if _, err := c.User(context.Background()); statusOf(err) != http.StatusUnauthorized {
		t.Fatalf("GET /user without a token: %v, want 401", err)
	}
	w := write(t, st, publish.Options{Author: botUser}, reporttest.Clean())
	if !errors.Is(w.Err, publish.ErrCannotComment) {
		t.Fatalf("without a token: %v, want ErrCannotComment", w.Err)
	}
	if strings.Contains(w.Err.Error(), testToken) || len(srv.Notes()) != 0 {
		t.Errorf("error %q, notes %v", w.Err, srv.Notes())
	}
}

func TestStoreUser(t *testing.T) {
	_, st := newStore(t)
	u, err := st.Client.User(context.Background())
	if err != nil || u != botUser {
		t.Fatalf("User = %q, %v", u, err)
	}
}

// A busy merge request: 250 notes, 100 a page; the run's own marked note
// is on page 3, after a marked note of someone else on page 1.
func TestStoreFindsOwnNoteOnPageThree(t *testing.T) {
	srv, st := newStore(t)
	other := srv.AddNote("mallory", publish.CommentMarker+"\nnot the bot's")
	for i := 0; i < 220; i++ {
		if i%50 == 0 {
			srv.AddSystemNote("added 1 commit")
			continue
		}
		srv.AddNote("dev", "looks good")
	}
	ours := srv.AddNote(botUser, publish.CommentMarker+"\nthe first run's note")
	for len(srv.Notes()) < 250 {
		srv.AddNote("dev", "one more")
	}
	pos := 0
	for i, n := range srv.Notes() {
		if n.ID == ours {
			pos = i
		}
	}
	if pos/100 != 2 {
		t.Fatalf("our note is at %d, not on page 3", pos)
	}
	w := write(t, st, publish.Options{Author: botUser}, reporttest.Mixed())
	if w.Err != nil {
		t.Fatal(w.Err)
	}
	if w.Result.Outcome != publish.Updated || w.Result.ID != ours {
		t.Errorf("result %+v, want note %d updated", w.Result, ours)
	}
	if w.Result.URL != "https://gitlab.example/g/app/-/merge_requests/7#note_"+strconv.FormatInt(ours, 10) {
		t.Errorf("URL %s", w.Result.URL)
	}
	for _, n := range srv.Notes() {
		switch n.ID {
		case other:
			if n.Body != publish.CommentMarker+"\nnot the bot's" {
				t.Errorf("another user's marked note was edited:\n%s", n.Body)
			}
		case ours:
			if !strings.Contains(n.Body, "ownership-check:env=staging:begin") {
				t.Errorf("our note lacks the section:\n%s", n.Body)
			}
		}
	}
	if len(srv.NotesBy(botUser, publish.CommentMarker)) != 1 || len(srv.Notes()) != 250 {
		t.Errorf("%d notes, %d of ours", len(srv.Notes()), len(srv.NotesBy(botUser, publish.CommentMarker)))
	}
	pages := 0
	for _, c := range srv.Calls() {
		if strings.HasPrefix(c, "GET /api/v4/projects/42/merge_requests/7/notes?") && strings.Contains(c, "per_page=100") {
			pages++
		}
	}
	if pages < 3 {
		t.Errorf("read %d pages of notes: %v", pages, srv.Calls())
	}
}

// Only another user's marked note: ours is a new one, theirs untouched.
func TestStoreNeverEditsAnotherUsersNote(t *testing.T) {
	srv, st := newStore(t)
	theirs := srv.AddNote("mallory", publish.CommentMarker+"\nfake verdict")
	w := write(t, st, publish.Options{Author: botUser}, reporttest.Clean())
	if w.Err != nil || w.Result.Outcome != publish.Created || w.Result.ID == theirs {
		t.Fatalf("%+v %v", w.Result, w.Err)
	}
	for _, n := range srv.Notes() {
		if n.ID == theirs && n.Body != publish.CommentMarker+"\nfake verdict" {
			t.Errorf("edited: %s", n.Body)
		}
	}
	// GitLab refuses it too (403), which the protocol never asks.
	if err := st.EditComment(context.Background(), theirs, "x"); statusOf(err) != http.StatusForbidden {
		t.Errorf("edit of another's note: %v", err)
	}
}

func TestStoreNoteOverLimitIsRefused(t *testing.T) {
	srv, st := newStore(t)
	_, err := st.CreateComment(context.Background(), strings.Repeat("é", MaxNoteLen+1))
	if statusOf(err) != http.StatusBadRequest || !strings.Contains(err.Error(), "too long") {
		t.Fatalf("over the limit: %v", err)
	}
	if st.Failure(err).Transient || srv.TooLong() != 1 {
		t.Errorf("failure %+v", st.Failure(err))
	}
}

// 3,000 findings, each its own, stay under GitLab's limit with the
// summary kept; 12,000 are folded to it, the summary kept too.
func TestManyFindingsStayUnderTheNoteLimit(t *testing.T) {
	for _, objects := range []int{150, 600} {
		srv, st := newStore(t)
		rep := reporttest.Big("staging", objects, 10)
		n := 0
		for _, o := range rep.Objects {
			n += len(o.Findings)
		}
		full := len(publish.RenderComment([]*publish.Section{publish.NewSection(rep, report.MarkdownOptions{})}, 0))
		w := write(t, st, publish.Options{Author: botUser}, rep)
		if w.Err != nil {
			t.Fatal(w.Err)
		}
		notes := srv.NotesBy(botUser, publish.CommentMarker)
		if len(notes) != 1 || srv.TooLong() != 0 {
			t.Fatalf("%d findings: %d notes, %d refused as too long", n, len(notes), srv.TooLong())
		}
		body := notes[0].Body
		c := utf8.RuneCountInString(body)
		t.Logf("%d findings: %d characters unfolded, %d in the note", n, full, c)
		if c > MaxNoteLen || (full > MaxNoteLen && c < MaxNoteLen/2) {
			t.Errorf("%d findings: %d characters: over GitLab's limit (%d), or folded to far less", n, c, MaxNoteLen)
		}
		reporttest.Readable(t, MaxNoteLen, body, rep)
		secs := publish.ParseSections(body)
		if len(secs) != 1 || secs[0].Status.Summary.Count(model.Drift) != rep.Summary.Count(model.Drift) {
			t.Errorf("sections %+v", secs)
		}
	}
}

func TestStoreLabels(t *testing.T) {
	srv, st := newStore(t)
	ctx := context.Background()
	if err := st.AddLabels(ctx, []string{"ownership-check/drift", "team::infra"}); err != nil {
		t.Fatal(err)
	}
	if err := st.RemoveLabel(ctx, "ownership-check/drift"); err != nil {
		t.Fatal(err)
	}
	names, next, err := st.ListLabels(ctx, 0)
	if err != nil || next != 0 || len(names) != 1 || names[0] != "team::infra" {
		t.Errorf("labels %v next %d: %v; server %v", names, next, err, srv.Labels())
	}
}

func TestCommitStatus(t *testing.T) {
	srv, st := newStore(t)
	err := st.Client.SetCommitStatus(context.Background(), project, "0123abcd", CommitStatus{State: "failed", Environment: "prod/eu", Description: strings.Repeat("x", 300), TargetURL: "https://gitlab.example/job/1", Pipeline: "314"})
	if err != nil {
		t.Fatal(err)
	}
	sts := srv.Statuses()
	if len(sts) != 1 || sts[0].Name != "ownership-check/prod/eu" || sts[0].State != "failed" || len([]rune(sts[0].Description)) != 255 || sts[0].Pipeline != "314" {
		t.Errorf("statuses %+v", sts)
	}
}

func TestFailure(t *testing.T) {
	st := &Store{}
	for _, c := range []struct {
		err       error
		transient bool
		rate      bool
		wait      time.Duration
	}{
		{&APIError{Status: 429, RetryAfter: 3 * time.Second}, true, true, 3 * time.Second},
		{&APIError{Status: 502}, true, false, 0},
		{&APIError{Status: 403}, false, false, 0},
		{context.Canceled, false, false, 0},
	} {
		f := st.Failure(c.err)
		if f.Transient != c.transient || f.RateLimited != c.rate || f.Wait != c.wait {
			t.Errorf("%v: %+v", c.err, f)
		}
	}
}

// A parallel:matrix of six environments finishing at once: GitLab has no
// conditional edit, so publish's settle-and-check keeps every section.
func TestStoreConcurrentEnvironments(t *testing.T) {
	srv, st := newStore(t)
	envs := []string{"dev", "qa", "staging", "prod-eu", "prod-us", "prod-ap"}
	var wg sync.WaitGroup
	errs := make([]error, len(envs))
	for i, env := range envs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := reporttest.Clean()
			r.Environment = env
			errs[i] = write(t, st, publish.Options{Author: botUser, Settle: 20 * time.Millisecond}, r).Err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("%s: %v", envs[i], err)
		}
	}
	notes := srv.NotesBy(botUser, publish.CommentMarker)
	if len(notes) != 1 {
		t.Fatalf("%d notes, want 1", len(notes))
	}
	got := map[string]bool{}
	for _, s := range publish.ParseSections(notes[0].Body) {
		got[s.Environment] = true
	}
	for _, env := range envs {
		if !got[env] {
			t.Errorf("the note lost %s's section: %v", env, got)
		}
	}
}
