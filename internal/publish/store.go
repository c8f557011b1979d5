// Package publish is the publishing stage: a check's reports as the one
// sticky comment of a pull request (one section per environment or target,
// merged with the sections other jobs wrote, folded to the comment's size
// limit), written by the comment's protocol (Sticky: the marked comment of
// our own identity found again, edited or created, concurrent writers and
// duplicates settled), and the labels a reviewer filters on. It knows no
// platform: it writes through a Store, which internal/github implements
// over GitHub's REST API; the front end picks the store.
package publish

import (
	"context"
	"fmt"
	"time"
)

// Store is a pull request's comments and labels on one platform: the
// calls the protocol makes, one request each (a failed one is not retried
// here: the protocol decides, from Failure). Its String names the pull
// request in messages ("pull request #7").
type Store interface {
	fmt.Stringer
	// ListComments is one page of the pull request's comments, oldest
	// first; page 0 is the first, next is the page after it (0: none).
	ListComments(ctx context.Context, page int) (comments []Comment, next int, err error)
	// CreateComment adds a comment and answers it as the platform stored
	// it: its author is who the store writes as.
	CreateComment(ctx context.Context, body string) (Comment, error)
	EditComment(ctx context.Context, id int64, body string) error
	DeleteComment(ctx context.Context, id int64) error
	// ListLabels is one page of the pull request's label names, paged as
	// ListComments.
	ListLabels(ctx context.Context, page int) (names []string, next int, err error)
	AddLabels(ctx context.Context, names []string) error
	RemoveLabel(ctx context.Context, name string) error
	// Failure says what the protocol needs to know of a call's error.
	Failure(err error) Failure
}

// Hider is a store that can fold a comment away as outdated (comment:
// hide-and-new); without it the old comment stays as it is.
type Hider interface {
	HideComment(ctx context.Context, c Comment) error
}

// Comment is a comment as a store lists it.
type Comment struct {
	ID int64
	// NodeID is the comment's global identifier where the platform has
	// one beside ID (GitHub's GraphQL node ID, which Hider needs).
	NodeID string
	// Author is the login that wrote it: only a marked comment of the
	// identity the store writes as is the action's (Sticky.Author).
	Author string
	Body   string
	// URL is the comment's page, for the comment-url output.
	URL string
}

// Failure is a failed call as the protocol sees it.
type Failure struct {
	// Status is the answer's HTTP status, 0 when there was none.
	Status int
	// RateLimited: the platform refused for the rate of requests.
	RateLimited bool
	// Transient: another attempt may succeed, after Wait when the
	// platform named it (0: the protocol's own wait).
	Transient bool
	Wait      time.Duration
}
