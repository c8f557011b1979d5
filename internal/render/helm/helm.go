package helm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// Release is one release of a chart as its deployer renders it: the
// config's helm target, a Flux HelmRelease, an Argo CD Helm source or
// kustomize's helmCharts. Each deployer's source resolves its own form
// (its values layered as that deployer layers them) into a Release;
// renderChart makes the objects the deployer would apply, with Helm's own
// chart loader and template engine, so that every form renders alike.
type Release struct {
	// Chart is the chart: a directory of the repository, resolved (as
	// Path.Real), or one a locator fetched, loaded.
	Chart source.Chart
	// Name and Namespace are the release's: a namespaced object the chart
	// leaves without a namespace lands in Namespace.
	Name, Namespace string
	// Values are what the deployer passes, already layered; the chart's
	// own values.yaml is not among them (the engine coalesces it).
	Values map[string]any
	// ChartValues, when not nil, replace the chart's own values.yaml as
	// its defaults (Flux's spec.chart.spec.valuesFiles: source-controller
	// packages the chart with their merge as its values.yaml).
	ChartValues map[string]any
	// Cluster says how .Capabilities and lookup answer for this deployer.
	Cluster Cluster
	// Source is the file that asks for the release, as users see it:
	// each object's Source, and the first word of errors.
	Source string
	// File is the repository's file that asks for the release, as users
	// see it, when Source is more than a file (kustomize's "…: helmCharts[0]
	// (name)"): the Source of a fetched chart's objects, whose templates
	// are not files of the repository. "": Source.
	File string
	// Labels and Annotations are what the deployer adds to every object
	// beyond Helm's own (Flux's helm-controller labels, for one).
	Labels, Annotations map[string]string
	// PostRender, when set, is the deployer's post-renderer (Flux's
	// spec.postRenderers): it runs on the release's manifests (not crds/,
	// not hooks) as Helm runs one, before Labels, Annotations and Helm's
	// own metadata are added.
	PostRender func([]model.Object) ([]model.Object, error)

	// Install renders the release's first install (.Release.IsInstall,
	// revision 1) rather than an upgrade of a deployed one. Only
	// ClusterLive upgrades: `helm template` (Argo CD, kustomize)
	// always renders an install.
	Install bool
	// Template, when set, is `helm template`'s output as kustomize's
	// helmCharts takes it: hooks (and test hooks) are objects like the
	// others unless skipped, crds/ only when included, no namespace and no
	// Helm metadata added. nil: the deployer installs or upgrades the
	// release (see renderChart).
	Template *Template
	// SkipCRDs leaves crds/ out (Argo CD's skipCrds, Flux's install.crds
	// Skip).
	SkipCRDs bool
	// CRDsUpgraded: the deployer applies crds/ at every upgrade too
	// (Flux's upgrade.crds CreateReplace), so they carry no note. Helm
	// itself installs them only when absent.
	CRDsUpgraded bool
	// APIVersions and KubeVersion are what the deployer passes to
	// `helm template --api-versions/--kube-version` beyond the cluster's
	// (kustomize's helmCharts apiVersions and kubeVersion, Argo CD's
	// source.helm.apiVersions and kubeVersion); KubeVersion replaces the
	// cluster's.
	APIVersions []string
	KubeVersion string
}

// Template is how `helm template` was asked to print a release.
type Template struct {
	IncludeCRDs, SkipHooks, SkipTests bool
}

// Cluster is how a deployer's render sees the cluster.
type Cluster int

const (
	// ClusterLive: `helm upgrade` and Flux; .Capabilities from the
	// cluster's discovery, lookup reads the live objects.
	ClusterLive Cluster = iota
	// ClusterArgoCD: Argo CD's repo server; Helm's built-in API
	// versions plus the cluster's, lookup finds nothing.
	ClusterArgoCD
	// ClusterNone: `helm template` (kustomize's helmCharts); Helm's
	// defaults, no cluster.
	ClusterNone
)

// Annotations and label Helm sets on every object it installs or upgrades
// (Helm's action.setMetadataVisitor), which tell Helm the object is the
// release's.
const (
	helmManagedByLabel        = "app.kubernetes.io/managed-by"
	helmReleaseNameAnnotation = "meta.helm.sh/release-name"
	helmReleaseNSAnnotation   = "meta.helm.sh/release-namespace"
)

// CRDNote is on every object of a chart's crds/ its deployer installs
// (Helm, Flux): Helm creates a CRD from crds/ only when it does not exist
// and never changes it afterwards, so what the chart changes in it is
// never applied.
const CRDNote = "helm crds/: installed only when absent, never upgraded: a change to it is not applied by the release"

// RenderChart renders r as its deployer does. A deploy (Template nil),
// as Helm's upgrade: test hooks left out, other hooks listed as run and
// not applied (NotRendered), crds/ among the objects with a note (Helm:
// installed only when absent) unless SkipCRDs, namespaced objects
// without a namespace in the release's, and for ClusterLive Helm's
// release label and annotations added. A template (kustomize's
// helmCharts): what `helm template` prints. A dependency Chart.yaml
// lists that is not vendored is located as `helm dependency build` finds
// it (attachDependencies), and one that cannot be is NotRendered, with
// the reason; so is a chart whose values schema names a schema that
// cannot be read (validateValues). The chart released is recorded
// (Input.Pins).
func RenderChart(ctx context.Context, in *source.Input, r Release) (source.Output, error) {
	name := chartName(in, r.Chart)
	notRendered := func(reason string) source.Output {
		return source.Output{NotRendered: []source.NotRendered{{Source: r.Source, Reason: fmt.Sprintf("chart %s: %s", name, reason)}}}
	}
	e := EngineOf(in)
	budget := r.Chart.Budget
	if budget == nil {
		budget = source.NewChartBudget(e)
	}
	var c Chart
	if r.Chart.Loaded != nil {
		var ok bool
		if c, ok = r.Chart.Loaded.(Chart); !ok {
			return source.Output{}, fmt.Errorf("%s: chart %s: loaded as %T, not by the render's Helm engine", r.Source, name, r.Chart.Loaded)
		}
	} else {
		var err error
		if c, err = loadChart(in, e, r.Chart.Dir, budget); err != nil {
			if _, ok := source.AsBound(err); ok {
				return notRendered(err.Error()), nil
			}
			return source.Output{}, fmt.Errorf("%s: %w", r.Source, err)
		}
	}
	if r.ChartValues != nil {
		c.SetValues(r.ChartValues)
	}
	reason, err := attachDependencies(ctx, in, e, c, r.Chart, budget)
	if _, ok := source.AsBound(err); ok {
		reason, err = err.Error(), nil
	}
	if err != nil {
		return source.Output{}, fmt.Errorf("%s: chart %s: %w", r.Source, name, err)
	}
	if reason == "" {
		if missing := missingDependencies(c); len(missing) > 0 {
			reason = fmt.Sprintf("dependency %s not vendored under charts/ (run `helm dependency build` and commit it)", strings.Join(missing, ", "))
		}
	}
	if reason != "" {
		return notRendered(reason), nil
	}
	// Helm's engine takes no context: past the render's time bound, it
	// is not started.
	if err := ctx.Err(); err != nil {
		return source.Output{}, fmt.Errorf("%s: chart %s: %w", r.Source, name, err)
	}
	secrets := &model.Hidden{}
	files, err := renderTemplates(ctx, in, e, c, r, secrets)
	var refused *schemaRefusal
	if errors.As(err, &refused) {
		return source.Output{NotRendered: []source.NotRendered{{Source: r.Source, Reason: fmt.Sprintf("chart %s: %s", name, refused)}}}, nil
	}
	if err != nil {
		if secrets.Len() > 0 {
			// A template's failure may quote what lookup read.
			err = errors.New(secrets.HideIn(err.Error()))
		}
		return source.Output{}, fmt.Errorf("%s: chart %s: %w", r.Source, name, err)
	}
	if n := renderedBytes(files); n > source.MaxRenderedBytes {
		return notRendered(source.OverRendered(n).Bound), nil
	}
	hooks, manifests, err := e.Sort(files)
	if err != nil {
		return source.Output{}, fmt.Errorf("%s: chart %s: %w", r.Source, name, err)
	}
	if n := len(hooks) + len(manifests); n > source.MaxObjects {
		return source.Output{}, fmt.Errorf("%s: chart %s: renders %d documents, more than the limit of %d", r.Source, name, n, source.MaxObjects)
	}
	in.Pins.Add(chartPin(c, r.Chart))
	var crdFiles []File
	if !r.SkipCRDs && (r.Template == nil || r.Template.IncludeCRDs) {
		crdFiles = c.CRDs()
	}
	if r.Template != nil || r.Cluster == ClusterArgoCD {
		trimPrinted(crdFiles, manifests)
	}
	var out source.Output
	add := func(file, content string, notes ...string) error {
		// Helm writes each document with a line break after it, which a
		// block scalar that ends the document keeps.
		objs, err := source.ParseManifests(file, []byte(content+"\n"))
		if err != nil {
			return err
		}
		for _, o := range objs {
			// The line is in the rendered template, not the file.
			o.Line = 0
			o.Notes = append(o.Notes, notes...)
			out.Objects = append(out.Objects, o.Object())
		}
		return nil
	}
	if len(crdFiles) > 0 {
		var note []string
		if r.Template == nil && r.Cluster == ClusterLive && !r.CRDsUpgraded {
			note = []string{CRDNote}
		}
		for _, crd := range crdFiles {
			if err := add(chartFile(in, r, crd.Name), string(crd.Data), note...); err != nil {
				return source.Output{}, err
			}
		}
	}
	crds := len(out.Objects)
	for _, m := range manifests {
		if err := add(chartFile(in, r, m.Name), m.Content); err != nil {
			return source.Output{}, err
		}
	}
	if r.PostRender != nil && len(out.Objects) > crds {
		objs, err := r.PostRender(out.Objects[crds:])
		if err != nil {
			return source.Output{}, fmt.Errorf("%s: post-render: %w", r.Source, err)
		}
		out.Objects = append(out.Objects[:crds:crds], objs...)
	}
	for _, h := range hooks {
		test := IsTestHook(h.Events)
		switch {
		case r.Template != nil && (r.Template.SkipHooks || test && r.Template.SkipTests):
		case r.Template != nil:
			if err := add(chartFile(in, r, h.Path), h.Manifest); err != nil {
				return source.Output{}, err
			}
		case !test:
			out.NotRendered = append(out.NotRendered, source.NotRendered{
				Source: chartFile(in, r, h.Path),
				Reason: fmt.Sprintf("helm hook %s %s (%s): the deployer runs it around the release, it is not applied", h.Kind, h.Name, hookEvents(h.Events)),
			})
		}
	}
	if r.Template == nil {
		for i := range out.Objects {
			decorateChartObject(in, out.Objects[i], r, i < crds)
		}
	}
	if secrets.Len() > 0 {
		for i := range out.Objects {
			out.Objects[i].HiddenValues = model.Union(out.Objects[i].HiddenValues, secrets)
		}
	}
	return out, nil
}

// trimPrinted is what `helm template` prints of the release's manifest
// (crds/ first, then the manifests, hooks after them): it trims the end
// of it, so the last document printed loses its trailing whitespace, which
// the install keeps (Helm 4.2 and later keep it in the documents; a
// deployer that reads the printed output, Argo CD and kustomize's
// helmCharts, sees it trimmed).
func trimPrinted(crds []File, manifests []Manifest) {
	switch {
	case len(manifests) > 0:
		m := &manifests[len(manifests)-1]
		m.Content = strings.TrimRightFunc(m.Content, unicode.IsSpace)
	case len(crds) > 0:
		f := &crds[len(crds)-1]
		f.Data = bytes.TrimRightFunc(f.Data, unicode.IsSpace)
	}
}

// renderTemplates runs the engine on c with r's values, release and
// capabilities: what Helm's install or upgrade renders.
func renderTemplates(ctx context.Context, in *source.Input, e Engine, c Chart, r Release, secrets *model.Hidden) (map[string]string, error) {
	// An upgrade is what a check predicts: the release is deployed, and
	// the pull request changes it. Helm's upgrade gives the next revision,
	// which only the release's history (a Secret) knows: 2 stands for it.
	opts := ReleaseOptions{Name: r.Name, Namespace: r.Namespace, Revision: 1, IsInstall: true}
	if r.Cluster == ClusterLive && r.Template == nil && !r.Install {
		opts = ReleaseOptions{Name: r.Name, Namespace: r.Namespace, Revision: 2, IsUpgrade: true}
	}
	files, err := e.Render(c, Request{
		Values:       r.Values,
		Release:      opts,
		Capabilities: func() (Capabilities, error) { return capabilities(ctx, in, r, secrets) },
		// Helm's own validation would read a schema's $refs itself, from
		// any file of the runner and any address: validateValues reads
		// them only from the chart and through the chart locator.
		Validate: func(values map[string]any) error { return validateValues(ctx, in, c, values) },
	})
	if err != nil {
		return nil, err
	}
	// NOTES.txt is printed to the user, never applied.
	for k := range files {
		if strings.HasSuffix(k, "NOTES.txt") {
			delete(files, k)
		}
	}
	return files, nil
}

// renderedBytes is what Helm's engine printed, before anything parses it
// (a document parsed takes many times its bytes).
func renderedBytes(files map[string]string) int64 {
	n := int64(0)
	for _, f := range files {
		n += int64(len(f))
	}
	return n
}

// decorateChartObject is what the deployer does to each object of the
// release before applying it: the release's namespace where the chart set
// none (render drops it again from cluster-scoped kinds), Helm's release
// label and annotations (not on crds/, which Helm creates apart), and the
// deployer's own.
func decorateChartObject(in *source.Input, o model.Object, r Release, crd bool) {
	u := o.Object
	if u.GetNamespace() == "" && r.Namespace != "" {
		u.SetNamespace(r.Namespace)
	}
	labels, annotations := map[string]string{}, map[string]string{}
	if r.Cluster == ClusterLive && !crd {
		labels[helmManagedByLabel] = "Helm"
		annotations[helmReleaseNameAnnotation] = r.Name
		annotations[helmReleaseNSAnnotation] = r.Namespace
	}
	for k, v := range r.Labels {
		labels[k] = v
	}
	for k, v := range r.Annotations {
		annotations[k] = v
	}
	if len(labels) > 0 {
		u.SetLabels(mergeStrings(u.GetLabels(), labels))
	}
	if len(annotations) > 0 {
		u.SetAnnotations(mergeStrings(u.GetAnnotations(), annotations))
	}
}

// mergeStrings is current with desired over it.
func mergeStrings(current, desired map[string]string) map[string]string {
	out := make(map[string]string, len(current)+len(desired))
	for k, v := range current {
		out[k] = v
	}
	for k, v := range desired {
		out[k] = v
	}
	return out
}

// IsTestHook: Helm runs a test hook only on `helm test`, never at an
// install or upgrade.
func IsTestHook[E ~string](events []E) bool {
	for _, e := range events {
		if e == "test" {
			return true
		}
	}
	return false
}

func hookEvents[E ~string](events []E) string {
	s := make([]string, len(events))
	for i, e := range events {
		s[i] = string(e)
	}
	return strings.Join(s, ", ")
}
