package predict

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestRetryable(t *testing.T) {
	gr := schema.GroupResource{Resource: "configmaps"}
	urlErr := func(err error) error { return &url.Error{Op: "Patch", URL: "https://x", Err: err} }
	withRetryAfter := apierrors.NewTooManyRequests("slow down", 3)
	for _, tc := range []struct {
		name  string
		err   error
		retry bool
		wait  time.Duration
	}{
		{"nil", nil, false, 0},
		{"429 with Retry-After", withRetryAfter, true, 3 * time.Second},
		{"429 without Retry-After", apierrors.NewTooManyRequests("slow down", 0), true, 0},
		{"500", apierrors.NewInternalError(errors.New("etcd hiccup")), true, 0},
		{"500 field not declared in schema", apierrors.NewInternalError(errors.New(".spec.foo: field not declared in schema")), false, 0},
		{"500 wrong type", apierrors.NewInternalError(errors.New("failed to create typed patch object (ns/s; /v1, Kind=Secret): .stringData.token: expected string, got &value.valueUnstructured{Value:1}")), false, 0},
		{"503", apierrors.NewServiceUnavailable("try later"), true, 0},
		{"504", apierrors.NewTimeoutError("timed out", 0), true, 0},
		{"server timeout", apierrors.NewServerTimeout(gr, "patch", 2), true, 2 * time.Second},
		{"502", apierrors.NewGenericServerResponse(502, "PATCH", gr, "x", "bad gateway", 0, false), true, 0},
		{"403", apierrors.NewForbidden(gr, "x", errors.New("no")), false, 0},
		{"404", apierrors.NewNotFound(gr, "x"), false, 0},
		{"409", apierrors.NewConflict(gr, "x", errors.New("modified")), false, 0},
		{"422", apierrors.NewInvalid(schema.GroupKind{Kind: "ConfigMap"}, "x", field.ErrorList{field.Required(field.NewPath("data"), "")}), false, 0},
		{"no match", &meta.NoKindMatchError{GroupKind: schema.GroupKind{Kind: "Widget"}}, false, 0},
		{"connection reset", urlErr(&net.OpError{Op: "read", Err: syscall.ECONNRESET}), true, 0},
		{"connection refused", urlErr(&net.OpError{Op: "dial", Err: syscall.ECONNREFUSED}), true, 0},
		{"EOF", urlErr(io.EOF), true, 0},
		{"attempt timeout", urlErr(context.DeadlineExceeded), true, 0},
		{"canceled", urlErr(context.Canceled), false, 0},
		{"other", errors.New("boom"), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			retry, wait := retryable(tc.err)
			if retry != tc.retry || wait != tc.wait {
				t.Errorf("retryable(%v) = %v, %v; want %v, %v", tc.err, retry, wait, tc.retry, tc.wait)
			}
		})
	}
}

// recorder replaces the retrier's sleep, so tests see the waits without
// waiting.
type recorder struct{ waits []time.Duration }

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.waits = append(r.waits, d)
	return ctx.Err()
}

func testRetrier(maxRetries int) (*retrier, *recorder) {
	rec := &recorder{}
	r := newRetrier(maxRetries, 0)
	r.sleep = rec.sleep
	return r, rec
}

func TestRetrierHonoursRetryAfter(t *testing.T) {
	r, rec := testRetrier(5)
	calls := 0
	attempts, err := r.do(context.Background(), func(context.Context) error {
		calls++
		if calls == 1 {
			return apierrors.NewTooManyRequests("slow down", 2)
		}
		return nil
	})
	if err != nil || attempts != 2 || calls != 2 {
		t.Fatalf("attempts=%d calls=%d err=%v; want 2, 2, nil", attempts, calls, err)
	}
	if len(rec.waits) != 1 || rec.waits[0] < 2*time.Second || rec.waits[0] >= 2*time.Second+r.base {
		t.Errorf("waits %v; want one wait in [2s, 2s+%s)", rec.waits, r.base)
	}
}

func TestRetrierBacksOffExponentially(t *testing.T) {
	r, rec := testRetrier(4)
	attempts, err := r.do(context.Background(), func(context.Context) error {
		return apierrors.NewServiceUnavailable("down")
	})
	if !apierrors.IsServiceUnavailable(err) || attempts != 5 {
		t.Fatalf("attempts=%d err=%v; want 5 and the 503", attempts, err)
	}
	for i, w := range rec.waits {
		full := r.base << i
		if w < full/2 || w > full {
			t.Errorf("wait %d = %s; want in [%s, %s]", i, w, full/2, full)
		}
	}
	if len(rec.waits) != 4 {
		t.Errorf("%d waits; want 4", len(rec.waits))
	}
}

func TestRetrierCapsBackoff(t *testing.T) {
	r, _ := testRetrier(0)
	for attempt := 1; attempt < 80; attempt++ {
		if d := r.delay(attempt, 0); d > r.max || d < r.max/2 && attempt > 10 {
			t.Fatalf("delay(%d) = %s; want at most %s", attempt, d, r.max)
		}
	}
}

func TestRetrierDoesNotRetryPermanentErrors(t *testing.T) {
	r, rec := testRetrier(5)
	forbidden := apierrors.NewForbidden(schema.GroupResource{Resource: "configmaps"}, "x", errors.New("no"))
	attempts, err := r.do(context.Background(), func(context.Context) error { return forbidden })
	if attempts != 1 || err != forbidden || len(rec.waits) != 0 {
		t.Fatalf("attempts=%d err=%v waits=%v; want 1 attempt, no wait", attempts, err, rec.waits)
	}
}

func TestRetrierStopsWhenTheWaitPassesTheDeadline(t *testing.T) {
	r, rec := testRetrier(5)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	attempts, err := r.do(ctx, func(context.Context) error {
		return apierrors.NewTooManyRequests("slow down", 30)
	})
	if attempts != 1 || !apierrors.IsTooManyRequests(err) || len(rec.waits) != 0 {
		t.Fatalf("attempts=%d err=%v waits=%v; want to give up at once with the 429", attempts, err, rec.waits)
	}
}

func TestRetrierTimesOutOneAttempt(t *testing.T) {
	r, _ := testRetrier(1)
	r.attemptTimeout = time.Millisecond
	calls := 0
	attempts, err := r.do(context.Background(), func(ctx context.Context) error {
		calls++
		if calls == 1 {
			<-ctx.Done()
			return fmt.Errorf("patch: %w", ctx.Err())
		}
		return nil
	})
	if err != nil || attempts != 2 {
		t.Fatalf("attempts=%d err=%v; want the hung attempt retried", attempts, err)
	}
}
