package render

import (
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"

	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Discovered is a render for discovery: the objects with their files
// relative to the repository's top, every file read (relative too), and
// what was not rendered, as "<source>: <reason>".
type Discovered struct {
	Objects     []model.Object // Source relative to the top, "" for none there
	Files       []string
	NotRendered []string
	// Encrypted are the Secrets left out as SOPS encrypted them, as
	// sources of values (keys, no value; File relative to the top): a
	// child may take values from one (delivery.Deployer.RenderedValues).
	Encrypted []model.ValuesSource
}

// ForDiscovery renders paths (relative to the repository's top root) as
// the deployer's controller renders them, with no cluster: what discovery
// needs of an app-of-apps whose path is a kustomization or a chart, to
// find the Applications it makes. charts locates a chart it names by
// reference (nil: the repository's own only). values reads what a Flux
// Kustomization substitutes (nil: nothing can be read). A Secret's value
// stands as its placeholder, as in a check's render, and the run's
// placeholders are the same in every render: a SOPS-encrypted Secret's
// keys, and a variable only a Secret discovery cannot read (the
// cluster's) may set, give the children their placeholders, marked on
// each object (FromSecret), and a child whose name or namespace is made
// from one is not rendered, with the Secret and key. A variable whose
// value cannot be read otherwise (a ConfigMap only in the cluster) is left
// in place, ${VAR}, for discovery needs paths, not values. No value of
// the cluster's reaches this render.
func ForDiscovery(ctx context.Context, cfg *config.Config, charts delivery.ChartLocator, values ValueReader, root string, paths []string, d *delivery.Deployer) (Discovered, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return Discovered{}, err
	}
	if real, err := repofs.RealPath(abs); err == nil {
		abs = real
	}
	full := make([]string, len(paths))
	for i, p := range paths {
		full[i] = filepath.Join(abs, filepath.FromSlash(p))
	}
	reads := source.NewReads()
	res, err := RenderAll(ctx, full, Options{Root: abs, Config: cfg, Deployer: d, Reads: reads, Charts: charts, Values: values, KeepUnresolved: true, StandInSecrets: true})
	if err != nil {
		return Discovered{}, err
	}
	var out Discovered
	out.Files, _, _ = reads.Relative(abs)
	wd, err := os.Getwd()
	if err != nil {
		return Discovered{}, err
	}
	relative := func(src string) string {
		if src != "" && !filepath.IsAbs(src) {
			src = filepath.Join(wd, src)
		}
		if src != "" {
			if r, err := filepath.Rel(abs, src); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
				return filepath.ToSlash(r)
			}
		}
		return ""
	}
	for _, o := range res.Objects {
		o.Source = relative(o.Source)
		out.Objects = append(out.Objects, o)
	}
	for _, n := range res.NotRendered {
		if n.Encrypted != nil {
			e := *n.Encrypted
			e.File = relative(e.File)
			out.Encrypted = append(out.Encrypted, e)
		}
	}
	for _, n := range res.NotRendered {
		// Named as the repository names it, not by where it is checked
		// out.
		src := n.Source
		if r, err := filepath.Rel(abs, src); filepath.IsAbs(src) && err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			src = filepath.ToSlash(r)
		}
		out.NotRendered = append(out.NotRendered, fmt.Sprintf("%s: %s", src, n.Reason))
	}
	return out, nil
}
