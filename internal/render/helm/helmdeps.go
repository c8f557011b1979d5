package helm

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// attachDependencies is `helm dependency build` for the dependencies
// Chart.yaml lists that are not vendored under charts/: each is located
// by its repository and version (a range resolved by the locator, as
// Helm resolves it against the index or the registry's tags) and added
// as a subchart, as the archive Helm would have put under charts/.
// Vendored ones win; condition, tags, alias and import-values stay
// Helm's to apply when the release renders. One without a repository is
// left for missingDependencies to name. The reason says which dependency
// could not be located, and why. Each counts against b, the budget the
// chart shares with all its dependencies.
func attachDependencies(ctx context.Context, in *source.Input, e Engine, c Chart, located source.Chart, b *source.ChartBudget) (string, error) {
	for _, d := range c.Dependencies() {
		if d.Repository == "" || vendored(c, d.Name) {
			continue
		}
		sub, reason, err := locateDependency(ctx, in, e, d, located, b)
		if err != nil {
			return "", fmt.Errorf("dependency %s: %w", d.Name, err)
		}
		if reason != "" {
			return fmt.Sprintf("dependency %s: %s", d.Name, reason), nil
		}
		c.AddSubchart(sub)
	}
	return "", nil
}

// vendored: a subchart of that name is under charts/.
func vendored(c Chart, name string) bool {
	for _, sc := range c.Subcharts() {
		if sc.Name() == name {
			return true
		}
	}
	return false
}

// locateDependency is the chart a dependency names: a file:// directory
// relative to the chart's, inside the repository (a fetched chart has no
// directory to be relative to), or a chart of an https:// or oci://
// repository, asked of the locator. A repository named by `helm repo add`
// ("@name", "alias:name") is known only where that ran.
func locateDependency(ctx context.Context, in *source.Input, e Engine, d Dependency, located source.Chart, b *source.ChartBudget) (Chart, string, error) {
	repo := d.Repository
	switch {
	case strings.HasPrefix(repo, "@"), strings.HasPrefix(repo, "alias:"):
		return nil, fmt.Sprintf("repository %s is a name `helm repo add` gave on the machine that ran it: write its URL in Chart.yaml, or vendor the chart under charts/", repo), nil
	case strings.HasPrefix(repo, "file://"):
		if located.Fetched() {
			return nil, fmt.Sprintf("repository %s is a directory beside the chart, which its archive does not hold", repo), nil
		}
		dir, err := in.Fs.Resolve(filepath.Join(located.Dir, filepath.FromSlash(strings.TrimPrefix(repo, "file://"))))
		if err != nil {
			return nil, "", fmt.Errorf("repository %s: %w", repo, err)
		}
		sub, err := loadChart(in, e, dir, b)
		if err != nil {
			return nil, "", err
		}
		return sub, versionMismatch(e, sub, d.Version), nil
	case !strings.Contains(repo, "://"):
		return nil, fmt.Sprintf("repository %s is neither a URL nor file://", repo), nil
	}
	ch, reason, err := in.LocateChartWithin(ctx, delivery.ChartFromRepository(repo, d.Name, d.Version), b)
	if err != nil || reason != "" {
		return nil, reason, err
	}
	if ch.Fetched() {
		sub, ok := ch.Loaded.(Chart)
		if !ok {
			return nil, "", fmt.Errorf("loaded as %T, not by the render's Helm engine", ch.Loaded)
		}
		return sub, "", nil
	}
	sub, err := loadChart(in, e, ch.Dir, b)
	return sub, "", err
}

// versionMismatch is why a file:// dependency's chart is not the one
// Chart.yaml asks for, as `helm dependency build` refuses it: its
// version outside the range; "" when it is in it (or none is asked).
func versionMismatch(e Engine, c Chart, want string) string {
	if want == "" || e.InRange(want, c.Version()) {
		return ""
	}
	return fmt.Sprintf("its chart is version %s, not in %s", c.Version(), want)
}
