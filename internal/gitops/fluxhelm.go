package gitops

import (
	"fmt"

	"github.com/ownership-check/ownership-check/internal/config"
)

// helmRelease lists a Flux HelmRelease. Its chart is rendered when it is a
// path of a GitRepository that is this repository (spec.chart.spec); a
// chart helm-controller pulls from a HelmRepository, an OCIRepository or
// a HelmChart (spec.chartRef) is fetched over the network, which the check
// never does: the target is listed, not checked, with the source named.
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
	reason, chart, err := s.helmChartSource(d, ns, objs)
	if err != nil {
		return t, err
	}
	var perr error
	if reason == "" {
		var p string
		if p, perr = s.repoPath(chart); p != "" {
			t.Paths = []string{p}
		}
	}
	// A values source changes the render: its file is an input whether or
	// not the target is checked, so that listing stays true.
	inputs, err := valueSourceFiles(d, objs, ns, "HelmRelease", "spec", "valuesFrom")
	if err != nil {
		return t, err
	}
	t.Inputs = append(t.Inputs, inputs...)
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
	if reason == "" {
		srcNS, _ := d.str("spec", "chart", "spec", "sourceRef", "namespace")
		name, _ := d.str("spec", "chart", "spec", "sourceRef", "name")
		if err := s.fluxArtifact(&t, namespacedName(or(srcNS, ns), name), objs); err != nil {
			return t, err
		}
	}
	return t, nil
}

// helmChartSource is the chart's path in this repository, or why the
// chart is not this repository's. The chart's source is in
// spec.chart.spec.sourceRef.namespace, else the HelmRelease's namespace,
// where helm-controller makes the HelmChart that reads it.
func (s *discovery) helmChartSource(d document, ns string, objs fluxObjects) (reason, chart string, err error) {
	refKind, err := d.str("spec", "chartRef", "kind")
	if err != nil {
		return "", "", err
	}
	if refKind != "" {
		name, err := d.str("spec", "chartRef", "name")
		if err != nil {
			return "", "", err
		}
		refNS, err := d.str("spec", "chartRef", "namespace")
		if err != nil {
			return "", "", err
		}
		return fmt.Sprintf("chart from %s %s: remote charts are not rendered (no network)", refKind, namespacedName(or(refNS, ns), name)), "", nil
	}
	chart, err = d.str("spec", "chart", "spec", "chart")
	if err != nil {
		return "", "", err
	}
	kind, err := d.str("spec", "chart", "spec", "sourceRef", "kind")
	if err != nil {
		return "", "", err
	}
	name, err := d.str("spec", "chart", "spec", "sourceRef", "name")
	if err != nil {
		return "", "", err
	}
	srcNS, err := d.str("spec", "chart", "spec", "sourceRef", "namespace")
	if err != nil {
		return "", "", err
	}
	if chart == "" || kind == "" || name == "" {
		return "", "", fmt.Errorf("%s: HelmRelease %s: needs spec.chartRef, or spec.chart.spec.chart and its sourceRef's kind and name", d.where(), d.name())
	}
	ref := namespacedName(or(srcNS, ns), name)
	switch kind {
	case "GitRepository":
		reason, err := s.gitRepositoryReason(ref, objs)
		return reason, chart, err
	case "HelmRepository":
		return fmt.Sprintf("chart %s from HelmRepository %s: remote charts are not rendered (no network)", chart, ref), "", nil
	}
	return fmt.Sprintf("chart %s from %s %s: not a GitRepository of this repository", chart, kind, ref), "", nil
}
