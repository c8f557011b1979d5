package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// yamlSource reads plain manifests, as kubectl apply -f does: a YAML (or
// JSON) file, or the *.yaml, *.yml and *.json files of a directory, not
// its subdirectories.
type yamlSource struct {
	in *source.Input
}

// yamlBuild is a path already read: Prepare made its objects.
type yamlBuild []source.RawObject

func (b yamlBuild) Size() int { return 0 }

func (b yamlBuild) Run(context.Context) (source.Output, error) {
	return source.Output{Objects: source.ObjectsOf(b)}, nil
}

func (s *yamlSource) Prepare(ctx context.Context, p source.Path) (source.Build, error) {
	if !p.Dir {
		objs, err := s.file(p.Abs)
		return yamlBuild(objs), err
	}
	entries, err := s.in.Fs.Boundary.ReadDir(p.Abs)
	if err != nil {
		return nil, err
	}
	s.in.ReadDir(p.Real)
	var files []string
	for _, e := range entries {
		if !e.IsDir() && source.IsManifestName(e.Name()) {
			files = append(files, filepath.Join(p.Abs, e.Name()))
		}
	}
	// A directory of many files is read side by side, as many paths are.
	objs := make([][]source.RawObject, len(files))
	errs := make([]error, len(files))
	parallel.For(len(files), runtime.GOMAXPROCS(0), func(i int) {
		if errs[i] = ctx.Err(); errs[i] == nil {
			objs[i], errs[i] = s.file(files[i])
		}
	})
	var out yamlBuild
	for i := range files {
		if errs[i] != nil {
			return nil, errs[i]
		}
		out = append(out, objs[i]...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no kustomization and no objects in *.yaml, *.yml or *.json files (subdirectories are not read)", s.in.Rel(p.Abs))
	}
	return out, nil
}

// file reads one manifest file.
func (s *yamlSource) file(abs string) ([]source.RawObject, error) {
	fs := s.in.Fs
	real, err := fs.Resolve(abs)
	if err != nil {
		return nil, err
	}
	display := fs.Boundary.Rel(abs)
	s.in.ReadFile(real)
	data, err := fs.ReadBounded(abs)
	if err != nil {
		return nil, err
	}
	return source.ParseManifests(display, data)
}
