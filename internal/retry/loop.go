package retry

import (
	"context"
	"time"
)

// Loop runs an operation again while its failures may pass.
type Loop struct {
	// Attempts bounds the calls of the operation (at least one).
	Attempts int
	// Again tells whether the failure err of attempt number attempt (from
	// 1) may pass, and how long to wait before the next attempt.
	Again func(attempt int, err error) (bool, time.Duration)
	// Sleep waits between attempts; nil means Sleep. Tests replace it to
	// see the waits without waiting.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Do calls op until it succeeds, fails for good, has had every attempt, or
// ctx ends or its deadline would pass during the next wait. It returns the
// number of attempts and op's last error, never a context error of its
// own: a retry cut short is the caller's failure with the operation's
// answer.
func (l Loop) Do(ctx context.Context, op func() error) (int, error) {
	sleep := l.Sleep
	if sleep == nil {
		sleep = Sleep
	}
	for attempt := 1; ; attempt++ {
		err := op()
		if err == nil || attempt >= l.Attempts || ctx.Err() != nil {
			return attempt, err
		}
		again, wait := l.Again(attempt, err)
		if !again || !Fits(ctx, wait) || sleep(ctx, wait) != nil {
			return attempt, err
		}
	}
}
