package check

import (
	"context"
	"runtime"
	"sync"

	"github.com/ownership-check/ownership-check/internal/model"

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
// follows the requests, and each object's live and predicted states are
// dropped once analysed instead of all being held until the end, and so
// is the snapshot's record of it (the snapshot is not for use afterwards).
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
	type job struct {
		i   int
		res predict.Result
	}
	// Room for every object: emit never waits for the analysis, so the
	// requests go at the server's pace.
	jobs := make(chan job, len(objs))
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			in, err := getInput()
			for j := range jobs {
				if err == nil {
					objects[j.i] = in.object(j.res)
					in.forget(j.res.Object.ID)
				}
			}
		}()
	}
	err := s.PredictEach(ctx, objs, func(i int, r predict.Result) { jobs <- job{i, r} })
	close(jobs)
	wg.Wait()
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
