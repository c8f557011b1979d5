package github

import (
	"context"
	"fmt"
	"net/http"

	gh "github.com/google/go-github/v66/github"
)

// hideComment minimizes the comment nodeID as OUTDATED (GraphQL
// minimizeComment), for comment: hide-and-new (publish's hide.go).
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
