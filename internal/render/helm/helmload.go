package helm

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// helmIgnore is the file a chart lists what its loader leaves out in.
const helmIgnore = ".helmignore"

// loadChart reads the chart in dir (resolved) as Helm's loader.LoadDir
// does (.helmignore and its defaults, the byte order mark dropped,
// charts/ taken as vendored subcharts, folders or .tgz, links followed),
// but through the guarded file system: every file is read inside the
// boundary, bounded, and recorded, and so is every directory listed, so a
// change to any file of the chart affects the targets that render it. A
// directory link loop is an error naming the link (GuardFS.WalkLinks);
// every file and folder, and what each vendored archive holds, counts
// against b, the budget the chart shares with its dependencies.
func loadChart(in *source.Input, eng Engine, dir string, b *source.ChartBudget) (Chart, error) {
	var ignored []byte
	ifile := filepath.Join(dir, helmIgnore)
	if _, err := in.Fs.Boundary.Lstat(ifile); err == nil {
		if ignored, err = in.Fs.ReadIgnoreFile(ifile); err != nil {
			return nil, err
		}
		if ignored == nil {
			ignored = []byte{}
		}
	}
	rules, err := eng.Ignore(ignored)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Rel(ifile), err)
	}
	var files []File
	err = in.Fs.WalkLinks(dir, func(e source.LinkEntry) error {
		switch {
		case e.Rel == "":
			in.ReadDir(e.Real)
			return nil
		case rules.Ignore(e.Rel, e.Info) && e.Info.IsDir():
			return fs.SkipDir
		case rules.Ignore(e.Rel, e.Info):
			return nil
		case e.Info.IsDir():
			in.ReadDir(e.Real)
			return b.Take(0)
		}
		data, err := readChartFile(in, e.Real)
		if err != nil {
			return err
		}
		if err := b.TakeFile(e.Rel, data); err != nil {
			return err
		}
		files = append(files, File{Name: e.Rel, Data: bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})})
		return nil
	})
	if err != nil {
		return nil, err
	}
	c, err := eng.LoadFiles(files)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", in.Rel(dir), err)
	}
	return c, nil
}

// readChartFile reads a file of a chart (resolved), recorded: templates
// are not YAML until rendered, so only the size is checked here; what they
// render is parsed strictly.
func readChartFile(in *source.Input, real string) ([]byte, error) {
	in.ReadFile(real)
	return in.Fs.ReadBounded(real)
}

// missingDependencies names the dependencies Chart.yaml lists (of the
// chart and of its subcharts) that are not vendored under charts/: Helm
// would fetch them (`helm dependency build`), which a check never does.
func missingDependencies(c Chart) []string {
	var missing []string
	for _, d := range c.Dependencies() {
		found := false
		for _, sc := range c.Subcharts() {
			if sc.Name() == d.Name {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, d.Name)
		}
	}
	for _, sc := range c.Subcharts() {
		for _, m := range missingDependencies(sc) {
			missing = append(missing, sc.Name()+"/"+m)
		}
	}
	return missing
}

// errNotChart is a directory without Chart.yaml.
var errNotChart = errors.New("not a chart: no Chart.yaml")

// chartFile is where a rendered template is, as users see it: Helm names
// it from the chart's name down ("podinfo/templates/service.yaml",
// "app/charts/db/templates/x.yaml"), the file is below the chart's
// directory (a template of a .tgz subchart is named inside the archive).
// A fetched chart's templates are no file of the repository: its objects
// are the file's that asks for the release.
func chartFile(in *source.Input, r Release, name string) string {
	if r.Chart.Fetched() {
		return source.Or(r.File, r.Source)
	}
	_, rest, ok := strings.Cut(name, "/")
	if !ok {
		return in.Rel(r.Chart.Dir)
	}
	return in.Rel(filepath.Join(r.Chart.Dir, filepath.FromSlash(rest)))
}

// chartName names the chart in reasons and errors: its directory as users
// see it, or a fetched chart's pin ("podinfo 6.7.1@sha256:…").
func chartName(in *source.Input, c source.Chart) string {
	if c.Fetched() {
		return c.Pin.String()
	}
	return in.Rel(c.Dir)
}

// chartPin names the chart released: a fetched one as its locator pinned
// it, with the name and version its Chart.yaml gives; one of the
// repository by name and version alone.
func chartPin(c Chart, located source.Chart) delivery.ChartPin {
	pin := located.Pin
	pin.Name, pin.Version = c.Name(), c.Version()
	return pin
}
