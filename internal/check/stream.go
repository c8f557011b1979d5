package check

import (
	"context"
	"runtime"
	"slices"
	"sync"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/report"
)

// run predicts objs with the engine and returns the report of its answers.
// input gives everything else the report is built from; it is called once,
// and may block: the engine's requests go out meanwhile (the snapshot, read
// from git, is needed only to analyse what they answer). An error from
// input stops the prediction and is returned before the engine's.
//
// With an engine that streams (predict.Streamer) each object is analysed as
// soon as the engine answers for it, on other goroutines, while the
// requests for the other objects are in flight: the analysis no longer
// follows the requests, and each object's live and predicted states, and
// the snapshot's record decoded for it, are dropped once analysed instead
// of all being held until the end. So is the rendered object: run takes
// objs over and leaves only their ids; an object waiting for its dry-run
// is the engine's alone, held sealed.
// minWaiting is how many engine answers may wait for the analysis at
// least; see waitingFor.
const minWaiting = 32

// waitingFor is how many answers may wait for the analysis with window
// requests in flight: two windows' worth, so that the engine keeps its
// window full while the input is read (against a remote cluster the input
// takes round trips too), and no more, so that answers do not pile up when
// the analysis falls behind.
func waitingFor(window int) int { return max(minWaiting, 2*window) }

func run(ctx context.Context, engine predict.Engine, objs []model.Object, waiting int, input func() (judge.Input, error)) (*report.Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	getInput := sync.OnceValues(func() (judge.Input, error) {
		in, err := input()
		if err != nil {
			cancel()
		}
		return in, err
	})
	// The engine gets a list of its own, and objs let go of their objects
	// now: an object waiting for its dry-run is the engine's alone (held
	// sealed), then its Result's. What input reads of the render it reads
	// from what the caller took before (ids, hidden values, the rendered
	// controllers' sources), never from the objects.
	engineObjs := slices.Clone(objs)
	for i := range objs {
		objs[i].Object = nil
	}
	s, ok := engine.(predict.Streamer)
	if !ok {
		results, err := engine.Predict(ctx, engineObjs)
		in, inErr := getInput()
		if inErr != nil {
			return nil, inErr
		}
		if err != nil {
			return nil, err
		}
		return in.Results(results), nil
	}
	objects := make([]report.Object, len(objs))
	// Some answers may wait for the analysis, so that the requests go at
	// the server's pace; when more wait (the analysis falls behind, or the
	// input is still being read), emit waits too: each waiting answer holds
	// a live and a predicted object, and at 5,000 objects unbounded waiting
	// piled up ~300 of them at the start of a run.
	pool := parallel.NewPool(runtime.GOMAXPROCS(0), waiting)
	// The input is read meanwhile, and its failure stops the engine.
	pool.Go(func() { _, _ = getInput() })
	err := s.PredictEach(ctx, engineObjs, func(i int, r predict.Result) {
		pool.Go(func() {
			if in, err := getInput(); err == nil {
				objects[i] = in.Object(r)
			}
		})
	})
	pool.Wait()
	in, inErr := getInput()
	if inErr != nil {
		return nil, inErr
	}
	if err != nil {
		return nil, err
	}
	rendered := make(map[model.ID]bool, len(objs))
	for _, o := range objs {
		rendered[o.ID] = true
	}
	return in.Report(objects, rendered), nil
}
