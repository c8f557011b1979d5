package flux

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// prepareHelmRelease is fluxSource's Prepare for a HelmRelease: its chart
// (the target's path; for a chart fetched from a HelmRepository, an
// OCIRepository or a HelmChart, the path is the HelmRelease's file)
// released as helm-controller releases it
// (resolveFluxHelmRelease), rendered by the one chart engine.
func (s *fluxSource) prepareHelmRelease(ctx context.Context, p source.Path) (source.Build, error) {
	d := s.in.Deployer
	where := s.in.Rel(s.in.RepositoryPath(d.File))
	// A change to the HelmRelease changes the render.
	s.in.ReadRepositoryFile(d.File)
	chart, reason, err := s.in.DeployerChart(ctx, p)
	if err != nil {
		return nil, err
	}
	if reason != "" {
		return source.NotRenderedBuild{{Source: where, Reason: reason}}, nil
	}
	readSource := s.readSourceFile
	if chart.Fetched() {
		// The path is the HelmRelease's file: the chart is no directory
		// here, and its valuesFiles are files of its archive.
		readSource = func(rel string) ([]byte, error) {
			if data, ok := chart.File(rel); ok {
				return data, nil
			}
			return nil, fs.ErrNotExist
		}
	} else if !p.Dir {
		return nil, fmt.Errorf("%s: the chart of %s must be a directory", p.Given, where)
	}
	r, err := resolveHelmRelease(ctx, d.Object, helmInputs{Chart: chart, ReadSource: readSource, Values: valuesFor(d, s.in.Values), StandIns: s.in.StandIns, Helm: helm.EngineOf(s.in)})
	for _, f := range r.files {
		s.in.ReadRepositoryFile(f)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if r.Reason != "" {
		return source.NotRenderedBuild{{Source: where, Reason: r.Reason}}, nil
	}
	r.Release.Source = where
	return &releaseBuild{ChartBuild: helm.ChartBuild{In: s.in, R: r.Release}, hidden: r.Hidden}, nil
}

// readSourceFile reads a file of the HelmRelease's GitRepository (this
// repository) by its path there, kept inside it as source-controller's
// secure join keeps it.
func (s *fluxSource) readSourceFile(rel string) ([]byte, error) {
	clean := strings.TrimPrefix(path.Clean("/"+filepath.ToSlash(rel)), "/")
	p := s.in.RepositoryPath(clean)
	data, err := s.in.Fs.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		// Absent (and ignored), it is still what the render depends on:
		// adding it changes the release.
		s.in.ReadFile(p)
	}
	return data, err
}

// releaseBuild is a release resolved from a deployer's object, rendered by
// renderChart when the build runs, with the values it took from Secrets.
type releaseBuild struct {
	helm.ChartBuild
	// hidden are values the release took from Secrets: every object
	// carries them, to be hidden wherever they land.
	hidden *model.Hidden
}

func (b *releaseBuild) Run(ctx context.Context) (source.Output, error) {
	out, err := b.ChartBuild.Run(ctx)
	if err != nil {
		return source.Output{}, err
	}
	if b.hidden.Len() > 0 {
		for i := range out.Objects {
			out.Objects[i].HiddenValues = model.Union(out.Objects[i].HiddenValues, b.hidden)
		}
	}
	return out, nil
}
