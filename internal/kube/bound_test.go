package kube

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/openapi"
	"k8s.io/client-go/rest"
)

// hangingServer accepts connections and answers nothing that hangs says
// hangs, until the client gives up: a server whose process is stopped, or
// a proxy that never forwards. Others get answer.
func hangingServer(t *testing.T, hangs func(*http.Request) bool, answer http.HandlerFunc) *Client {
	t.Helper()
	released := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hangs(r) {
			select {
			case <-r.Context().Done():
			case <-released:
			}
			return
		}
		answer(w, r)
	}))
	t.Cleanup(func() { close(released); srv.Close() })
	// client-go's own timeout stays far past the test's deadline: only the
	// caller's context can end the requests in time.
	// Its own transport, so that the test can close the connections kept
	// alive for the next request, which are no goroutine of a call.
	c, err := New(&rest.Config{Host: srv.URL, Timeout: time.Minute, Transport: &http.Transport{}}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func notFound(w http.ResponseWriter, _ *http.Request) { http.NotFound(w, nil) }

// noGoroutineLeft fails when, after a short settle, more goroutines run
// than before: what the call started must be done when it returned (the
// server's side of a closed connection ends a moment later).
func noGoroutineLeft(t *testing.T, c *Client, before int) {
	t.Helper()
	var now int
	for range 100 {
		c.Config.Transport.(*http.Transport).CloseIdleConnections()
		if now = runtime.NumGoroutine(); now <= before {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines before the call, %d after it returned:\n%s", before, now, buf[:runtime.Stack(buf, true)])
}

// returnsBy fails unless the call returned soon after its deadline.
func returnsBy(t *testing.T, start time.Time, deadline time.Duration) {
	t.Helper()
	if took := time.Since(start); took > deadline+2*time.Second {
		t.Fatalf("returned after %s, deadline %s: the hung request held the call", took, deadline)
	}
}

func TestDiscoverHungServerReturnsByDeadlineAndLeavesNothing(t *testing.T) {
	c := hangingServer(t, func(*http.Request) bool { return true }, notFound)
	before := runtime.NumGoroutine()
	const deadline = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_, err := c.Discover(ctx)
	returnsBy(t, start, deadline)
	if err == nil || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer to discovery") {
		t.Fatalf("err = %v, want no answer to discovery, deadline exceeded", err)
	}
	noGoroutineLeft(t, c, before)
	if err := c.Reach(ctx); err == nil {
		t.Fatal("Reach after the deadline: no error")
	}
	noGoroutineLeft(t, c, before)
}

func TestOpenAPIV3HungServerReturnsByDeadlineAndLeavesNothing(t *testing.T) {
	// The paths answer at once and the document hangs: both reads are
	// bound, each on its own.
	for _, hung := range []string{"/openapi/v3", "/openapi/v3/api/v1"} {
		t.Run(hung, func(t *testing.T) {
			c := hangingServer(t, func(r *http.Request) bool { return r.URL.Path == hung }, openAPIPaths)
			before := runtime.NumGoroutine()
			const deadline = 200 * time.Millisecond
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			start := time.Now()
			err := readDocument(c.OpenAPIV3(ctx), "api/v1")
			returnsBy(t, start, deadline)
			if !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want deadline exceeded", err)
			}
			noGoroutineLeft(t, c, before)
		})
	}
}

// openAPIPaths publishes api/v1 and its document.
func openAPIPaths(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/openapi/v3":
		_, _ = w.Write([]byte(`{"paths":{"api/v1":{"serverRelativeURL":"/openapi/v3/api/v1?hash=1"}}}`))
	case "/openapi/v3/api/v1":
		_, _ = w.Write([]byte(`{"openapi":"3.0.0"}`))
	default:
		http.NotFound(w, r)
	}
}

func readDocument(oa openapi.Client, path string) error {
	paths, err := oa.Paths()
	if err != nil {
		return err
	}
	gv, ok := paths[path]
	if !ok {
		return fmt.Errorf("%s not published", path)
	}
	_, err = gv.Schema("application/json")
	return err
}
