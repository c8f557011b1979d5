package render

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/ownership-check/ownership-check/internal/parallel"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// loader reads the paths of one Render, each through the source the
// table chooses for it. Paths are prepared side by side, then built; the
// objects come out in the same order whatever order the work finishes in,
// and so does the error reported.
type loader struct {
	in      *source.Input
	rows    []sourceRow
	sources []source.Source // by row
}

func newLoader(in *source.Input, rows []sourceRow) *loader {
	l := &loader{in: in, rows: rows}
	for _, r := range rows {
		l.sources = append(l.sources, r.source(in))
	}
	return l
}

// job is one path on its way through its source.
type job struct {
	path   source.Path
	source source.Source
	build  source.Build
	out    source.Output
	err    error
}

func (l *loader) loadAll(ctx context.Context, paths []string) ([]source.RawObject, []source.NotRendered, error) {
	jobs := make([]*job, 0, len(paths))
	for _, p := range paths {
		j, err := l.plan(p)
		if err != nil {
			return nil, nil, err
		}
		jobs = append(jobs, j)
	}
	// Files are read and kustomizations scanned side by side.
	runJobs(ctx, jobs, runtime.GOMAXPROCS(0), func(j *job) { j.build, j.err = j.source.Prepare(ctx, j.path) })
	if err := firstError(jobs); err != nil {
		return nil, nil, err
	}
	workers := 1
	if len(jobs) > 1 && secondLargest(jobs) >= kustomize.PrimeCostObjects {
		kustomize.PrimeKrusty()
		workers = runtime.GOMAXPROCS(0)
	}
	runJobs(ctx, jobs, workers, func(j *job) { j.out, j.err = j.build.Run(ctx) })
	if err := firstError(jobs); err != nil {
		return nil, nil, err
	}
	if nr, over := overRendered(l.in, jobs); over {
		return nil, nr, nil
	}
	var out []source.RawObject
	var skipped []source.NotRendered
	for _, j := range jobs {
		for _, o := range j.out.Objects {
			out = append(out, source.RawOf(o))
		}
		skipped = append(skipped, j.out.NotRendered...)
	}
	return out, skipped, nil
}

// plan resolves a path and chooses its source.
func (l *loader) plan(given string) (*job, error) {
	abs, err := filepath.Abs(given)
	if err != nil {
		return nil, err
	}
	real, err := l.in.Fs.Boundary.Resolve(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", given, unwrapPathError(err))
	}
	info, err := l.in.Fs.Boundary.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", given, unwrapPathError(err))
	}
	p := source.Path{Given: given, Abs: abs, Real: real, Dir: info.IsDir()}
	if p.Dir {
		p.Kustomization = l.in.Fs.DiskKustomization(real)
	}
	for i, r := range l.rows {
		if r.claims(p, l.in.Deployer) {
			return &job{path: p, source: l.sources[i]}, nil
		}
	}
	if d := l.in.Deployer; d != nil {
		return nil, fmt.Errorf("%s: no source renders it as %s does (%s)", given, d.Controller, d.File)
	}
	return nil, fmt.Errorf("%s: no source renders it", given)
}

// runJobs runs fn on every job, at most workers at a time. A job not
// started when ctx ends gets ctx's error.
func runJobs(ctx context.Context, jobs []*job, workers int, fn func(*job)) {
	parallel.For(len(jobs), workers, func(i int) {
		if err := ctx.Err(); err != nil {
			jobs[i].err = err
			return
		}
		fn(jobs[i])
	})
}

func firstError(jobs []*job) error {
	for _, j := range jobs {
		if j.err != nil {
			return j.err
		}
	}
	return nil
}

// secondLargest is the size of the second-largest build: what running
// builds side by side can save at most, with two cores.
func secondLargest(jobs []*job) int {
	first, second := 0, 0
	for _, j := range jobs {
		switch n := j.build.Size(); {
		case n > first:
			first, second = n, first
		case n > second:
			second = n
		}
	}
	return second
}
