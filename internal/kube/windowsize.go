package kube

import "time"

// serviceTime is what the API server spends on one dry-run here
// (docs/benchmarks.md): requests in flight beyond the concurrency wait on
// the network, not on the server.
const serviceTime = 5 * time.Millisecond

// DefaultMaxInFlight caps the window of requests in flight
// (--max-in-flight): within what API Priority and Fairness gives a client
// by default, whose 429s are retried after their Retry-After.
const DefaultMaxInFlight = 64

// InFlight sizes the window of requests in flight to the round trip: with
// concurrency requests the server stays busy on loopback; across a round
// trip of rtt each request also waits rtt on the network, so
// concurrency*(1+rtt/serviceTime) keep it as busy (Little's law), up to
// limit (0: DefaultMaxInFlight). A remote cluster is then about as fast
// as a local one, and a local one gets what it got.
func InFlight(concurrency int, rtt time.Duration, limit int) int {
	limit = maxInFlight(limit)
	w := concurrency * (1 + int(rtt/serviceTime))
	return max(concurrency, min(w, limit))
}

// SizeTo sizes the window to the round trip (InFlight) under limit, and
// returns the cap; from there it adapts to the server's answers.
func (w *Window) SizeTo(concurrency int, rtt time.Duration, limit int) int {
	limit = maxInFlight(limit)
	w.Resize(InFlight(concurrency, rtt, limit), limit)
	return limit
}

// maxInFlight is the --max-in-flight cap, its default for 0.
func maxInFlight(n int) int {
	if n <= 0 {
		return DefaultMaxInFlight
	}
	return n
}
