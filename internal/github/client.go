// Package github is the GitHub side of the action: it publishes a check's
// report (Publisher) as the pull request comment and labels, written by
// internal/publish over this package's Store (GitHub's REST API), and as
// the job summary, annotations and outputs, and falls back to the summary
// when the token cannot comment. It also reads the inputs and the event
// payload. internal/report renders the markdown; the comment's protocol
// (marker, sections, folding to the limit) is internal/publish's.
package github

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v66/github"
)

// NewClient returns a REST client for apiURL, the runner's GITHUB_API_URL:
// https://api.github.com, or https://HOST/api/v3 on GitHub Enterprise Server.
func NewClient(apiURL, token string) (*gh.Client, error) {
	u, err := url.Parse(strings.TrimSuffix(apiURL, "/") + "/")
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("GitHub API URL %q: not an absolute URL", apiURL)
	}
	c := gh.NewClient(&http.Client{Timeout: 30 * time.Second})
	if token != "" {
		c = c.WithAuthToken(token)
	}
	// Set directly rather than with WithEnterpriseURLs, which would append
	// /api/v3 to https://api.github.com as well.
	c.BaseURL = u
	c.UploadURL = u
	return c, nil
}
