package render

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// loader reads the paths of one Render, of any of the three forms. The
// work is split into jobs (a kustomization to build, a manifest file to
// read) that run side by side; the objects come out in the same order
// whatever order the jobs finish in, and so does the error reported.
type loader struct {
	fs        *guardFS
	kustomize *kustomizer
}

// job is one unit of rendering that can run beside the others.
type job struct {
	kustomization string // resolved directory to build; "" for a file
	file          string // absolute path of a manifest file

	build *preparedBuild
	objs  []rawObject
	err   error
}

// pathJobs are the jobs of one path given on the command line.
type pathJobs struct {
	// dir is set for a directory of manifest files, which must yield
	// objects.
	dir  string
	jobs []*job
}

func (l *loader) loadAll(ctx context.Context, paths []string) ([]rawObject, error) {
	var plans []pathJobs
	var all []*job
	for _, p := range paths {
		pj, err := l.plan(p)
		if err != nil {
			return nil, err
		}
		plans = append(plans, pj)
		all = append(all, pj.jobs...)
	}
	// Files are read and kustomizations scanned side by side.
	runJobs(ctx, all, runtime.GOMAXPROCS(0), func(j *job) {
		if j.kustomization != "" {
			j.build, j.err = l.kustomize.prepare(j.kustomization)
			return
		}
		j.objs, j.err = l.file(j.file)
	})
	if err := firstError(all); err != nil {
		return nil, err
	}
	builds := slices.DeleteFunc(slices.Clone(all), func(j *job) bool { return j.build == nil })
	workers := 1
	if len(builds) > 1 && secondLargest(builds) >= primeCostObjects {
		primeKrusty()
		workers = runtime.GOMAXPROCS(0)
	}
	runJobs(ctx, builds, workers, func(j *job) { j.objs, j.err = l.kustomize.run(j.build) })
	if err := firstError(all); err != nil {
		return nil, err
	}
	var out []rawObject
	for _, pj := range plans {
		n := len(out)
		for _, j := range pj.jobs {
			out = append(out, j.objs...)
		}
		if pj.dir != "" && len(out) == n {
			return nil, fmt.Errorf("%s: no kustomization and no objects in *.yaml, *.yml or *.json files (subdirectories are not read)", l.fs.boundary.rel(pj.dir))
		}
	}
	return out, nil
}

// plan finds what a path is: a kustomization (its directory or its file),
// a manifest file, or a directory of manifest files.
func (l *loader) plan(p string) (pathJobs, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return pathJobs{}, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return pathJobs{}, fmt.Errorf("%s: %w", p, unwrapPathError(err))
	}
	info, err := os.Stat(real)
	if err != nil {
		return pathJobs{}, fmt.Errorf("%s: %w", p, unwrapPathError(err))
	}
	if !info.IsDir() {
		if isKustomizationName(filepath.Base(abs)) {
			return pathJobs{jobs: []*job{{kustomization: filepath.Dir(real)}}}, nil
		}
		return pathJobs{jobs: []*job{{file: abs}}}, nil
	}
	if kustomizationFile(real) != "" {
		return pathJobs{jobs: []*job{{kustomization: real}}}, nil
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return pathJobs{}, err
	}
	l.fs.reads.dir(real)
	pj := pathJobs{dir: abs}
	for _, e := range entries {
		if !e.IsDir() && isManifestName(e.Name()) {
			pj.jobs = append(pj.jobs, &job{file: filepath.Join(abs, e.Name())})
		}
	}
	return pj, nil
}

// file reads a plain manifest file (not through kustomize).
func (l *loader) file(abs string) ([]rawObject, error) {
	real, err := l.fs.resolve(abs)
	if err != nil {
		return nil, err
	}
	display := l.fs.boundary.rel(abs)
	l.fs.reads.file(real)
	data, err := readBounded(real, display)
	if err != nil {
		return nil, err
	}
	return parseManifests(display, data)
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
func secondLargest(builds []*job) int {
	first, second := 0, 0
	for _, j := range builds {
		switch n := j.build.objects; {
		case n > first:
			first, second = n, first
		case n > second:
			second = n
		}
	}
	return second
}
