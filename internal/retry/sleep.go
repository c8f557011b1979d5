package retry

import (
	"context"
	"time"
)

// Sleep waits d, or until ctx ends: then it returns ctx.Err().
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Fits tells whether a wait of d ends before ctx's deadline. A wait that
// would not is not worth starting: the caller fails now, with the answer
// it has, rather than later with a context error that says less.
func Fits(ctx context.Context, d time.Duration) bool {
	deadline, ok := ctx.Deadline()
	return !ok || time.Until(deadline) >= d
}
