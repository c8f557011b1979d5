package faultproxy

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"testing"
	"time"
)

func client(t *testing.T, p *Proxy) *http.Client {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(p.CAData) {
		t.Fatal("no CA")
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
}

func TestRules(t *testing.T) {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "upstream "+r.URL.Path)
	}))
	defer upstream.Close()
	p := New(t, upstream.URL, nil)
	c := client(t, p)
	get := func(path string, timeout time.Duration) (*http.Response, error) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		t.Cleanup(cancel)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.URL+path, nil)
		return c.Do(req)
	}

	limited := &Rule{Path: regexp.MustCompile(`^/limited$`), Times: 1, Action: Status(429, "3")}
	p.Add(limited,
		&Rule{Path: regexp.MustCompile(`^/drop$`), Action: Drop()},
		&Rule{Path: regexp.MustCompile(`^/hang$`), Action: Hang()},
		&Rule{Path: regexp.MustCompile(`^/slow$`), Action: Latency(50 * time.Millisecond)})

	resp, err := get("/limited", time.Second)
	if err != nil || resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "3" {
		t.Fatalf("429: %v %v", resp, err)
	}
	if resp, err = get("/limited", time.Second); err != nil || resp.StatusCode != 200 {
		t.Fatalf("Times 1: the second request must pass: %v %v", resp, err)
	}
	if limited.Taken() != 1 {
		t.Errorf("taken %d", limited.Taken())
	}
	if _, err := get("/drop", time.Second); err == nil {
		t.Error("drop answered")
	}
	if _, err := get("/hang", 200*time.Millisecond); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hang: want the client's deadline, got %v", err)
	}
	start := time.Now()
	resp, err = get("/slow", time.Second)
	if err != nil || resp.StatusCode != 200 || time.Since(start) < 50*time.Millisecond {
		t.Errorf("latency: %v %v after %s", resp, err, time.Since(start))
	}
	p.Clear()
	if resp, err = get("/drop", time.Second); err != nil || resp.StatusCode != 200 {
		t.Errorf("after Clear: %v %v", resp, err)
	}
	if n := len(p.Requests()); n != 6 {
		t.Errorf("%d requests logged, want 6", n)
	}
}

func TestDiscoveryPattern(t *testing.T) {
	for path, want := range map[string]bool{
		"/api": true, "/api/v1": true, "/apis": true, "/apis/apps": true, "/apis/apps/v1": true,
		"/api/v1/namespaces": false, "/apis/apps/v1/deployments": false,
		"/api/v1/namespaces/x/configmaps/y": false,
	} {
		if Discovery.MatchString(path) != want {
			t.Errorf("Discovery %s: %v", path, !want)
		}
		if Objects.MatchString(path) == want && path != "/api" && path != "/apis" {
			t.Errorf("Objects %s: %v", path, want)
		}
	}
}
