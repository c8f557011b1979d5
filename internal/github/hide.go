package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// comment: hide-and-new. Editing a comment notifies no one; when the
// verdict changes, people should hear of it. So the old comment is
// minimized as outdated (GraphQL minimizeComment: GitHub folds it under
// "This comment was marked as outdated") and a new one is posted. Only
// the token's own marked comment is hidden, as only it is edited
// (Sticky). While the verdict stays the same, the comment is edited in
// place, as comment: update does.

// hideComment minimizes the comment nodeID as OUTDATED.
func hideComment(ctx context.Context, c *gh.Client, graphqlURL, nodeID string) error {
	req, err := c.NewRequest(http.MethodPost, graphQLURL(c, graphqlURL), map[string]any{
		"query":     "mutation($id: ID!, $classifier: ReportedContentClassifiers!) { minimizeComment(input: {subjectId: $id, classifier: $classifier}) { minimizedComment { isMinimized } } }",
		"variables": map[string]string{"id": nodeID, "classifier": "OUTDATED"},
	})
	if err != nil {
		return err
	}
	var out struct {
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if _, err := c.Do(ctx, req, &out); err != nil {
		return err
	}
	if len(out.Errors) > 0 {
		return fmt.Errorf("%s", out.Errors[0].Message)
	}
	return nil
}

// verdictOf is a comment body's verdict line: the first line after its
// title that starts with a verdict's icon.
func verdictOf(body string) string {
	for _, l := range strings.Split(body, "\n") {
		for _, icon := range []string{"✅", "❌", "⚠️", "⏳"} {
			if strings.HasPrefix(l, icon) {
				return l
			}
		}
	}
	return ""
}

// hideAndNew writes the sections for comment: hide-and-new: a new comment
// and the old one hidden when the merged verdict differs from the old
// one's, else the old one edited. hide is nil when there is no client
// to hide with: the old comment then stays as it is.
func (s *Sticky) hideAndNew(ctx context.Context, merge func(string) string, present func(string) bool, hide func(ctx context.Context, nodeID string) error) (Result, error, error) {
	comments, err := s.find(ctx)
	if err != nil {
		return Result{}, err, nil
	}
	if len(comments) == 0 {
		res, err := s.Update(ctx, merge, present)
		return res, err, nil
	}
	cur := comments[len(comments)-1]
	body := merge(cur.GetBody())
	if verdictOf(body) == verdictOf(cur.GetBody()) {
		res, err := s.Update(ctx, merge, present)
		return res, err, nil
	}
	res, err := s.Post(ctx, body)
	if err != nil || hide == nil {
		return res, err, nil
	}
	return res, nil, hide(ctx, cur.GetNodeID())
}
