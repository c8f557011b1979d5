package check

import (
	"context"
	"runtime"
	"sync"

	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
)

// Run predicts objs with the engine and returns the report Build would
// return for the engine's results (in.Results is ignored).
//
// With an engine that streams (predict.Streamer) each object is analysed as
// soon as the engine answers for it, on other goroutines, while the
// requests for the other objects are in flight: the analysis no longer
// follows the requests, and each object's live and predicted states are
// dropped once analysed instead of all being held until the end.
func Run(ctx context.Context, engine predict.Engine, objs []render.Object, in Input) (*report.Report, error) {
	s, ok := engine.(predict.Streamer)
	if !ok {
		results, err := engine.Predict(ctx, objs)
		if err != nil {
			return nil, err
		}
		in.Results = results
		return Build(in), nil
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
			for j := range jobs {
				objects[j.i] = in.object(j.res)
			}
		}()
	}
	err := s.PredictEach(ctx, objs, func(i int, r predict.Result) { jobs <- job{i, r} })
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	rendered := make(map[render.ID]bool, len(objs))
	for _, o := range objs {
		rendered[o.ID] = true
	}
	return in.assemble(objects, rendered), nil
}
