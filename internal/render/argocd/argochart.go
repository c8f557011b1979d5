package argocd

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// isApplicationFile: the path is the Application's own file, which stands
// for its sources that name a chart (chart: and repoURL) and have no path
// in the repository.
func (s *Source) isApplicationFile(p source.Path) bool {
	d := s.In.Deployer
	if d.File == "" {
		return false
	}
	real, err := s.In.Fs.Resolve(s.In.RepositoryPath(d.File))
	return err == nil && real == p.Real
}

// chartSources renders every source of the Application that names a chart
// of a Helm repository or a registry, in the order of its sources: each
// chart asked of the chart locator (as discovery named it, model's
// ChartFromRepository over repoURL, chart and targetRevision) and
// released as the repo server templates it, its values files from this
// repository through a `$ref` source or from the chart's own archive. The
// first that is not located makes the whole Application not rendered,
// as Argo CD syncs none of it then.
func (s *Source) chartSources(ctx context.Context, app *Application) (source.Build, error) {
	s.In.ReadRepositoryFile(s.In.Deployer.File)
	var builds chartBuilds
	for _, src := range app.Sources() {
		if src.Chart == "" {
			continue
		}
		chart, reason, err := s.In.LocateChart(ctx, delivery.ChartFromRepository(src.RepoURL, src.Chart, src.TargetRevision))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.where(), err)
		}
		if reason != "" {
			return s.notRendered(reason), nil
		}
		env := app.Env(src)
		inner, reason, err := s.helm(chart, app, src, env)
		if err != nil {
			return nil, err
		}
		if reason == "" && len(env.Unknown) > 0 {
			reason = fmt.Sprintf("source.helm uses $%s, which Argo CD sets only when it syncs a commit", strings.Join(env.Unknown, ", $"))
		}
		if reason != "" {
			return s.notRendered(reason), nil
		}
		builds = append(builds, &argoBuild{inner: inner, track: app.tracking(), where: s.where()})
	}
	if len(builds) == 0 {
		return nil, fmt.Errorf("%s: no source of Application %s names a chart (chart: and repoURL), and a file is no source's path", s.where(), app.Metadata.Name)
	}
	return builds, nil
}

// chartBuilds are the builds of an Application's chart sources, run in
// order, their outputs one after the other.
type chartBuilds []source.Build

func (b chartBuilds) Size() int {
	n := 0
	for _, c := range b {
		n += c.Size()
	}
	return n
}

func (b chartBuilds) Run(ctx context.Context) (source.Output, error) {
	var out source.Output
	for _, c := range b {
		o, err := c.Run(ctx)
		if err != nil {
			return source.Output{}, err
		}
		out.Objects = append(out.Objects, o.Objects...)
		out.NotRendered = append(out.NotRendered, o.NotRendered...)
	}
	return out, nil
}
