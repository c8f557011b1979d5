package check

import (
	"context"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/kube"

	"k8s.io/client-go/rest"
)

// TestInFlight: loopback keeps --concurrency, a round trip widens the
// window, never past the cap.
func TestInFlight(t *testing.T) {
	for _, tc := range []struct {
		conc  int
		rtt   time.Duration
		limit int
		want  int
	}{
		{16, 500 * time.Microsecond, 0, 16},
		{16, 6 * time.Millisecond, 0, 32},
		{16, 30 * time.Millisecond, 0, DefaultMaxInFlight},
		{16, 30 * time.Millisecond, 200, 112},
		{16, 30 * time.Millisecond, 8, 16},
		{0, 500 * time.Microsecond, 0, DefaultConcurrency},
	} {
		if got := inFlight(tc.conc, tc.rtt, tc.limit); got != tc.want {
			t.Errorf("inFlight(%d, %s, %d) = %d, want %d", tc.conc, tc.rtt, tc.limit, got, tc.want)
		}
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
