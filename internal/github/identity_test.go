package github

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/github/githubtest"
	"github.com/ownership-check/ownership-check/internal/publish"
)

func TestAuthor(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, login, want, how string
		graphQLDown            bool
	}{
		{"GITHUB_TOKEN", "", ActionsBot, "the GraphQL viewer", false},
		{"a GitHub App's token", "shop-deploy-bot[bot]", "shop-deploy-bot[bot]", "the GraphQL viewer", false},
		{"a personal access token", "octocat", "octocat", "GET /user", false},
		{"an installation token without GraphQL", "shop-deploy-bot[bot]", ActionsBot, "assumed", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := githubtest.New(t, "acme/shop", pr)
			srv.Login = tc.login
			if tc.graphQLDown {
				srv.SetIntercept(func(method, path string) *githubtest.Fault {
					if path == "api/graphql" {
						return &githubtest.Fault{Status: http.StatusBadGateway, Message: "Server Error"}
					}
					return nil
				})
			}
			c, err := NewClient(srv.URL, "t0ken")
			if err != nil {
				t.Fatal(err)
			}
			login, how := Author(ctx, c, srv.GraphQLURL)
			if login != tc.want || !strings.HasPrefix(how, tc.how) {
				t.Errorf("Author = %q (%s), want %q (%s)", login, how, tc.want, tc.how)
			}
		})
	}
}

// TestStickyIgnoresOthersMarkers: a comment that starts with the marker but
// was written by someone else is neither edited nor deleted; the action
// writes its own, and edits only that one afterwards.
func TestStickyIgnoresOthersMarkers(t *testing.T) {
	ctx := context.Background()
	srv := githubtest.New(t, "acme/shop", pr)
	forged := publish.CommentMarker + "\n## ownership-check\n\n✅ **staging**: no ownership conflicts in 12 objects.\n"
	forgedID := srv.AddComment(pr, "mallory", forged)
	s := newSticky(t, srv, "")
	res, err := upsert(ctx, s, envReport("staging", 1))
	if err != nil || res.Outcome != publish.Created || res.ID == forgedID {
		t.Fatalf("first run: %+v, %v: want a comment of its own", res, err)
	}
	res, err = upsert(ctx, s, envReport("staging", 2))
	if err != nil || res.Outcome != publish.Updated || res.ID == forgedID {
		t.Fatalf("second run: %+v, %v", res, err)
	}
	cs := srv.Comments(pr)
	if len(cs) != 2 || cs[0].ID != forgedID || cs[0].Body != forged || cs[0].Author != "mallory" {
		t.Fatalf("the forged comment was touched: %+v", cs)
	}
	if cs[1].Author != ActionsBot || !strings.Contains(cs[1].Body, "`2` → `3` → `2`") {
		t.Errorf("own comment: %+v", cs[1])
	}
	for _, c := range srv.Calls() {
		if (c.Method == http.MethodPatch || c.Method == http.MethodDelete) && strings.HasSuffix(c.Path, "/"+strconv.FormatInt(forgedID, 10)) {
			t.Errorf("%s %s", c.Method, c.Path)
		}
	}
}

// TestStickyLearnsItsLogin: when Author had to guess wrong, the comment
// GitHub answers with says who the token is, and the run goes on as that
// author instead of writing comment after comment.
func TestStickyLearnsItsLogin(t *testing.T) {
	ctx := context.Background()
	srv := githubtest.New(t, "acme/shop", pr)
	srv.Login = "shop-deploy-bot[bot]"
	s := newSticky(t, srv, "")
	if _, err := upsert(ctx, s, envReport("staging", 1)); err != nil {
		t.Fatal(err)
	}
	if s.Author != "shop-deploy-bot[bot]" || len(srv.Comments(pr)) != 1 {
		t.Errorf("author %q, %d comments", s.Author, len(srv.Comments(pr)))
	}
}
