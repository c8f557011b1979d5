package homeops

import (
	"fmt"
	"sort"
)

// Style is which values a chart's releases are given.
type Style string

const (
	// AppTemplate is the shared generic chart: controllers, services,
	// persistence and configMaps in the values.
	AppTemplate Style = "app-template"
	// Generic is a chart as `helm create` makes it.
	Generic Style = "generic"
	// Podinfo and MetricsServer are the public charts of those names.
	Podinfo       Style = "podinfo"
	MetricsServer Style = "metrics-server"
	// Plain is any other chart: released with no values of its own.
	Plain Style = "plain"
)

// Form is where a HelmRelease takes its chart from, as the repository
// writes it.
type Form string

const (
	// OCIRepository: spec.chartRef to an OCIRepository beside the
	// HelmRelease (the shared chart's is one in flux-system).
	OCIRepository Form = "OCIRepository"
	// HelmRepository: spec.chart.spec with a sourceRef to the HTTP
	// HelmRepository, a semver range as its version.
	HelmRepository Form = "HelmRepository"
	// HelmRepositoryOCI: spec.chart.spec with a sourceRef to a
	// HelmRepository of type oci.
	HelmRepositoryOCI Form = "HelmRepositoryOCI"
)

// Chart is one chart version: its archive, and how the repository names
// it.
type Chart struct {
	Name    string
	Version string
	Archive []byte
	Style   Style
	// Form is how every release of the chart takes it.
	Form Form
	// Older is an earlier version served beside it, so that a range or
	// an index with history resolves to this one.
	Older []byte
	// OlderVersion is Older's version.
	OlderVersion string
	// Semver says an OCIRepository asks for a semver range (ref.semver),
	// resolved to the highest tag, rather than a tag.
	Semver bool
}

// Range is the version the repository asks for: a semver range that
// resolves to Version (HelmRepository's "1.x" form and an
// OCIRepository's ref.semver, source-controller's highest match), else
// Version itself.
func (c Chart) Range() string {
	if c.Form == HelmRepository || c.Semver {
		var major int
		fmt.Sscanf(c.Version, "%d.", &major)
		return fmt.Sprintf("%d.x", major)
	}
	return c.Version
}

// Release is one HelmRelease of the repository.
type Release struct {
	Namespace string
	Name      string
	// Chart is the index in Plan.Charts of the chart it releases.
	Chart  int
	Values map[string]any
}

// Target is the release's target name, as discovery names a Flux
// HelmRelease.
func (r Release) Target() string { return "HelmRelease/" + r.Name + "." + r.Namespace }

// Plan is a repository's releases and charts.
type Plan struct {
	Charts   []Chart
	Releases []Release
}

// Namespaces are the plan's namespaces, sorted.
func (p Plan) Namespaces() []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range p.Releases {
		if !seen[r.Namespace] {
			seen[r.Namespace] = true
			out = append(out, r.Namespace)
		}
	}
	sort.Strings(out)
	return out
}

// Using are the releases of chart i.
func (p Plan) Using(i int) []Release {
	var out []Release
	for _, r := range p.Releases {
		if r.Chart == i {
			out = append(out, r)
		}
	}
	return out
}

// namespaces are a home-ops cluster's, in the order apps fill them.
var namespaces = []string{"default", "media", "observability", "network", "database", "home-automation", "security", "storage", "kube-system", "downloads", "games", "tools"}

// apps are names home-ops repositories give their releases.
var apps = []string{"echo", "sonarr", "radarr", "grafana", "cloudflared", "postgres", "home-assistant", "authelia", "volsync", "coredns",
	"qbittorrent", "minecraft", "it-tools", "plex", "prowlarr", "loki", "external-dns", "dragonfly", "zigbee2mqtt", "lldap",
	"snapshot-controller", "reloader", "sabnzbd", "factorio", "atuin", "jellyfin", "bazarr", "victoria-logs", "k8s-gateway", "redis",
	"mosquitto", "pocket-id", "openebs", "spegel", "unpackerr", "satisfactory", "miniflux", "overseerr", "tautulli", "gatus"}

// NewPlan plans releases releases over charts distinct charts (at least
// 4 of them): chart 0 the shared app-template-style chart most releases
// use, public (when given) the next ones, the rest generated; every
// chart used by at least one release. Five in eight charts are
// OCIRepository chartRefs and, with the shared chart, about three in four
// releases, as in public home-ops repositories (77%); the others come from
// the HTTP HelmRepository (a semver range) and the OCI one.
func NewPlan(releases, charts int, public ...Chart) (Plan, error) {
	if charts < 4 || releases < charts {
		return Plan{}, fmt.Errorf("homeops: %d releases over %d charts: give at least 4 charts and a release each", releases, charts)
	}
	var p Plan
	shared, err := newChart("app-template", "3.7.3", AppTemplate)
	if err != nil {
		return Plan{}, err
	}
	shared.Form = OCIRepository
	p.Charts = append(p.Charts, shared)
	for i := 1; i < charts; i++ {
		var c Chart
		if i-1 < len(public) {
			c = public[i-1]
		} else {
			name := fmt.Sprintf("%s-chart", apps[i%len(apps)])
			if i >= len(apps) {
				name = fmt.Sprintf("%s-%d", name, i/len(apps))
			}
			if c, err = newChart(name, fmt.Sprintf("%d.%d.%d", 1+i%3, i%7, i%5), Generic); err != nil {
				return Plan{}, err
			}
		}
		switch i % 8 {
		case 3, 6:
			c.Form = HelmRepository
		case 5:
			c.Form = HelmRepositoryOCI
		case 7:
			c.Form, c.Semver = OCIRepository, true
		default:
			c.Form = OCIRepository
		}
		p.Charts = append(p.Charts, c)
	}
	// The shared chart takes what is left after one release a chart,
	// up to 40% of them; the generated charts go round the rest. A public
	// chart is released once: its cluster-wide objects (metrics-server's
	// APIService) exist once in a cluster.
	sharedReleases := max(releases*2/5, releases-(charts-1)*3)
	generated := charts - 1 - min(len(public), charts-1)
	names := map[string]int{}
	for i := range releases {
		chart := 0
		switch k := i - sharedReleases; {
		case k < 0:
		case k < charts-1:
			chart = 1 + k
		case generated > 0:
			chart = charts - generated + (k-(charts-1))%generated
		}
		ns := namespaces[i%len(namespaces)]
		name := apps[i%len(apps)]
		if n := names[name]; n > 0 {
			name = fmt.Sprintf("%s-%d", name, n+1)
		}
		names[apps[i%len(apps)]]++
		p.Releases = append(p.Releases, Release{Namespace: ns, Name: name, Chart: chart, Values: values(p.Charts[chart].Style, name, i)})
	}
	return p, nil
}

// newChart is a generated chart of style, with an older version beside
// it.
func newChart(name, version string, style Style) (Chart, error) {
	c := Chart{Name: name, Version: version, Style: style, OlderVersion: older(version)}
	var err error
	if c.Archive, err = c.pack(version); err != nil {
		return c, err
	}
	c.Older, err = c.pack(c.OlderVersion)
	return c, err
}

func (c Chart) pack(version string) ([]byte, error) {
	if c.Style == AppTemplate {
		return pack(c.Name, appTemplateFiles(c.Name, version))
	}
	return pack(c.Name, genericFiles(c.Name, version, "v"+version))
}

// Bump is the chart's next patch version, as Renovate proposes it: a
// new archive, so a new digest. Only generated charts can be bumped.
func (c Chart) Bump() (Chart, error) {
	if c.Style != AppTemplate && c.Style != Generic {
		return c, fmt.Errorf("homeops: chart %s is not generated: cannot bump it", c.Name)
	}
	var a, b, p int
	fmt.Sscanf(c.Version, "%d.%d.%d", &a, &b, &p)
	next := c
	next.Version = fmt.Sprintf("%d.%d.%d", a, b, p+1)
	next.Older, next.OlderVersion = c.Archive, c.Version
	var err error
	next.Archive, err = next.pack(next.Version)
	return next, err
}

func older(version string) string {
	var a, b, p int
	fmt.Sscanf(version, "%d.%d.%d", &a, &b, &p)
	if b > 0 {
		return fmt.Sprintf("%d.%d.%d", a, b-1, p)
	}
	return fmt.Sprintf("%d.%d.%d", a, b, p) + "-rc.1"
}
