package config

import (
	"strings"
	"testing"
)

// TestDiscoverStrictSubstitution: strictSubstitution is a Flux entry's
// (kustomize-controller's feature gate), refused on an Argo CD one.
func TestDiscoverStrictSubstitution(t *testing.T) {
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: clusters/prod\n  context: prod\n  strictSubstitution: true\n"))
	if err != nil || !c.Discover[0].StrictSubstitution {
		t.Fatalf("flux entry: %v %+v", err, c)
	}
	_, err = Parse(".ownership-check.yaml", []byte("discover:\n- argocd: argocd\n  strictSubstitution: true\n"))
	if err == nil || !strings.Contains(err.Error(), "strictSubstitution") {
		t.Errorf("argocd entry: %v, want strictSubstitution refused", err)
	}
}

// TestDiscoverFluxNeedsContext: a flux entry names its cluster's context,
// or says current on purpose; the error names the entry.
func TestDiscoverFluxNeedsContext(t *testing.T) {
	_, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: a\n  context: a\n- argocd: argocd\n- flux: clusters/prod\n"))
	if err == nil || !strings.Contains(err.Error(), "discover[2]: give context: <kubeconfig context>, or context: current to use the current one") {
		t.Errorf("flux entry without context: %v", err)
	}
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- flux: clusters/prod\n  context: current\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := KubeContext(c.Discover[0].Context); got != "" {
		t.Errorf("context: current is %q, want the kubeconfig's current context (\"\")", got)
	}
	if got := KubeContext("prod"); got != "prod" {
		t.Errorf("context: prod is %q", got)
	}
}

// TestDiscoverClustersEitherForm: an argocd entry's clusters are the map of
// destinations to contexts, or a list of registered clusters whose names
// and servers make that map and which a clusters generator reads.
func TestDiscoverClustersEitherForm(t *testing.T) {
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- argocd: argocd\n  clusters: {https://kubernetes.default.svc: mgmt}\n"))
	if err != nil || c.Discover[0].Clusters["https://kubernetes.default.svc"] != "mgmt" || c.Discover[0].Registered() != nil {
		t.Fatalf("map form: %v %+v", err, c)
	}
	c, err = Parse(".ownership-check.yaml", []byte(`discover:
- argocd: argocd
  clusters:
  - {name: in-cluster, server: https://kubernetes.default.svc, context: mgmt, labels: {env: mgmt}}
  - {name: prod, server: https://prod.example.com, context: prod, labels: {env: prod}, annotations: {team: sre}}
  - {name: edge, context: edge}
`))
	if err != nil {
		t.Fatal(err)
	}
	d := c.Discover[0]
	for dest, want := range map[string]string{"in-cluster": "mgmt", "https://kubernetes.default.svc": "mgmt", "prod": "prod", "https://prod.example.com": "prod", "edge": "edge"} {
		if d.Clusters[dest] != want {
			t.Errorf("destination %s: context %q, want %q", dest, d.Clusters[dest], want)
		}
	}
	if r := d.Registered(); len(r) != 2 || r[1].Labels["env"] != "prod" || r[1].Annotations["team"] != "sre" {
		t.Errorf("registered %+v, want in-cluster and prod with their labels", r)
	}
	for src, want := range map[string]string{
		"discover:\n- argocd: a\n  clusters: [{name: x}]\n":                                    "discover[0]: argocd: clusters[0]: give context",
		"discover:\n- argocd: a\n  clusters: [{name: x, context: a}, {name: x, context: b}]\n": "clusters[1]: x is clusters[0]'s too",
		"discover:\n- argocd: a\n  clusters: [{name: x, context: a, label: {}}]\n":             `discover[0].clusters[0]: unknown key "label"`,
		"discover:\n- argocd: a\n  cluster: {}\n":                                              `unknown key "cluster"`,
	} {
		if _, err := Parse(".ownership-check.yaml", []byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", src, err, want)
		}
	}
}

// TestDiscoverKustomizeBuildOptions: kustomizeBuildOptions is an Argo CD
// entry's (argocd-cm's kustomize.buildOptions), kept as written, empty
// included; a Flux entry refuses it.
func TestDiscoverKustomizeBuildOptions(t *testing.T) {
	c, err := Parse(".ownership-check.yaml", []byte("discover:\n- argocd: argocd\n  kustomizeBuildOptions: --enable-helm\n- argocd: other\n  kustomizeBuildOptions: \"\"\n- argocd: third\n"))
	if err != nil {
		t.Fatal(err)
	}
	if o := c.Discover[0].KustomizeBuildOptions; o == nil || *o != "--enable-helm" {
		t.Errorf("entry 0: %v", o)
	}
	if o := c.Discover[1].KustomizeBuildOptions; o == nil || *o != "" {
		t.Errorf("entry 1: %v, want set and empty", o)
	}
	if o := c.Discover[2].KustomizeBuildOptions; o != nil {
		t.Errorf("entry 2: %q, want unset", *o)
	}
	_, err = Parse(".ownership-check.yaml", []byte("discover:\n- flux: clusters/prod\n  context: prod\n  kustomizeBuildOptions: --enable-helm\n"))
	if err == nil || !strings.Contains(err.Error(), "discover[0]: flux: kustomizeBuildOptions") {
		t.Errorf("flux entry: %v, want kustomizeBuildOptions refused", err)
	}
}
