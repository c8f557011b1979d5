package publish

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// fakeStore is a Store (and a Hider) in memory that records every call
// ("list 0", "create", "edit 2", "delete 1", "labels 0", "add a b",
// "remove a", "hide 1"), so that a test holds the protocol to the calls
// it makes. github's Store is the other implementation.
type fakeStore struct {
	mu       sync.Mutex
	login    string // who the store writes as
	comments []Comment
	labels   []string
	nextID   int64
	pageSize int // 0: every comment on one page
	calls    []string
	// fail answers a call with an error (nil: none); it sees the call as
	// recorded.
	fail func(call string) error
}

var (
	_ Store = (*fakeStore)(nil)
	_ Hider = (*fakeStore)(nil)
)

func newFake(login string) *fakeStore { return &fakeStore{login: login, nextID: 1} }

// failure is a fake answer of the platform.
type failure struct{ f Failure }

func (e *failure) Error() string { return fmt.Sprintf("fake answer %d", e.f.Status) }

func (s *fakeStore) call(c string) error {
	s.calls = append(s.calls, c)
	if s.fail != nil {
		return s.fail(c)
	}
	return nil
}

// add puts a comment written by author, as another job or person would.
func (s *fakeStore) add(author, body string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addLocked(author, body).ID
}

func (s *fakeStore) addLocked(author, body string) Comment {
	c := Comment{ID: s.nextID, NodeID: fmt.Sprintf("IC_%d", s.nextID), Author: author, Body: body, URL: fmt.Sprintf("https://example.test/pr/7#note-%d", s.nextID)}
	s.nextID++
	s.comments = append(s.comments, c)
	return c
}

// takeCalls returns the calls so far and forgets them.
func (s *fakeStore) takeCalls() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.calls
	s.calls = nil
	return c
}

func (s *fakeStore) String() string { return "pull request #7" }

func (s *fakeStore) ListComments(_ context.Context, page int) ([]Comment, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call(fmt.Sprintf("list %d", page)); err != nil {
		return nil, 0, err
	}
	if s.pageSize == 0 {
		return slices.Clone(s.comments), 0, nil
	}
	from := min(page*s.pageSize, len(s.comments))
	to := min(from+s.pageSize, len(s.comments))
	next := page + 1
	if to == len(s.comments) {
		next = 0
	}
	return slices.Clone(s.comments[from:to]), next, nil
}

func (s *fakeStore) CreateComment(_ context.Context, body string) (Comment, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call("create"); err != nil {
		return Comment{}, err
	}
	return s.addLocked(s.login, body), nil
}

func (s *fakeStore) EditComment(_ context.Context, id int64, body string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call(fmt.Sprintf("edit %d", id)); err != nil {
		return err
	}
	i := slices.IndexFunc(s.comments, func(c Comment) bool { return c.ID == id })
	if i < 0 {
		return &failure{Failure{Status: 404}}
	}
	s.comments[i].Body = body
	return nil
}

func (s *fakeStore) DeleteComment(_ context.Context, id int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call(fmt.Sprintf("delete %d", id)); err != nil {
		return err
	}
	i := slices.IndexFunc(s.comments, func(c Comment) bool { return c.ID == id })
	if i < 0 {
		return &failure{Failure{Status: 404}}
	}
	s.comments = slices.Delete(s.comments, i, i+1)
	return nil
}

func (s *fakeStore) ListLabels(_ context.Context, page int) ([]string, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call(fmt.Sprintf("labels %d", page)); err != nil {
		return nil, 0, err
	}
	return slices.Clone(s.labels), 0, nil
}

func (s *fakeStore) AddLabels(_ context.Context, names []string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call("add " + strings.Join(names, " ")); err != nil {
		return err
	}
	s.labels = append(s.labels, names...)
	return nil
}

func (s *fakeStore) RemoveLabel(_ context.Context, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.call("remove " + name); err != nil {
		return err
	}
	i := slices.Index(s.labels, name)
	if i < 0 {
		return &failure{Failure{Status: 404}}
	}
	s.labels = slices.Delete(s.labels, i, i+1)
	return nil
}

func (s *fakeStore) HideComment(_ context.Context, c Comment) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.call(fmt.Sprintf("hide %d", c.ID))
}

func (s *fakeStore) Failure(err error) Failure {
	var f *failure
	if errors.As(err, &f) {
		return f.f
	}
	return Failure{}
}
