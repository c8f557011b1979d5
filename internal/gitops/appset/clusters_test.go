package appset

import (
	"context"
	"strings"
	"testing"
)

// registered are the clusters a discover entry lists, as Argo CD's
// cluster Secrets would register them.
var registered = []Cluster{
	{Name: "in-cluster", Server: "https://kubernetes.default.svc", Labels: map[string]string{"env": "mgmt"}},
	{Name: "Prod_EU", Server: "https://prod-eu.example.com", Labels: map[string]string{"env": "prod", "region": "eu"}, Annotations: map[string]string{"team": "sre"}},
	{Name: "staging", Server: "https://staging.example.com", Labels: map[string]string{"env": "staging"}},
}

// TestExpandClustersGenerator: a clusters generator over the listed
// clusters, as the controller's ClusterGenerator: name, nameNormalized,
// server, the labels and annotations and the values rendered with them;
// its selector's matchLabels and matchExpressions pick clusters by label.
func TestExpandClustersGenerator(t *testing.T) {
	repo := fixtureRepo
	repo.Clusters = registered
	cases := []struct{ name, spec, want string }{
		{"every cluster", `  generators:
  - clusters:
      values: {revision: main}
  template:
    metadata: {name: 'guestbook-{{nameNormalized}}'}
    spec:
      source: {repoURL: https://github.com/example/gitops.git, path: 'apps/{{metadata.labels.env}}', targetRevision: '{{values.revision}}'}
      destination: {server: '{{server}}', namespace: guestbook}
`, "guestbook-in-cluster https://kubernetes.default.svc guestbook apps/mgmt|guestbook-prod-eu https://prod-eu.example.com guestbook apps/prod|guestbook-staging https://staging.example.com guestbook apps/staging"},
		{"matchLabels and matchExpressions", `  generators:
  - clusters:
      selector:
        matchLabels: {region: eu}
        matchExpressions: [{key: env, operator: In, values: [prod, staging]}]
  template:
    metadata: {name: 'guestbook-{{name}}-{{metadata.annotations.team}}'}
    spec:
      source: {repoURL: https://github.com/example/gitops.git, path: apps}
      destination: {name: '{{name}}', namespace: guestbook}
`, "guestbook-Prod_EU-sre - guestbook apps"},
		{"goTemplate", `  goTemplate: true
  generators:
  - clusters:
      selector: {matchExpressions: [{key: env, operator: NotIn, values: [mgmt]}]}
      values: {path: 'apps/{{ .metadata.labels.env }}'}
  template:
    metadata: {name: 'guestbook-{{ .nameNormalized }}'}
    spec:
      source: {repoURL: https://github.com/example/gitops.git, path: '{{ .values.path }}'}
      destination: {server: '{{ .server }}', namespace: guestbook}
`, "guestbook-prod-eu https://prod-eu.example.com guestbook apps/prod|guestbook-staging https://staging.example.com guestbook apps/staging"},
	}
	for _, c := range cases {
		apps, reason, err := Expand(context.Background(), repo, parseAppSet(t, appSetHead+c.spec))
		if err != nil || reason != "" {
			t.Errorf("%s: %v %q", c.name, err, reason)
			continue
		}
		var got []string
		for _, a := range apps {
			got = append(got, summary(a))
		}
		if g := strings.Join(got, "|"); g != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, g, c.want)
		}
	}
	// Without the entry's list, the registrations are not known.
	_, reason, err := Expand(context.Background(), fixtureRepo, parseAppSet(t, appSetHead+cases[0].spec))
	if err != nil || !strings.Contains(reason, "clusters generator") || !strings.Contains(reason, "give the discover entry's clusters as a list") {
		t.Errorf("no clusters listed: %v %q", err, reason)
	}
}
