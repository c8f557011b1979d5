package check

import (
	"context"
	"runtime"
	"sync"

	"github.com/ownership-check/ownership-check/internal/model"

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
// of all being held until the end.
func run(ctx context.Context, engine predict.Engine, objs []model.Object, input func() (analysis, error)) (*report.Report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	getInput := sync.OnceValues(func() (analysis, error) {
		in, err := input()
		if err != nil {
			cancel()
		}
		return in, err
	})
	s, ok := engine.(predict.Streamer)
	if !ok {
		results, err := engine.Predict(ctx, objs)
		in, inErr := getInput()
		if inErr != nil {
			return nil, inErr
		}
		if err != nil {
			return nil, err
		}
		return in.build(results), nil
	}
	objects := make([]report.Object, len(objs))
	// Room for every object: emit never waits for the analysis, so the
	// requests go at the server's pace.
	pool := parallel.NewPool(runtime.GOMAXPROCS(0), len(objs)+1)
	// The input is read meanwhile, and its failure stops the engine.
	pool.Go(func() { _, _ = getInput() })
	err := s.PredictEach(ctx, objs, func(i int, r predict.Result) {
		pool.Go(func() {
			if in, err := getInput(); err == nil {
				objects[i] = in.object(r)
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
	return in.assemble(objects, rendered), nil
}
