package github

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v66/github"
)

// ActionsBot is who a workflow's GITHUB_TOKEN writes as.
const ActionsBot = "github-actions[bot]"

// Author finds the login the token writes comments as, the only author
// whose marked comment the action edits or deletes: anyone can write the
// marker, and a comment stays editable by whoever wrote it.
//
// A user's token (a personal access token) is answered by GET /user. An
// app's installation token, GITHUB_TOKEN included, is refused there (403)
// and answered by GraphQL's viewer: github-actions[bot], or a GitHub App's
// <slug>[bot]. When neither answers, ActionsBot is assumed: a wrong guess
// means the action writes a comment of its own rather than finding its
// earlier one, never that it edits another's. how says which it was.
func Author(ctx context.Context, c *gh.Client, graphqlURL string) (login, how string) {
	u, _, err := c.Users.Get(ctx, "")
	if err == nil && u.GetLogin() != "" {
		return u.GetLogin(), "GET /user"
	}
	userErr := err
	login, err = viewer(ctx, c, graphQLURL(c, graphqlURL))
	if err == nil {
		return login, "the GraphQL viewer"
	}
	return ActionsBot, fmt.Sprintf("assumed, as neither GET /user (%s) nor the GraphQL viewer (%s) answered", reasonOf(userErr), err)
}

func reasonOf(err error) string {
	if err == nil {
		return "no login"
	}
	return Reason(err)
}

// viewer asks GraphQL for the token's login.
func viewer(ctx context.Context, c *gh.Client, url string) (string, error) {
	req, err := c.NewRequest(http.MethodPost, url, map[string]string{"query": "query { viewer { login } }"})
	if err != nil {
		return "", err
	}
	var out struct {
		Data struct {
			Viewer struct {
				Login string `json:"login"`
			} `json:"viewer"`
		} `json:"data"`
		Errors []struct {
			Message string `json:"message"`
		} `json:"errors"`
	}
	if _, err := c.Do(ctx, req, &out); err != nil {
		return "", err
	}
	if len(out.Errors) > 0 {
		return "", fmt.Errorf("%s", out.Errors[0].Message)
	}
	if out.Data.Viewer.Login == "" {
		return "", fmt.Errorf("no login in the answer")
	}
	return out.Data.Viewer.Login, nil
}

// graphQLURL is the runner's GITHUB_GRAPHQL_URL, else derived from the
// REST URL: https://api.github.com/graphql, or https://HOST/api/graphql on
// GitHub Enterprise Server.
func graphQLURL(c *gh.Client, given string) string {
	if given != "" {
		return given
	}
	base := strings.TrimSuffix(c.BaseURL.String(), "/")
	if b, ok := strings.CutSuffix(base, "/api/v3"); ok {
		return b + "/api/graphql"
	}
	return base + "/graphql"
}
