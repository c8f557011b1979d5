package gitops

import (
	"context"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
)

// TestDiscoverClustersGenerator: an ApplicationSet's clusters generator
// makes an Application per cluster the entry lists and its selector
// matches, each checked on its cluster's context.
func TestDiscoverClustersGenerator(t *testing.T) {
	repo := writeRepo(t, map[string]string{
		"apps/guestbook/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: guestbook}\n",
		"argocd/guestbook.yaml": `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: guestbook, namespace: argocd}
spec:
  generators:
  - clusters:
      selector: {matchLabels: {guestbook: "true"}}
  template:
    metadata: {name: 'guestbook-{{name}}'}
    spec:
      project: default
      source: {repoURL: https://github.com/example/platform.git, path: apps/guestbook}
      destination: {server: '{{server}}', namespace: guestbook}
`,
	})
	entry := config.Discover{ArgoCD: "argocd", ClusterList: []config.ArgoCluster{
		{Name: "prod", Server: "https://prod.example.com", Context: "prod-ctx", Labels: map[string]string{"guestbook": "true"}},
		{Name: "mgmt", Server: "https://kubernetes.default.svc", Context: "mgmt-ctx"},
		{Name: "staging", Server: "https://staging.example.com", Context: "staging-ctx", Labels: map[string]string{"guestbook": "true"}},
	}, Clusters: map[string]string{"https://prod.example.com": "prod-ctx", "https://kubernetes.default.svc": "mgmt-ctx", "https://staging.example.com": "staging-ctx"}}
	got, err := Discover(context.Background(), repo, []config.Discover{entry})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, g := range got {
		names = append(names, g.Name+"@"+g.Context)
		if !g.Checked() {
			t.Errorf("%s: not checked: %s", g.Name, g.Reason)
		}
	}
	if s := strings.Join(names, " "); s != "guestbook-prod@prod-ctx guestbook-staging@staging-ctx" {
		t.Errorf("targets %s", s)
	}
	// The map form names no cluster's labels: the generator is listed,
	// not checked, saying what to give.
	entry.ClusterList = nil
	got, err = Discover(context.Background(), repo, []config.Discover{entry})
	if err != nil || len(got) != 1 || got[0].Checked() || !strings.Contains(got[0].Reason, "as a list of {name, server, context, labels}") {
		t.Errorf("map form: %+v %v", got, err)
	}
}
