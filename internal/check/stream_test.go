package check

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/report"
)

// streamer stands in for an engine's scheduling only (what the API server
// answers is tested on a real one): it emits objects, then runs on until
// its context ends when wait is set.
type streamer struct {
	wait bool
	// emitted is closed once every object has been emitted.
	emitted chan struct{}
}

func (s *streamer) Predict(ctx context.Context, objs []model.Object) ([]predict.Result, error) {
	panic("Run must stream")
}

func (s *streamer) PredictEach(ctx context.Context, objs []model.Object, emit func(int, predict.Result)) error {
	for i, o := range objs {
		emit(i, predict.Result{Object: o, Blocked: "cannot be dry-run until Namespace/later exists"})
	}
	close(s.emitted)
	if s.wait {
		select {
		case <-ctx.Done():
			return fmt.Errorf("predict: %w", ctx.Err())
		case <-time.After(time.Minute):
			return errors.New("predict: never stopped")
		}
	}
	return nil
}

func streamObjects(n int) []model.Object {
	objs := make([]model.Object, n)
	for i := range objs {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion("v1")
		u.SetKind("ConfigMap")
		u.SetNamespace("later")
		u.SetName(fmt.Sprintf("cm-%d", i))
		objs[i] = model.Object{ID: model.IDOf(u), Object: u}
	}
	return objs
}

// The engine's requests go out while the input (the snapshot, read from
// git) is not there yet; the analysis waits for it.
func TestRunPredictsBeforeInputIsReady(t *testing.T) {
	engine := &streamer{emitted: make(chan struct{})}
	objs := streamObjects(20)
	rep, err := run(context.Background(), engine, objs, minWaiting, func() (judge.Input, error) {
		select {
		case <-engine.emitted:
			return judge.Input{Check: judge.Check{FieldManager: "deployer", Environment: "staging"}}, nil
		case <-time.After(30 * time.Second):
			return judge.Input{}, errors.New("Run waits for the input before the engine answers")
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Objects) != len(objs) || rep.Environment != "staging" {
		t.Fatalf("want %d objects of staging, got %d of %q", len(objs), len(rep.Objects), rep.Environment)
	}
}

// An input that fails (an unreadable snapshot) stops the engine and is the
// error returned: no report.
func TestRunInputErrorStopsEngine(t *testing.T) {
	engine := &streamer{wait: true, emitted: make(chan struct{})}
	unreadable := errors.New("snapshot: staging/index.json: schemaVersion 2 is newer than this tool; upgrade")
	done := make(chan error, 1)
	go func() {
		rep, err := run(context.Background(), engine, streamObjects(3), minWaiting, func() (judge.Input, error) { return judge.Input{}, unreadable })
		if rep != nil {
			err = fmt.Errorf("a report came back: %v", err)
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, unreadable) {
			t.Fatalf("want the input's error, got %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the engine was not stopped")
	}
}

// countingStreamer counts the objects it has emitted.
type countingStreamer struct{ emitted atomic.Int32 }

func (s *countingStreamer) Predict(ctx context.Context, objs []model.Object) ([]predict.Result, error) {
	panic("Run must stream")
}

func (s *countingStreamer) PredictEach(ctx context.Context, objs []model.Object, emit func(int, predict.Result)) error {
	for i, o := range objs {
		emit(i, predict.Result{Object: o, Blocked: "cannot be dry-run until Namespace/later exists"})
		s.emitted.Add(1)
	}
	return nil
}

// Answers waiting for the analysis are bounded: past the bound the engine
// waits (each answer holds a live and a predicted object), and carries on
// once the input is there.
func TestRunBoundsWaitingAnswers(t *testing.T) {
	engine := &countingStreamer{}
	const waiting = 4
	release := make(chan struct{})
	done := make(chan error, 1)
	var rep *report.Report
	go func() {
		var err error
		rep, err = run(context.Background(), engine, streamObjects(40), waiting, func() (judge.Input, error) {
			<-release
			return judge.Input{Check: judge.Check{FieldManager: "deployer", Environment: "staging"}}, nil
		})
		done <- err
	}()
	// Until the input is there, no more than the bound wait, besides one
	// answer taken by each analysis worker (waiting for the input too) and
	// one in the engine's hand.
	deadline := time.After(500 * time.Millisecond)
	for settled := false; !settled; {
		select {
		case <-deadline:
			settled = true
		case <-time.After(50 * time.Millisecond):
			settled = int(engine.emitted.Load()) >= 40
		}
	}
	if n, most := int(engine.emitted.Load()), waiting+runtime.GOMAXPROCS(0); n > most {
		t.Fatalf("%d answers emitted before the input was there; want at most %d", n, most)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(rep.Objects) != 40 {
		t.Fatalf("want 40 objects analysed, got %d", len(rep.Objects))
	}
}
