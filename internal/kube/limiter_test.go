package kube

import (
	"net/http"
	"net/http/httptest"
	"testing"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	"k8s.io/client-go/rest"
)

// apiServer answers /version, with API Priority and Fairness's headers
// when apf is set, as a server with APF enabled does on every answer.
func apiServer(t *testing.T, apf bool) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if apf {
			w.Header().Set(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID, "2b4b0b5e-flow")
			w.Header().Set(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID, "7c1d9e2f-level")
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"major":"1","minor":"33","gitVersion":"v1.33.0"}`))
	}))
	t.Cleanup(srv.Close)
	c, err := New(&rest.Config{Host: srv.URL}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if c.Config.RateLimiter != c.Window.rate {
		t.Fatal("the client's rate limiter is not the window's: client-go would build its own QPS bucket")
	}
	if _, err := c.Discovery.ServerVersion(); err != nil {
		t.Fatal(err)
	}
	return c
}

// accepted counts how many of n requests the rate limiter lets through at
// once.
func accepted(l *rateLimiter, n int) int {
	ok := 0
	for range n {
		if l.TryAccept() {
			ok++
		}
	}
	return ok
}

func TestRateLimitOffUnderPriorityAndFairness(t *testing.T) {
	c := apiServer(t, true)
	if !c.Window.rate.apf.Load() {
		t.Fatal("the server's answer carried APF's headers, yet the client still limits itself")
	}
	if n := accepted(c.Window.rate, 10_000); n != 10_000 {
		t.Errorf("under APF the client accepted %d of 10000 requests at once: the window alone must limit", n)
	}
}

func TestRateLimitFollowsTheWindowWithoutPriorityAndFairness(t *testing.T) {
	c := apiServer(t, false)
	if c.Window.rate.apf.Load() {
		t.Fatal("no APF header was answered, yet the client took the server for one with APF")
	}
	// A window grown from --concurrency 1 to 8 is not capped at what 1
	// allowed.
	c.Window.Resize(8, 64)
	if got, want := c.Window.rate.QPS(), float32(8*qpsPerRequest); got != want {
		t.Errorf("bucket QPS = %v, want %v (the window's limit of 8)", got, want)
	}
	if got, want := c.Window.rate.bucket.Burst(), 8*burstPerRequest; got != want {
		t.Errorf("bucket burst = %d, want %d (the window's limit of 8)", got, want)
	}
	// It is a bucket: a burst beyond it waits.
	if n := accepted(c.Window.rate, 10_000); n >= 10_000 {
		t.Errorf("the bucket accepted all of %d requests at once", n)
	}
	// A 429 halves the window, and the bucket with it.
	if err := c.Window.acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	c.Window.release(http.StatusTooManyRequests)
	if got, want := c.Window.rate.QPS(), float32(4*qpsPerRequest); got != want {
		t.Errorf("after a 429, bucket QPS = %v, want %v", got, want)
	}
}
