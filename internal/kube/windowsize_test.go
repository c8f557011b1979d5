package kube

import (
	"testing"
	"time"
)

// TestInFlight: loopback keeps the concurrency, a round trip widens the
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
	} {
		if got := InFlight(tc.conc, tc.rtt, tc.limit); got != tc.want {
			t.Errorf("InFlight(%d, %s, %d) = %d, want %d", tc.conc, tc.rtt, tc.limit, got, tc.want)
		}
	}
}
