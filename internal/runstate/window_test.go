package runstate

import (
	"context"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/predict"

	"k8s.io/client-go/rest"
)

// TestDefaultConcurrencyWindow: a concurrency of 0 sizes the window
// from the default one.
func TestDefaultConcurrencyWindow(t *testing.T) {
	c, err := kube.New(&rest.Config{Host: "http://127.0.0.1:1"}, "default", 16)
	if err != nil {
		t.Fatal(err)
	}
	s := New(context.Background(), "")
	defer s.Close()
	if got := s.Window(c, 500*time.Microsecond, 0, 0); got != kube.DefaultMaxInFlight || c.Window.Limit() != predict.DefaultConcurrency {
		t.Fatalf("cap %d, window %d; want %d, %d", got, c.Window.Limit(), kube.DefaultMaxInFlight, predict.DefaultConcurrency)
	}
}

// The targets of a run share one client per cluster: the first to reach
// it sizes its window to the round trip, as a check of its own does, and
// the others leave it as it is.
func TestSharedClientWindowSizedOnce(t *testing.T) {
	c, err := kube.New(&rest.Config{Host: "http://127.0.0.1:1"}, "default", 16)
	if err != nil {
		t.Fatal(err)
	}
	s := New(context.Background(), "")
	defer s.Close()
	s.Window(c, 30*time.Millisecond, 16, 0)
	if got := c.Window.Limit(); got != kube.DefaultMaxInFlight {
		t.Fatalf("window %d after the first reach over 30 ms, want %d", got, kube.DefaultMaxInFlight)
	}
	s.Window(c, 0, 16, 0)
	if got := c.Window.Limit(); got != kube.DefaultMaxInFlight {
		t.Errorf("window %d after a later target's reach, want it left at %d", got, kube.DefaultMaxInFlight)
	}
}
