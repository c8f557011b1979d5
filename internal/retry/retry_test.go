package retry

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestSleepEndsWithTheContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Sleep on an ended context = %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("Sleep = %v", err)
	}
}

func TestFits(t *testing.T) {
	if !Fits(context.Background(), time.Hour) {
		t.Error("without a deadline every wait fits")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if Fits(ctx, time.Hour) || !Fits(ctx, time.Second) {
		t.Error("Fits ignores the deadline")
	}
}

func TestBackoffDoublesWithinBounds(t *testing.T) {
	b := Backoff{Base: 100 * time.Millisecond, Max: time.Second}
	for attempt := 1; attempt < 80; attempt++ {
		step := min(b.Base<<(attempt-1), b.Max)
		if attempt > 10 {
			step = b.Max
		}
		if d := b.Delay(attempt); d < step/2 || d > step {
			t.Fatalf("Delay(%d) = %s, want in [%s, %s]", attempt, d, step/2, step)
		}
	}
}

// waits records the waits of a Loop without waiting.
type waits []time.Duration

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	*w = append(*w, d)
	return ctx.Err()
}

func TestLoop(t *testing.T) {
	transient, permanent := errors.New("503"), errors.New("403")
	again := func(_ int, err error) (bool, time.Duration) { return err == transient, time.Second }
	for _, tc := range []struct {
		name     string
		attempts int
		fails    []error // what the attempts return, then nil
		deadline time.Duration
		want     int
		wantErr  error
	}{
		{"success at once", 3, nil, 0, 1, nil},
		{"a transient failure passes", 3, []error{transient}, 0, 2, nil},
		{"attempts run out", 3, []error{transient, transient, transient, transient}, 0, 3, transient},
		{"a permanent failure stops", 3, []error{permanent}, 0, 1, permanent},
		{"no wait past the deadline", 3, []error{transient}, 100 * time.Millisecond, 1, transient},
		{"zero attempts is one", 0, []error{transient}, 0, 1, transient},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.deadline > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.deadline)
				defer cancel()
			}
			var w waits
			calls := 0
			n, err := Loop{Attempts: tc.attempts, Again: again, Sleep: w.sleep}.Do(ctx, func() error {
				calls++
				if calls <= len(tc.fails) {
					return tc.fails[calls-1]
				}
				return nil
			})
			if n != tc.want || calls != tc.want || err != tc.wantErr {
				t.Errorf("Do = %d, %v after %d calls; want %d, %v", n, err, calls, tc.want, tc.wantErr)
			}
			if len(w) != n-1 {
				t.Errorf("%d waits for %d attempts", len(w), n)
			}
		})
	}
}
