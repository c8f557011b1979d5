package github

import (
	"context"
	"errors"
	"fmt"

	gh "github.com/google/go-github/v66/github"
	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/publish"
)

// Issues is the part of GitHub's REST API a pull request's comment and
// labels need; *github.IssuesService implements it.
type Issues interface {
	ListComments(ctx context.Context, owner, repo string, number int, opts *gh.IssueListCommentsOptions) ([]*gh.IssueComment, *gh.Response, error)
	CreateComment(ctx context.Context, owner, repo string, number int, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error)
	EditComment(ctx context.Context, owner, repo string, commentID int64, comment *gh.IssueComment) (*gh.IssueComment, *gh.Response, error)
	DeleteComment(ctx context.Context, owner, repo string, commentID int64) (*gh.Response, error)
	ListLabelsByIssue(ctx context.Context, owner, repo string, number int, opts *gh.ListOptions) ([]*gh.Label, *gh.Response, error)
	AddLabelsToIssue(ctx context.Context, owner, repo string, number int, labels []string) ([]*gh.Label, *gh.Response, error)
	RemoveLabelForIssue(ctx context.Context, owner, repo string, number int, label string) (*gh.Response, error)
}

// Store is publish's store on GitHub: pull request Number's comments and
// labels through the REST API, and its comments hidden through GraphQL.
type Store struct {
	// Client hides comments (GraphQL); nil: a comment is not hidden.
	Client *gh.Client
	// Issues makes the REST calls: Client.Issues, or a test's wrapper.
	Issues Issues
	// GraphQLURL is the runner's GITHUB_GRAPHQL_URL; empty: derived from
	// the client's REST URL.
	GraphQLURL string
	Owner      string
	Repo       string
	Number     int
}

// NewStore is the store of pull request number of owner/repo through c.
func NewStore(c *gh.Client, graphqlURL, owner, repo string, number int) *Store {
	return &Store{Client: c, Issues: c.Issues, GraphQLURL: graphqlURL, Owner: owner, Repo: repo, Number: number}
}

// OpenStore is the front end's choice of store for the action (the
// Publisher's Open): GitHub's REST API at the runner's GITHUB_API_URL with
// token, for pull request number of the runner's repository, and, when
// identify (a comment will be written), the login the token writes as
// (Author), which it logs.
func OpenStore(a *githubactions.Action, token string) func(ctx context.Context, number int, identify bool) (publish.Store, string, error) {
	return func(ctx context.Context, number int, identify bool) (publish.Store, string, error) {
		ghctx, err := a.Context()
		if err != nil {
			return nil, "", err
		}
		client, err := NewClient(ghctx.APIURL, token)
		if err != nil {
			return nil, "", err
		}
		// Not ghctx.GraphqlURL: without the variable it is github.com's,
		// even on GitHub Enterprise Server.
		graphql := a.Getenv("GITHUB_GRAPHQL_URL")
		author := ""
		if identify {
			var how string
			author, how = Author(ctx, client, graphql)
			a.Infof("the comment is the one %s writes (%s); a marked comment of anyone else is left alone", author, how)
		}
		owner, repo := ghctx.Repo()
		return NewStore(client, graphql, owner, repo, number), author, nil
	}
}

func (s *Store) String() string { return fmt.Sprintf("pull request #%d", s.Number) }

func (s *Store) ListComments(ctx context.Context, page int) ([]publish.Comment, int, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100, Page: page}}
	list, resp, err := s.Issues.ListComments(ctx, s.Owner, s.Repo, s.Number, opts)
	if err != nil {
		return nil, 0, err
	}
	out := make([]publish.Comment, len(list))
	for i, c := range list {
		out[i] = commentOf(c)
	}
	return out, nextPage(resp), nil
}

func (s *Store) CreateComment(ctx context.Context, body string) (publish.Comment, error) {
	c, _, err := s.Issues.CreateComment(ctx, s.Owner, s.Repo, s.Number, &gh.IssueComment{Body: gh.String(body)})
	if err != nil {
		return publish.Comment{}, err
	}
	return commentOf(c), nil
}

func (s *Store) EditComment(ctx context.Context, id int64, body string) error {
	_, _, err := s.Issues.EditComment(ctx, s.Owner, s.Repo, id, &gh.IssueComment{Body: gh.String(body)})
	return err
}

func (s *Store) DeleteComment(ctx context.Context, id int64) error {
	_, err := s.Issues.DeleteComment(ctx, s.Owner, s.Repo, id)
	return err
}

func (s *Store) ListLabels(ctx context.Context, page int) ([]string, int, error) {
	list, resp, err := s.Issues.ListLabelsByIssue(ctx, s.Owner, s.Repo, s.Number, &gh.ListOptions{PerPage: 100, Page: page})
	if err != nil {
		return nil, 0, err
	}
	names := make([]string, len(list))
	for i, l := range list {
		names[i] = l.GetName()
	}
	return names, nextPage(resp), nil
}

func (s *Store) AddLabels(ctx context.Context, names []string) error {
	_, _, err := s.Issues.AddLabelsToIssue(ctx, s.Owner, s.Repo, s.Number, names)
	return err
}

func (s *Store) RemoveLabel(ctx context.Context, name string) error {
	_, err := s.Issues.RemoveLabelForIssue(ctx, s.Owner, s.Repo, s.Number, name)
	return err
}

// HideComment minimizes c as outdated (hide.go); without a Client it
// stays as it is.
func (s *Store) HideComment(ctx context.Context, c publish.Comment) error {
	if s.Client == nil {
		return nil
	}
	return hideComment(ctx, s.Client, s.GraphQLURL, c.NodeID)
}

// Failure reads GitHub's answer: its status, a rate limit (primary or
// secondary), and whether it is worth another attempt (retry.go).
func (s *Store) Failure(err error) publish.Failure {
	var rl *gh.RateLimitError
	var abuse *gh.AbuseRateLimitError
	f := publish.Failure{Status: statusOf(err), RateLimited: errors.As(err, &rl) || errors.As(err, &abuse)}
	f.Transient, f.Wait = transient(err)
	return f
}

func commentOf(c *gh.IssueComment) publish.Comment {
	return publish.Comment{ID: c.GetID(), NodeID: c.GetNodeID(), Author: c.GetUser().GetLogin(), Body: c.GetBody(), URL: c.GetHTMLURL()}
}

func nextPage(resp *gh.Response) int {
	if resp == nil {
		return 0
	}
	return resp.NextPage
}
