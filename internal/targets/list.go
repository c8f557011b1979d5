package targets

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/parallel"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
)

// SourceConfig is the source of a target the config lists; a discovered
// target's source is its controller (delivery.ControllerFlux, ...).
const SourceConfig = "config"

// SourceHelm is the source of a helm target the config lists: a chart
// `helm upgrade` releases.
const SourceHelm = delivery.ControllerHelm

// Target is one target of the repository, listed in the config or
// discovered from a deployer's own objects: what a run needs of it.
type Target struct {
	// Name, Paths (relative to the repository's top), FieldManager and
	// the cluster (Context, Kubeconfig).
	config.Target
	// Source is SourceConfig or the controller whose object made it.
	Source string
	// Object is the file of its GitOps object ("" for the config's).
	Object string
	// Deployer is the controller's object render renders it with.
	Deployer *delivery.Deployer
	// Apply is how its deployer applies: the config's `apply:`, else what
	// the deployer's object says (delivery.ApplyMethod).
	Apply delivery.ApplyMethod
	// HelmSet is the Helm the config sets for its charts (a target's or
	// discover entry's `helm: {version: ...}`); nil: its deployer's.
	HelmSet *delivery.HelmRender
	// atBase finds it in a base commit's tree (check.Target.BaseDeployer);
	// nil for the config's targets.
	atBase func(ctx context.Context, root string) (*delivery.Deployer, []string, error)
	// Reason is why it is not checked; "" when it is.
	Reason string
	// headFails says the Reason is a failure its controller would meet
	// too (a path it does not find, a chart version its source does not
	// have), not a choice (suspended, another repository) nor a render
	// this tool does not reproduce: with a base, Build asks whether the
	// pull request broke it.
	headFails bool
	// Notes say what the deployer's way of applying means for the
	// findings; they go into its report's notes.
	Notes []string
	// Inputs are files beyond what its render reads whose change affects
	// it: its object's file, its substitution sources'.
	Inputs []string
	// ValueDirs are where the repository's ConfigMaps and Secrets its
	// render may read values from are written: the discover directories.
	ValueDirs []string
	// NotTargets are the deployer's objects its render would apply that
	// are no targets of their own, each with why (gitops.NotTarget):
	// listed under it, counted with it.
	NotTargets []gitops.NotTarget
}

// Unit is the kind of unit the coverage line counts the target as.
func (t Target) Unit() string {
	if t.fromConfig() {
		return report.UnitConfig
	}
	if t.Deployer != nil {
		switch kind, _ := t.Deployer.Object["kind"].(string); kind {
		case report.UnitKustomization, report.UnitHelmRelease, report.UnitApplication:
			return kind
		}
	}
	// Without its object (an ApplicationSet it could not expand), its
	// source and name say.
	switch {
	case t.Source == delivery.ControllerArgoCD:
		return report.UnitApplication
	case t.Source == delivery.ControllerFlux && strings.Contains(t.Name, "HelmRelease/"):
		return report.UnitHelmRelease
	case t.Source == delivery.ControllerFlux:
		return report.UnitKustomization
	}
	return report.UnitTarget
}

// ReportNotTargets are its NotTargets as the coverage line counts them.
func (t Target) ReportNotTargets() []report.NotTarget {
	if len(t.NotTargets) == 0 {
		return nil
	}
	out := make([]report.NotTarget, len(t.NotTargets))
	for i, n := range t.NotTargets {
		out[i] = report.NotTarget{Unit: n.Kind, Name: n.Name, File: n.File, Reason: n.Reason}
	}
	return out
}

// Checked says whether the target is rendered and checked.
func (t Target) Checked() bool { return t.Reason == "" }

// DiscoverFunc finds the targets of the config's discover entries: the
// signature of gitops.Discover.
type DiscoverFunc func(context.Context, gitops.Repository, []config.Discover) ([]gitops.Target, error)

// discover is gitops.Discover but in tests (UseDiscovery).
var discover DiscoverFunc = gitops.Discover

// UseDiscovery replaces discovery until restore is called: for tests of
// the packages that run targets (targets, command, cli, action) with
// targets built by hand, whatever gitops finds.
func UseDiscovery(f DiscoverFunc) (restore func()) {
	old := discover
	discover = f
	return func() { discover = old }
}

// List is the repository's targets: the config's (source "config"), then
// those discovered from the deployer's objects under its discover
// entries, sorted by name. A discovered target with the name of another
// is an error naming both: they would share a snapshot folder and a
// comment section. Only the repository's own charts are located: a target
// whose chart is remote is not checked (ListLocated fetches them).
func List(ctx context.Context, cfg *config.Config) ([]Target, error) {
	return ListLocated(ctx, cfg, nil)
}

// ListLocated is List with the run's chart locator: a discovered
// app-of-apps' render and each target's charts are located through it,
// and a target whose chart it cannot give (a host that does not answer,
// a version that does not exist) is not checked, with its reason.
func ListLocated(ctx context.Context, cfg *config.Config, charts delivery.ChartLocator) ([]Target, error) {
	return listLocated(ctx, cfg, charts, "")
}

// ListOne is the target of the repository named name, as ListLocated
// finds it, and any other of that name (a clash ListLocated would name),
// or none: discovery renders only the chain of objects that leads to it
// (gitops.Repository.Want), and the whole repository only when that
// finds nothing of the name.
func ListOne(ctx context.Context, cfg *config.Config, charts delivery.ChartLocator, name string) ([]Target, error) {
	if len(cfg.Discover) > 0 {
		if ts, err := listLocated(ctx, cfg, charts, name); err != nil || len(ts) > 0 {
			return ts, err
		}
	}
	all, err := listLocated(ctx, cfg, charts, "")
	if err != nil {
		return nil, err
	}
	var out []Target
	for _, t := range all {
		if t.Name == name {
			out = append(out, t)
		}
	}
	return out, nil
}

// listLocated is ListLocated; with want, only the targets named so (all
// of the config's and the discovered that are), discovered along the
// chain that leads to them.
func listLocated(ctx context.Context, cfg *config.Config, charts delivery.ChartLocator, want string) ([]Target, error) {
	out := make([]Target, 0, len(cfg.Targets))
	for _, t := range cfg.Targets {
		if t.IsHelm() {
			out = append(out, helmTarget(cfg, t))
			continue
		}
		out = append(out, Target{Target: t, Source: SourceConfig, Apply: t.ApplyOf(), HelmSet: t.HelmOf()})
	}
	if len(cfg.Discover) > 0 {
		top, err := repository(ctx)
		if err != nil {
			return nil, err
		}
		urls := urlsOf(ctx, top, cfg)
		// An app-of-apps whose path is a kustomization or a chart makes
		// its Applications through its controller's render.
		parents := parentRenderer(cfg, charts)
		pinned := &pins{top: top}
		found, err := discoverAt(ctx, gitops.Repository{Root: top, URLs: urls, RenderParent: parents, Want: want}, cfg.Discover, pinned)
		if err != nil {
			return nil, fmt.Errorf("discovering targets: %w", err)
		}
		if want != "" {
			found = slices.DeleteFunc(found, func(g gitops.Target) bool { return g.Name != want })
		}
		atBase := &baseDiscovery{urls: urls, entries: cfg.Discover, parents: parents, pins: pinned}
		for _, g := range found {
			if g.Checked() {
				g.Reason = pinned.resolve(ctx, g.Deployer)
			}
			g.Notes = append(g.Notes, revisionNotes(g.Deployer)...)
			out = append(out, Target{
				Target: config.Target{Name: g.Name, Paths: g.Paths, FieldManager: g.FieldManager, Context: g.Context},
				Source: g.Source, Object: g.Object, Deployer: g.Deployer, Apply: g.Apply, HelmSet: g.HelmSet, Reason: g.Reason, Notes: g.Notes, Inputs: g.Inputs,
				NotTargets: g.NotTargets,
				headFails:  g.Deployer != nil && pathMissing(g.Reason),
				// Only its own entry's directory: another cluster's objects
				// of the same name are not what its controller reads.
				ValueDirs: []string{g.Dir},
				atBase:    atBase.of(g.Name),
			})
		}
	}
	if want != "" {
		out = slices.DeleteFunc(out, func(t Target) bool { return t.Name != want })
	}
	if err := chartsNotRendered(ctx, out, charts); err != nil {
		return nil, err
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	byName := make(map[string]Target, len(out))
	// Every clash, in name order: a run that stops names all there are.
	var clashes []string
	for i, t := range out {
		if i > 0 && out[i-1].Name == t.Name {
			a := out[i-1]
			clashes = append(clashes, fmt.Sprintf("target %s: %s and %s both name it, and would share a snapshot folder and a comment section: rename one", a.Name, a.origin(), t.origin()))
		}
		byName[t.Name] = t
	}
	if len(clashes) > 0 {
		return nil, errors.New(strings.Join(clashes, "; "))
	}
	// A namespace/name target's folder is inside its namespace's (and a
	// cluster/namespace/name one's inside both): a target named as one of
	// them would hold it in its own folder.
	for _, t := range out {
		for i := range len(t.Name) {
			if t.Name[i] != '/' {
				continue
			}
			if o, clash := byName[t.Name[:i]]; clash {
				return nil, fmt.Errorf("target %s (%s) and target %s (%s): a namespace/name target's snapshot folder is inside its namespace's, which the other names: rename one", o.Name, o.origin(), t.Name, t.origin())
			}
		}
	}
	return out, nil
}

// pathMissing tells whether discovery's reason is a path of the
// controller's object that is not in the repository (gitops' repoPath):
// the controller fails on it as the render would.
func pathMissing(reason string) bool {
	return strings.HasPrefix(reason, "path ") && strings.HasSuffix(reason, ": not in the repository")
}

// chartMissing tells whether the chart locator's reason is a chart or
// version its source does not have (charts' words for a 404, or no
// version or tag that matches): the controller fails on it too. A host
// that does not answer, refused credentials or an offline cache are this
// run's, and never make a pull request's failure.
func chartMissing(reason string) bool {
	for _, words := range []string{"no version matches ", "no tag matches ", "no such chart, version or repository"} {
		if strings.Contains(reason, words) {
			return true
		}
	}
	return false
}

// chartsNotRendered gives a target whose charts the locator does not
// render its reason, as a render of it would say: the listing names what
// is not checked without rendering anything. The targets are located as
// many at once as a run checks: a fetching locator waits on the network,
// and fetches a chart many releases share once.
func chartsNotRendered(ctx context.Context, ts []Target, charts delivery.ChartLocator) error {
	errs := make([]error, len(ts))
	parallel.For(len(ts), workers, func(i int) {
		t := ts[i]
		if t.Reason != "" || t.Deployer == nil {
			return
		}
		reason, err := render.ChartsNotRendered(ctx, charts, t.Deployer.Charts)
		if err != nil {
			errs[i] = fmt.Errorf("target %s: %w", t.Name, err)
			return
		}
		ts[i].Reason, ts[i].headFails = reason, chartMissing(reason)
	})
	return errors.Join(errs...)
}

// helmTarget is a config's helm target: its chart's directory is its
// path, rendered as `helm upgrade` renders it (render's helm row), with
// Helm 4's field manager unless the config names one. Its inputs are what
// its render reads: the chart's files and the values files.
func helmTarget(cfg *config.Config, t config.Target) Target {
	h := *t.Helm
	obj := map[string]any{"chart": h.Chart, "release": h.Release}
	if h.Namespace != "" {
		obj["namespace"] = h.Namespace
	}
	if len(h.Values) > 0 {
		vals := make([]any, len(h.Values))
		for i, v := range h.Values {
			vals[i] = v
		}
		obj["values"] = vals
	}
	file := cfg.File
	if file == "" {
		file = config.DefaultFile
	}
	chart := h.ChartRef()
	out := Target{Target: t, Source: SourceHelm, Deployer: &delivery.Deployer{Controller: delivery.ControllerHelm, Object: obj, File: file, Charts: []delivery.ChartRef{chart}}, Apply: t.ApplyOf(), HelmSet: t.HelmOf()}
	if out.FieldManager == "" {
		out.FieldManager = config.DefaultHelmFieldManager
	}
	// A chart fetched from a repository or a registry is no directory
	// here: the config's file, which names it, is the path render's helm
	// row renders it for.
	out.Paths = []string{file}
	if chart.InRepository() {
		out.Paths = []string{h.Chart}
	}
	for _, v := range h.Values {
		if config.IsURL(v) && out.Reason == "" {
			out.Reason = fmt.Sprintf("values file %s is remote: it is never fetched", v)
		}
	}
	return out
}

// fromConfig says whether the repository config lists the target.
func (t Target) fromConfig() bool {
	return t.Source == SourceConfig || t.Source == SourceHelm && t.Object == ""
}

// origin says where a target comes from, for errors.
func (t Target) origin() string {
	if t.fromConfig() {
		return "the repository config's targets"
	}
	return fmt.Sprintf("the %s object in %s", t.Source, t.Object)
}

// urlsOf are the URLs that name this repository: origin's (none is fine:
// a checkout without a remote has only the config's) and the config's
// repositories.
func urlsOf(ctx context.Context, top string, cfg *config.Config) []string {
	var urls []string
	if u, err := gitexec.RemoteURL(ctx, top, "origin"); err == nil && u != "" {
		urls = append(urls, u)
	}
	return append(urls, cfg.Repositories...)
}

// baseDiscovery discovers the targets of a base commit's tree once per
// tree, for every target of a run that renders the base there: the base
// renders each discovered target as its own object says.
type baseDiscovery struct {
	urls    []string
	entries []config.Discover
	parents gitops.ParentRenderer
	// pins resolve the base's targets' revisions as the head's are.
	pins  *pins
	found parallel.Keyed[string, map[string]gitops.Target]
}

// of is target name's BaseDeployer.
func (b *baseDiscovery) of(name string) func(ctx context.Context, root string) (*delivery.Deployer, []string, error) {
	return func(ctx context.Context, root string) (*delivery.Deployer, []string, error) {
		found, err := b.found.Get(ctx, root, func(ctx context.Context) (map[string]gitops.Target, error) {
			ts, err := discoverAt(ctx, gitops.Repository{Root: root, URLs: b.urls, RenderParent: b.parents}, b.entries, b.pins)
			byName := make(map[string]gitops.Target, len(ts))
			for _, t := range ts {
				if t.Checked() {
					t.Reason = b.pins.resolve(ctx, t.Deployer)
				}
				byName[t.Name] = t
			}
			return byName, err
		})
		if err != nil {
			return nil, nil, fmt.Errorf("discovering the base's targets: %w", err)
		}
		t, ok := found[name]
		switch {
		case !ok:
			// Not a target of the base: everything the head renders is
			// the pull request's.
			return nil, nil, nil
		case !t.Checked():
			// One the base lists but does not check: nothing renders
			// there, for its reason, which a head that is not checked
			// either is judged by.
			return nil, nil, &render.TargetNotChecked{Object: t.Object, Reason: t.Reason}
		}
		return t.Deployer, t.Paths, nil
	}
}

// Cluster names the target's cluster as the listing and reports do: its
// kubeconfig context, else its kubeconfig file; "" for the run's.
func (t Target) Cluster() string {
	if t.Context != "" {
		return t.Context
	}
	return t.Kubeconfig
}
