package gitops

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
)

// helmRelease lists a Flux HelmRelease, with where its chart comes from
// (Deployer.Charts): a path of a GitRepository that is this repository is
// its path; whether a chart from elsewhere (a HelmRepository, an
// OCIRepository or a HelmChart) is rendered is render's chart locator's
// to say, which targets asks.
func (s *discovery) helmRelease(d document, e config.Discover, objs fluxObjects) (Target, error) {
	t, err := fluxTarget(d, e, fluxHelmManager)
	if err != nil {
		return t, err
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
		var p string
		if p, perr = s.repoPath(chart.Path); p != "" {
			t.Paths = []string{p}
			chart.Path = p
		}
	}
	if reason == "" && perr == nil {
		t.Deployer.Charts = []model.ChartRef{chart}
	}
	// A values source changes the render: its file is an input whether or
	// not the target is checked, so that listing stays true.
	inputs, err := valueSourceFiles(d, objs, ns, "HelmRelease", "spec", "valuesFrom")
	if err != nil {
		return t, err
	}
	t.Inputs = append(t.Inputs, inputs...)
	// So is the source object its chart comes from: a pull request that
	// moves an OCIRepository's tag moves every release of its chart.
	chartInputs, err := chartSourceFiles(chart, objs)
	if err != nil {
		return t, err
	}
	t.Inputs = append(t.Inputs, chartInputs...)
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
func (s *discovery) helmChartRef(d document, ns string, objs fluxObjects) (ref model.ChartRef, reason string, err error) {
	src, err := sourceRef(d, ns, "spec", "chartRef")
	if err != nil {
		return ref, "", err
	}
	if src.Kind != "" {
		ref = model.ChartRef{Kind: model.ChartInFluxSource, Source: &src}
		return ref, "", fillFromSource(&ref, objs)
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
	switch src.Kind {
	case "GitRepository":
		reason, err := s.gitRepositoryReason(namespacedName(src.Namespace, src.Name), objs)
		if reason != "" || err != nil {
			ref = model.ChartRef{Kind: model.ChartInGit, Path: chart, Source: &src}
			return ref, reason, err
		}
		return model.ChartRef{Kind: model.ChartInRepository, Path: chart, Source: &src}, "", nil
	case "HelmRepository":
		ref = model.ChartRef{Kind: model.ChartInHelmRepository, Chart: chart, Version: version, Source: &src}
		return ref, "", fillFromSource(&ref, objs)
	}
	return ref, fmt.Sprintf("chart %s from %s: not a GitRepository of this repository", chart, src), nil
}

// chartSourceFiles are the files of the source objects beside the
// HelmRelease that say which chart it releases: its HelmRepository,
// OCIRepository or HelmChart, and a HelmChart's own HelmRepository. A
// GitRepository of this repository is not one: the chart's files are the
// render's own inputs.
func chartSourceFiles(ref model.ChartRef, objs fluxObjects) ([]string, error) {
	var files []string
	for src := ref.Source; src != nil && src.Kind != "GitRepository"; {
		o, ok := objs.sources[fluxKey(src.Kind, src.Namespace, src.Name)]
		if !ok {
			break
		}
		if !slices.Contains(files, o.file) {
			files = append(files, o.file)
		}
		if src.Kind != "HelmChart" {
			break
		}
		ns, err := namespaceOf(o)
		if err != nil {
			return nil, err
		}
		next, err := sourceRef(o, ns, "spec", "sourceRef")
		if err != nil || next.Kind == "" || next.Kind == src.Kind {
			return files, err
		}
		src = &next
	}
	return files, nil
}

// sourceRef is a reference to a Flux source object at field (kind, name,
// namespace), its namespace ns when it names none.
func sourceRef(d document, ns string, field ...string) (model.ObjectRef, error) {
	var r model.ObjectRef
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

// fillFromSource completes a chart's reference with its source object's
// URL and reference, when the object is beside the HelmRelease: a
// HelmRepository's url (of type oci: the chart is an OCI artifact under
// it), an OCIRepository's url and spec.ref (a semver wins over a tag, as
// source-controller reads them; a digest pins either).
func fillFromSource(ref *model.ChartRef, objs fluxObjects) error {
	o, ok := objs.sources[fluxKey(ref.Source.Kind, ref.Source.Namespace, ref.Source.Name)]
	if !ok {
		return nil
	}
	url, err := o.str("spec", "url")
	if err != nil {
		return err
	}
	switch ref.Source.Kind {
	case "HelmRepository":
		typ, err := o.str("spec", "type")
		if err != nil {
			return err
		}
		ref.URL = url
		if typ == "oci" {
			ref.Kind = model.ChartInOCI
			ref.URL = strings.TrimSuffix(url, "/") + "/" + ref.Chart
		}
	case "OCIRepository":
		ref.URL = url
		for _, f := range []struct {
			to   *string
			name string
		}{{&ref.Version, "tag"}, {&ref.Version, "semver"}, {&ref.Digest, "digest"}} {
			v, err := o.str("spec", "ref", f.name)
			if err != nil {
				return err
			}
			if v != "" {
				*f.to = v
			}
		}
	}
	return nil
}
