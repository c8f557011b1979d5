package gitlab

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestTokenOnlyOverHTTPS: a job's CI_API_V4_URL can be set by the
// pipeline a merge request writes; the token never goes to a plain-http
// address other than this machine's.
func TestTokenOnlyOverHTTPS(t *testing.T) {
	for url, ok := range map[string]bool{
		"https://gitlab.example.com/api/v4": true,
		"http://gitlab.example.com/api/v4":  false,
		"http://10.0.0.5/api/v4":            false,
		"http://127.0.0.1:8080/api/v4":      true,
		"http://localhost:8080/api/v4":      true,
		"http://[::1]:8080/api/v4":          true,
	} {
		_, err := NewClient(url, testToken)
		if (err == nil) != ok {
			t.Errorf("NewClient(%s): %v, want allowed %v", url, err, ok)
		}
		if err != nil && strings.Contains(err.Error(), testToken) {
			t.Errorf("the error names the token: %v", err)
		}
	}
	if _, err := NewClient("http://gitlab.example.com/api/v4", ""); err != nil {
		t.Errorf("without a token plain http sends nothing secret: %v", err)
	}
}

// TestRedirectKeepsTheToken: Go drops Authorization on a redirect to
// another host but not GitLab's PRIVATE-TOKEN header: such a redirect is
// not followed.
func TestRedirectKeepsTheToken(t *testing.T) {
	leaked := false
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaked = r.Header.Get("PRIVATE-TOKEN") != ""
	}))
	defer other.Close()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+r.URL.Path, http.StatusFound)
	}))
	defer api.Close()
	c, err := NewClient(api.URL, testToken)
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.do(context.Background(), http.MethodGet, "/user", nil, nil, nil)
	if err == nil || leaked {
		t.Fatalf("redirect to another host followed (leaked %v): %v", leaked, err)
	}
	if strings.Contains(err.Error(), testToken) {
		t.Errorf("the error names the token: %v", err)
	}
}
