package render

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// timeBound runs a target's render under a time bound (RenderAll's:
// source.MaxRenderTime). The bound ends the render's context, which every
// step waits on or checks before it starts (a build, a chart's fetch, a
// lookup of the cluster); a step under way runs to its end
// (docs/security.md). A render the bound ended is not rendered, whatever
// it made, with the bound as the reason: what it made in time is not the
// whole target.
func timeBound(ctx context.Context, bound time.Duration, paths []string, render func(context.Context) (Result, error)) (Result, error) {
	rctx, cancel := context.WithTimeoutCause(ctx, bound, source.ErrRenderTime)
	defer cancel()
	r, err := render(rctx)
	if ctx.Err() == nil && errors.Is(context.Cause(rctx), source.ErrRenderTime) {
		return Result{NotRendered: []source.NotRendered{{Source: strings.Join(paths, ", "), Reason: source.ErrRenderTime.Bound}}}, nil
	}
	return r, err
}

// overRendered says whether the builds of one render made more than
// source.MaxRenderedBytes, and then what is not rendered: the whole
// target, named at the path whose objects passed the bound, with what
// else its sources could not render.
func overRendered(in *source.Input, jobs []*job) ([]source.NotRendered, bool) {
	total := int64(0)
	for _, j := range jobs {
		for _, o := range j.out.Objects {
			total += source.RenderedSize(o.Object.Object)
		}
		if total > source.MaxRenderedBytes {
			nr := []source.NotRendered{{Source: in.Rel(j.path.Abs), Reason: source.OverRendered(total).Bound}}
			for _, k := range jobs {
				nr = append(nr, k.out.NotRendered...)
			}
			return nr, true
		}
	}
	return nil, false
}
