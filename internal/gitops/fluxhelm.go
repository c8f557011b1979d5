package gitops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// helmRelease lists a Flux HelmRelease, with where its chart comes from
// (Deployer.Charts): a path of a GitRepository that is this repository is
// its path; a chart from elsewhere (a HelmRepository, an OCIRepository or
// a HelmChart) has no path here, and the HelmRelease's own file is its
// path, which render's flux row claims for the release; whether that chart
// is rendered is render's chart locator's to say.
func (s *discovery) helmRelease(ctx context.Context, d document, e config.Discover, objs fluxObjects) (Target, error) {
	t, err := fluxTarget(d, e, fluxHelmManager)
	if err != nil {
		return t, err
	}
	var note string
	if t.Apply, note, err = helmReleaseApply(d); err != nil {
		return t, err
	}
	if note != "" {
		t.Notes = append(t.Notes, note)
	}
	ns, _ := namespaceOf(d)
	suspended, err := d.boolean("spec", "suspend")
	if err != nil {
		return t, err
	}
	chart, reason, err := s.helmChartRef(d, ns, objs)
	if err != nil {
		return t, err
	}
	var perr error
	if reason == "" && chart.InRepository() {
		// The chart's path is in its GitRepository, at the revision it
		// pins.
		tree := s.main()
		if gr, ok := objs.sources[fluxKey("GitRepository", chart.Source.Namespace, chart.Source.Name)]; ok {
			rev, err := fluxRevision(gr, namespacedName(chart.Source.Namespace, chart.Source.Name))
			if err != nil {
				return t, err
			}
			if tree, reason, err = s.treeOf(ctx, rev); err != nil {
				return t, err
			}
		}
		var p string
		if reason == "" {
			if p, perr = tree.repoPath(chart.Path); p != "" {
				t.Paths = []string{p}
				chart.Path = p
			}
		}
	}
	if reason == "" && !chart.InRepository() {
		t.Paths = []string{d.file}
		// Its own file is what it renders for: a pinned parent applies
		// the one of the revision it pins.
		if d.rev != nil {
			rev := *d.rev
			t.Deployer.Revision = &rev
		}
	}
	if reason == "" && perr == nil {
		t.Deployer.Charts = []delivery.ChartRef{chart}
	}
	// A values source changes the render: its file is an input whether or
	// not the target is checked, so that listing stays true.
	inputs, err := valueSourceFiles(d, objs, ns, "HelmRelease", "spec", "valuesFrom")
	if err != nil {
		return t, err
	}
	t.Inputs = append(t.Inputs, inputs...)
	// So does the chart's source object: a pull request that moves a
	// HelmRepository, an OCIRepository or a HelmChart moves every release
	// of it.
	if chart.Source != nil && !chart.InRepository() {
		files, err := chartSourceFiles(*chart.Source, objs)
		if err != nil {
			return t, err
		}
		for _, f := range files {
			if !slices.Contains(t.Inputs, f) {
				t.Inputs = append(t.Inputs, f)
			}
		}
	}
	kubeConfig, err := d.mapping("spec", "kubeConfig")
	if err != nil {
		return t, err
	}
	switch {
	case suspended:
		t.Reason = "suspended"
	case kubeConfig != nil:
		t.Reason = "spec.kubeConfig: helm-controller releases it to another cluster, not the discover entry's"
	case reason != "":
		t.Reason = reason
	case perr != nil:
		t.Reason = perr.Error()
	}
	if reason == "" && chart.InRepository() {
		if err := s.fluxArtifact(&t, namespacedName(chart.Source.Namespace, chart.Source.Name), objs); err != nil {
			return t, err
		}
	}
	return t, nil
}

// helmChartRef is where the HelmRelease's chart comes from, read once: a
// spec.chartRef's OCIRepository or HelmChart, or spec.chart.spec's chart
// of its sourceRef, a HelmRepository (of type oci or not) or a
// GitRepository, whose URL and reference are filled in when the source
// object is beside it. The source's namespace is
// spec.chart.spec.sourceRef.namespace, else the HelmRelease's, where
// helm-controller makes the HelmChart that reads it. The reason says why
// a GitRepository's chart is not this repository's, or a source of
// another kind is not one of a chart.
func (s *discovery) helmChartRef(d document, ns string, objs fluxObjects) (ref delivery.ChartRef, reason string, err error) {
	src, err := sourceRef(d, ns, "spec", "chartRef")
	if err != nil {
		return ref, "", err
	}
	if src.Kind == "HelmChart" {
		return s.helmChartObject(src, objs)
	}
	if src.Kind != "" {
		ref = delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &src}
		reason, err := fillFromSource(&ref, objs)
		return ref, reason, err
	}
	chart, err := d.str("spec", "chart", "spec", "chart")
	if err != nil {
		return ref, "", err
	}
	version, err := d.str("spec", "chart", "spec", "version")
	if err != nil {
		return ref, "", err
	}
	if src, err = sourceRef(d, ns, "spec", "chart", "spec", "sourceRef"); err != nil {
		return ref, "", err
	}
	if chart == "" || src.Kind == "" || src.Name == "" {
		return ref, "", fmt.Errorf("%s: HelmRelease %s: needs spec.chartRef, or spec.chart.spec.chart and its sourceRef's kind and name", d.where(), d.name())
	}
	return s.chartOfSource(chart, version, src, objs)
}

// chartOfSource is a chart named in a Flux source object, as a HelmChart's
// spec (or a HelmRelease's spec.chart.spec, which helm-controller makes
// one of) names it: its chart, version (a semver range passed as is, the
// fetch resolves it as source-controller does) and sourceRef.
func (s *discovery) chartOfSource(chart, version string, src delivery.ObjectRef, objs fluxObjects) (ref delivery.ChartRef, reason string, err error) {
	switch src.Kind {
	case "GitRepository":
		reason, err := s.gitRepositoryReason(namespacedName(src.Namespace, src.Name), objs)
		if reason != "" || err != nil {
			ref = delivery.ChartRef{Kind: delivery.ChartInGit, Path: chart, Source: &src}
			return ref, reason, err
		}
		return delivery.ChartRef{Kind: delivery.ChartInRepository, Path: chart, Source: &src}, "", nil
	case "HelmRepository":
		ref = delivery.ChartRef{Kind: delivery.ChartInHelmRepository, Chart: chart, Version: version, Source: &src}
		reason, err := fillFromSource(&ref, objs)
		return ref, reason, err
	}
	return ref, fmt.Sprintf("chart %s from %s: not a GitRepository of this repository", chart, src), nil
}

// helmChartObject is the chart of a chartRef's HelmChart: when the object
// is beside the HelmRelease, the chart its spec names (chart, version,
// sourceRef in its own namespace), read as a HelmRelease's spec.chart.spec
// is, with the HelmChart kept as its Source; else the HelmChart alone, for
// the locator to say why it is not rendered.
func (s *discovery) helmChartObject(src delivery.ObjectRef, objs fluxObjects) (delivery.ChartRef, string, error) {
	hc, ok := objs.sources[fluxKey(src.Kind, src.Namespace, src.Name)]
	if !ok {
		return delivery.ChartRef{Kind: delivery.ChartInFluxSource, Source: &src}, "", nil
	}
	chart, err := hc.str("spec", "chart")
	if err != nil {
		return delivery.ChartRef{}, "", err
	}
	version, err := hc.str("spec", "version")
	if err != nil {
		return delivery.ChartRef{}, "", err
	}
	from, err := sourceRef(hc, src.Namespace, "spec", "sourceRef")
	if err != nil {
		return delivery.ChartRef{}, "", err
	}
	if chart == "" || from.Kind == "" || from.Name == "" {
		return delivery.ChartRef{}, "", fmt.Errorf("%s: HelmChart %s: needs spec.chart and its sourceRef's kind and name", hc.where(), hc.name())
	}
	// A HelmChart reads its source in its own namespace.
	from.Namespace = src.Namespace
	ref, reason, err := s.chartOfSource(chart, version, from, objs)
	if ref.Kind != delivery.ChartInRepository {
		ref.Source = &src
	}
	return ref, reason, err
}

// chartSourceFiles are the files of a chart's Flux source object beside
// the HelmRelease, and of a HelmChart's own source.
func chartSourceFiles(src delivery.ObjectRef, objs fluxObjects) ([]string, error) {
	o, ok := objs.sources[fluxKey(src.Kind, src.Namespace, src.Name)]
	if !ok {
		return nil, nil
	}
	files := []string{o.file}
	if src.Kind != "HelmChart" {
		return files, nil
	}
	from, err := sourceRef(o, src.Namespace, "spec", "sourceRef")
	if err != nil || from.Kind == "" {
		return files, err
	}
	from.Namespace = src.Namespace
	more, err := chartSourceFiles(from, objs)
	return append(files, more...), err
}

// sourceRef is a reference to a Flux source object at field (kind, name,
// namespace), its namespace ns when it names none.
func sourceRef(d document, ns string, field ...string) (delivery.ObjectRef, error) {
	var r delivery.ObjectRef
	for _, f := range []struct {
		to   *string
		name string
	}{{&r.Kind, "kind"}, {&r.Name, "name"}, {&r.Namespace, "namespace"}} {
		v, err := d.str(append(append([]string{}, field...), f.name)...)
		if err != nil {
			return r, err
		}
		*f.to = v
	}
	r.Namespace = or(r.Namespace, ns)
	return r, nil
}

// helmChartLayer is the media type of a Helm chart's layer in an OCI
// artifact (`helm push`).
const helmChartLayer = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"

// fillFromSource completes a chart's reference with its source object's
// URL and reference, when the object is beside the HelmRelease: a
// HelmRepository's url (of type oci: the chart is an OCI artifact under
// it), an OCIRepository's url and spec.ref (a semver wins over a tag, as
// source-controller reads them; a digest pins either). The reason says
// why an OCIRepository's artifact is not a chart the fetch reads.
func fillFromSource(ref *delivery.ChartRef, objs fluxObjects) (string, error) {
	o, ok := objs.sources[fluxKey(ref.Source.Kind, ref.Source.Namespace, ref.Source.Name)]
	if !ok {
		return "", nil
	}
	url, err := o.str("spec", "url")
	if err != nil {
		return "", err
	}
	switch ref.Source.Kind {
	case "HelmRepository":
		typ, err := o.str("spec", "type")
		if err != nil {
			return "", err
		}
		ref.URL = url
		if typ == "oci" {
			ref.Kind = delivery.ChartInOCI
			ref.URL = strings.TrimSuffix(url, "/") + "/" + ref.Chart
		}
	case "OCIRepository":
		ref.URL = url
		// The chart is the Helm chart layer (layerSelector.mediaType,
		// whether copied or extracted): what the fetch reads. Another
		// layer is the chart only to helm-controller, which the fetch
		// does not reproduce.
		mediaType, err := o.str("spec", "layerSelector", "mediaType")
		if err != nil {
			return "", err
		}
		if mediaType != "" && mediaType != helmChartLayer {
			return fmt.Sprintf("%s: spec.layerSelector.mediaType %s is not a Helm chart's layer (%s): helm-controller reads that layer as the chart, which the check does not fetch", ref.Source, mediaType, helmChartLayer), nil
		}
		for _, f := range []struct {
			to   *string
			name string
		}{{&ref.Version, "tag"}, {&ref.Version, "semver"}, {&ref.Digest, "digest"}} {
			v, err := o.str("spec", "ref", f.name)
			if err != nil {
				return "", err
			}
			if v != "" {
				*f.to = v
			}
		}
	}
	return "", nil
}
