package check

import (
	"context"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"

	"k8s.io/client-go/rest"
)

// TestDefaultConcurrencyWindow: a concurrency of 0 sizes the window
// from the default one.
func TestDefaultConcurrencyWindow(t *testing.T) {
	c, err := kube.New(&rest.Config{Host: "http://127.0.0.1:1"}, "default", 16)
	if err != nil {
		t.Fatal(err)
	}
	if got := sizeWindow(c, 500*time.Microsecond, 0, 0); got != DefaultMaxInFlight || c.Window.Limit() != DefaultConcurrency {
		t.Fatalf("cap %d, window %d; want %d, %d", got, c.Window.Limit(), DefaultMaxInFlight, DefaultConcurrency)
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
	s := NewState(context.Background(), "")
	defer s.Close()
	s.Window(c, 30*time.Millisecond, 16, 0)
	if got := c.Window.Limit(); got != DefaultMaxInFlight {
		t.Fatalf("window %d after the first reach over 30 ms, want %d", got, DefaultMaxInFlight)
	}
	s.Window(c, 0, 16, 0)
	if got := c.Window.Limit(); got != DefaultMaxInFlight {
		t.Errorf("window %d after a later target's reach, want it left at %d", got, DefaultMaxInFlight)
	}
}
