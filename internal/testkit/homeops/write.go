package homeops

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// OCIPrefix is where the repository says its OCI charts are: chart NAME
// is oci://ghcr.io/home-ops/charts/NAME, which the config mirrors to the
// test's registry (whose repository is then home-ops/charts/NAME).
const (
	OCIHost   = "ghcr.io"
	OCIPrefix = OCIHost + "/home-ops/charts"
)

// Servers are where the test serves the charts, and the environment
// variables that hold each one's credentials ("" for none): written into
// the repository's config as its trusted hosts.
type Servers struct {
	// Registry is the OCI registry's base URL (http://127.0.0.1:PORT),
	// the mirror of ghcr.io.
	Registry        string
	RegistryAuthEnv string
	// HelmRepository is the HTTP Helm repository's URL, its index.yaml
	// under it.
	HelmRepository        string
	HelmRepositoryAuthEnv string
}

// The names of the shared source objects, in flux-system.
const (
	SharedOCIRepository  = "app-template"
	HTTPHelmRepository   = "home-charts"
	OCIHelmRepository    = "home-charts-oci"
	fluxSystem           = "flux-system"
	ociRepositoryFile    = "ocirepository.yaml"
	sharedRepositoryFile = "kubernetes/flux/meta/repositories/app-template.yaml"
)

// Write writes the plan's repository into dir: the config, Flux's
// cluster Kustomizations, the shared sources, and every app.
func Write(dir string, p Plan, s Servers) error {
	files, err := Files(p, s)
	if err != nil {
		return err
	}
	for rel, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Files are the repository's files by path.
func Files(p Plan, s Servers) (map[string]string, error) {
	cfg, err := config(s)
	if err != nil {
		return nil, err
	}
	files := map[string]string{
		".ownership-check.yaml":                                  cfg,
		"README.md":                                              "# home-ops\n\nMy cluster, as Flux deploys it.\n",
		"kubernetes/flux/cluster/ks.yaml":                        clusterKustomizations,
		"kubernetes/flux/meta/kustomization.yaml":                "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ./repositories/app-template.yaml\n- ./repositories/home-charts.yaml\n- ./repositories/home-charts-oci.yaml\n",
		"kubernetes/flux/meta/repositories/home-charts.yaml":     doc("source.toolkit.fluxcd.io/v1", "HelmRepository", fluxSystem, HTTPHelmRepository, map[string]any{"interval": "2h", "url": s.HelmRepository}),
		"kubernetes/flux/meta/repositories/home-charts-oci.yaml": doc("source.toolkit.fluxcd.io/v1", "HelmRepository", fluxSystem, OCIHelmRepository, map[string]any{"interval": "2h", "type": "oci", "url": "oci://" + OCIPrefix}),
	}
	files[sharedRepositoryFile] = ociRepository(fluxSystem, SharedOCIRepository, p.Charts[0])
	byNS := map[string][]string{}
	for _, r := range p.Releases {
		byNS[r.Namespace] = append(byNS[r.Namespace], r.Name)
		if err := writeApp(files, p, r); err != nil {
			return nil, err
		}
	}
	for ns, names := range byNS {
		sort.Strings(names)
		var k strings.Builder
		k.WriteString("apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- ./namespace.yaml\n")
		for _, n := range names {
			fmt.Fprintf(&k, "- ./%s/ks.yaml\n", n)
		}
		files["kubernetes/apps/"+ns+"/kustomization.yaml"] = k.String()
		files["kubernetes/apps/"+ns+"/namespace.yaml"] = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + ns + "\n  annotations:\n    kustomize.toolkit.fluxcd.io/prune: disabled\n"
	}
	return files, nil
}

// AppDir is the folder of release r's app.
func AppDir(r Release) string { return "kubernetes/apps/" + r.Namespace + "/" + r.Name }

// OCIRepositoryFile is the file of the OCIRepository release r's chart
// is read from: the shared one in flux-system for chart 0.
func OCIRepositoryFile(r Release) string {
	if r.Chart == 0 {
		return sharedRepositoryFile
	}
	return AppDir(r) + "/app/" + ociRepositoryFile
}

func writeApp(files map[string]string, p Plan, r Release) error {
	c := p.Charts[r.Chart]
	dir := AppDir(r)
	// The app's Kustomization is flux-system's, as cluster-template
	// wrote it before 2025: in the app's namespace it would share its
	// HelmRelease's name, which discovery refuses.
	files[dir+"/ks.yaml"] = doc("kustomize.toolkit.fluxcd.io/v1", "Kustomization", fluxSystem, r.Name, map[string]any{
		"commonMetadata":  map[string]any{"labels": map[string]any{"app.kubernetes.io/name": r.Name}},
		"interval":        "1h",
		"path":            "./" + dir + "/app",
		"prune":           true,
		"sourceRef":       map[string]any{"kind": "GitRepository", "name": fluxSystem, "namespace": fluxSystem},
		"targetNamespace": r.Namespace,
		"timeout":         "5m",
		"wait":            false,
	})
	spec := map[string]any{"interval": "1h", "values": r.Values}
	resources := []string{"./helmrelease.yaml"}
	switch {
	case r.Chart == 0:
		spec["chartRef"] = map[string]any{"kind": "OCIRepository", "name": SharedOCIRepository, "namespace": fluxSystem}
	case c.Form == OCIRepository:
		spec["chartRef"] = map[string]any{"kind": "OCIRepository", "name": r.Name}
		files[dir+"/app/"+ociRepositoryFile] = ociRepository("", r.Name, c)
		resources = append(resources, "./"+ociRepositoryFile)
	default:
		src := HTTPHelmRepository
		if c.Form == HelmRepositoryOCI {
			src = OCIHelmRepository
		}
		spec["chart"] = map[string]any{"spec": map[string]any{"chart": c.Name, "version": c.Range(),
			"sourceRef": map[string]any{"kind": "HelmRepository", "name": src, "namespace": fluxSystem}}}
	}
	spec["install"] = map[string]any{"remediation": map[string]any{"retries": -1}}
	spec["upgrade"] = map[string]any{"cleanupOnFail": true, "remediation": map[string]any{"retries": 3}}
	files[dir+"/app/helmrelease.yaml"] = doc("helm.toolkit.fluxcd.io/v2", "HelmRelease", "", r.Name, spec)
	files[dir+"/app/kustomization.yaml"] = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n- " + strings.Join(resources, "\n- ") + "\n"
	return nil
}

// ociRepository is an OCIRepository of chart c, as cluster-template
// writes one: the Helm chart layer, a tag or a semver range.
func ociRepository(ns, name string, c Chart) string {
	ref := map[string]any{"tag": c.Version}
	if c.Semver {
		ref = map[string]any{"semver": c.Range()}
	}
	return doc("source.toolkit.fluxcd.io/v1", "OCIRepository", ns, name, map[string]any{
		"interval":      "15m",
		"layerSelector": map[string]any{"mediaType": "application/vnd.cncf.helm.chart.content.v1.tar+gzip", "operation": "copy"},
		"ref":           ref,
		"url":           "oci://" + OCIPrefix + "/" + c.Name,
	})
}

// clusterKustomizations are the two cluster-template applies from
// kubernetes/flux/cluster: the shared sources, then the apps.
const clusterKustomizations = `---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-meta
  namespace: flux-system
spec:
  interval: 1h
  path: ./kubernetes/flux/meta
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: cluster-apps
  namespace: flux-system
spec:
  dependsOn:
  - name: cluster-meta
  interval: 1h
  path: ./kubernetes/apps
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
`

// config is the repository's .ownership-check.yaml: Flux's cluster
// folder discovered, ghcr.io mirrored to the test's registry, and the
// test's servers listed as trusted hosts with their credentials.
func config(s Servers) (string, error) {
	hosts := map[string]any{}
	for _, h := range []struct{ url, env string }{{s.Registry, s.RegistryAuthEnv}, {s.HelmRepository, s.HelmRepositoryAuthEnv}} {
		if h.url == "" {
			continue
		}
		u, err := url.Parse(h.url)
		if err != nil {
			return "", err
		}
		entry := map[string]any{}
		if h.env != "" {
			entry["auth"] = map[string]any{"env": h.env}
		}
		// A server of plain HTTP is listed as http://, which lets its
		// login go over plain HTTP.
		key := u.Host
		if u.Scheme == "http" {
			key = "http://" + u.Host
		}
		hosts[key] = entry
	}
	cfg := map[string]any{
		"discover": []any{map[string]any{"flux": "kubernetes/flux", "context": "home"}},
		"charts":   map[string]any{"hosts": hosts},
	}
	if s.Registry != "" {
		cfg["charts"].(map[string]any)["mirrors"] = map[string]any{OCIHost: s.Registry}
	}
	out, err := yaml.Marshal(cfg)
	return string(out), err
}

// doc is one object as YAML; ns "" leaves the namespace to the
// Kustomization that applies it.
func doc(apiVersion, kind, ns, name string, spec map[string]any) string {
	meta := map[string]any{"name": name}
	if ns != "" {
		meta["namespace"] = ns
	}
	out, err := yaml.Marshal(map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta, "spec": spec})
	if err != nil {
		panic(err) // plain maps always marshal
	}
	return "---\n" + string(out)
}
