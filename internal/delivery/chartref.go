package delivery

import "strings"

// ChartRef names where a chart comes from, as the deployer's object (or
// the repository config) says it, read once where that object is read
// (gitops, config) and carried to render on the Deployer, so that the
// render asks its chart locator instead of reading the object again.
// It is plain data: where the chart is, never the chart.
type ChartRef struct {
	// Kind is the form of the reference: one of the ChartIn... words.
	Kind string `json:"kind"`
	// Path is the chart's directory: relative to the repository's top for
	// ChartInRepository, inside the other repository for ChartInGit.
	Path string `json:"path,omitempty"`
	// URL is the Helm repository's (https://…), the OCI reference without
	// its tag (oci://registry/repo/chart) or the Git repository's.
	URL string `json:"url,omitempty"`
	// Chart is the chart's name in a Helm repository (and, for a Flux
	// HelmRepository of type oci, the last part of the OCI reference).
	Chart string `json:"chart,omitempty"`
	// Version is the chart's version or semver range ("6.7.1", "6.x",
	// ">=1.0.0"), an OCI tag, or a Git ref (branch, tag or commit); ""
	// for the latest.
	Version string `json:"version,omitempty"`
	// Digest pins an OCI artifact (sha256:…); it wins over Version.
	Digest string `json:"digest,omitempty"`
	// Source is the Flux source object the chart is read from
	// (HelmRepository, OCIRepository, HelmChart, GitRepository), when the
	// deployer names one; URL, Version and Digest are then that object's,
	// when gitops found it in this repository.
	Source *ObjectRef `json:"source,omitempty"`
}

// The forms of ChartRef.Kind.
const (
	// ChartInRepository: a directory of this repository.
	ChartInRepository = "repository"
	// ChartInHelmRepository: a chart of an HTTP Helm repository.
	ChartInHelmRepository = "helm-repository"
	// ChartInOCI: an OCI artifact (oci://…), a Flux HelmRepository of
	// type oci among them.
	ChartInOCI = "oci"
	// ChartInGit: a directory of another Git repository.
	ChartInGit = "git"
	// ChartInFluxSource: a Flux HelmRelease's spec.chartRef, an
	// OCIRepository or a HelmChart whose artifact is the chart.
	ChartInFluxSource = "flux-source"
)

// ObjectRef names an object by kind, namespace and name.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

func (o ObjectRef) String() string {
	if o.Namespace == "" {
		return o.Kind + " " + o.Name
	}
	return o.Kind + " " + o.Namespace + "/" + o.Name
}

// InRepository says whether the chart is a directory of this repository,
// the one form every locator reads without fetching.
func (r ChartRef) InRepository() bool { return r.Kind == ChartInRepository }

// String names the chart for notes and reasons: "chart podinfo 6.7.1
// from https://stefanprodan.github.io/podinfo", "chart from OCIRepository
// flux-system/podinfo", "chart charts/web".
func (r ChartRef) String() string {
	if r.InRepository() {
		return "chart " + r.Path
	}
	words := []string{"chart"}
	if r.Kind == ChartInGit {
		words = append(words, r.Path)
	} else if r.Chart != "" {
		words = append(words, r.Chart)
	}
	// A Flux source object is named as helm-controller names it, by the
	// object: the version is the object's to resolve.
	if r.Source != nil {
		return strings.Join(append(words, "from", r.Source.String()), " ")
	}
	if v := or(r.Digest, r.Version); v != "" {
		words = append(words, v)
	}
	if r.URL != "" {
		words = append(words, "from", r.URL)
	}
	return strings.Join(words, " ")
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// ChartFromRepository is a chart named in a chart repository, as Argo CD
// (repoURL, chart, targetRevision) and kustomize's helmCharts (repo, name,
// version) name it: an oci:// repository, or one without a scheme (Argo
// CD's OCI form, "ghcr.io/org/charts"), holds the chart as an OCI artifact
// at repository/chart; any other URL is an HTTP Helm repository.
func ChartFromRepository(repo, chart, version string) ChartRef {
	if strings.HasPrefix(repo, "oci://") || !strings.Contains(repo, "://") {
		base := "oci://" + strings.TrimSuffix(strings.TrimPrefix(repo, "oci://"), "/")
		return ChartRef{Kind: ChartInOCI, URL: base + "/" + chart, Chart: chart, Version: version}
	}
	return ChartRef{Kind: ChartInHelmRepository, URL: repo, Chart: chart, Version: version}
}

// ChartFromReference is a chart as `helm upgrade RELEASE CHART` takes it
// and the repository config writes it: an OCI reference with its tag or
// digest ("oci://ghcr.io/org/charts/podinfo:6.7.1", "…@sha256:…"), a
// chart archive's URL, else a directory of this repository.
func ChartFromReference(ref string) ChartRef {
	if rest, ok := strings.CutPrefix(ref, "oci://"); ok {
		r := ChartRef{Kind: ChartInOCI}
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			rest, r.Digest = rest[:at], rest[at+1:]
		}
		// A tag follows the last ':' after the last '/', never a port's.
		if c := strings.LastIndex(rest, ":"); c > strings.LastIndex(rest, "/") {
			rest, r.Version = rest[:c], rest[c+1:]
		}
		r.URL = "oci://" + rest
		r.Chart = rest[strings.LastIndex(rest, "/")+1:]
		return r
	}
	if strings.Contains(ref, "://") {
		return ChartRef{Kind: ChartInHelmRepository, URL: ref}
	}
	return ChartRef{Kind: ChartInRepository, Path: ref}
}
