package retry

import (
	"math/rand/v2"
	"time"
)

// Backoff is exponential backoff with jitter: Base after the first failed
// attempt, doubled after each further one, never more than Max.
type Backoff struct {
	Base, Max time.Duration
}

// Delay is the wait after failed attempt number attempt (from 1): a random
// point in the upper half of the step, so that workers that failed
// together do not come back together.
func (b Backoff) Delay(attempt int) time.Duration {
	d := b.Base << (attempt - 1)
	if d > b.Max || d <= 0 {
		d = b.Max
	}
	return d/2 + rand.N(d/2+1)
}
