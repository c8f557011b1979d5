package report

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

func TestCoverageLine(t *testing.T) {
	var c Coverage
	c.AddChecked(UnitKustomization, []model.ID{{Group: "apps", Kind: "Deployment", Name: "web"}, {Kind: "Service", Name: "web"}})
	c.AddChecked(UnitApplication, []model.ID{{Group: "batch", Kind: "CronJob", Name: "nightly"}})
	c.AddNotChecked(UnitApplication, "path apps/x: a config management plugin renders it, which is not run here")
	c.AddNotChecked(UnitApplication, "jsonnet: Argo CD evaluates it, which is not reproduced here")
	c.AddNotChecked(UnitKustomization, "values/secret.yaml is encrypted with SOPS (age): its values are never decrypted here")
	c.AddNotChecked(UnitApplication, "path y: a config management plugin renders it")
	c.AddNotTargets([]NotTarget{{Unit: UnitHelmRelease, File: "apps/x/helmrelease.yaml", Reason: "not a target of its own: Kustomization flux-system/x, which would apply it, is not checked: suspended"}})
	want := "coverage: 1 of 2 Kustomizations, 0 of 1 HelmRelease, 1 of 4 Applications checked, 3 objects, 2 workloads; 5 not checked: 2 plugin, 1 encrypted, 1 jsonnet, 1 suspended"
	if got := c.Line(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	one := Coverage{}
	one.AddChecked(UnitConfig, []model.ID{{Kind: "ConfigMap", Name: "x"}})
	if got, want := one.Line(), "coverage: 1 of 1 config target checked, 1 object, 0 workloads"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestReasonKind: a reason is counted by its own words, never by a name
// in it (an OCIRepository called generic-device-plugin is no plugin), and
// a failure by what failed, else as an error.
func TestReasonKind(t *testing.T) {
	for reason, want := range map[string]string{
		"its source is another repository (https://github.com/org/other)": "other repository",
		"suspended": "suspended",
		"chart podinfo: dependency redis not vendored under charts/ (run `helm dependency build`)": "unvendored dependency",
		"chart podinfo: host charts.example.com is not listed":                                     "chart",
		"chart podinfo 6.x from http://10.0.0.1/charts: 10.0.0.1 resolves to 10.0.0.1, private (10.0.0.0/8): an address of the runner's own network, which only a host listed under charts.hosts in the trusted config may be": "chart host unreachable",
		"chart podinfo 6.x from http://127.0.0.1:9/charts: 127.0.0.1:9 refused the connection: nothing listens there":                                                                                                          "chart host unreachable",
		"chart redis 99.x from https://charts.example.com: no version matches 99.x (latest 20.1.0)":                                                                                                                            "missing chart",
		"path ./apps/missing: not in the repository": "missing path",
		ReasonCouldNotCheck + ": render: boom":       "error",
		"something new":                              "other",
		"chart from OCIRepository kube-system/generic-device-plugin: it is not in the chart cache (--offline)":                                                                                               "chart",
		"chart hooks from HelmRepository flux-system/jsonnet: host charts.example.com not found (DNS)":                                                                                                       "chart host unreachable",
		"source GitRepository apps/suspended-team: not found beside it, so not known to be this repository":                                                                                                  "unknown source",
		"path apps/x: a config management plugin renders it, which is not run here":                                                                                                                          "plugin",
		"kubernetes/apps/a/ks.yaml: kubernetes/apps/a/app/kustomization.yaml: resources[0]: \"https://x/y.yaml\": a remote base":                                                                             "remote",
		"spec.kubeConfig: helm-controller releases it to another cluster, not the discover entry's":                                                                                                          "other cluster",
		ReasonCouldNotCheck + ": target HelmRelease/x.y: chart app-template 4.1.2: values.schema.json: the check does not reproduce $dynamicRef":                                                             "chart",
		"apps/x: render fails; and at the base: render fails too":                                                                                                                                            "error",
		"not a target of its own: Kustomization flux-system/x, which would apply it, does not render: remote base apps/x":                                                                                    "remote",
		"GitRepository apps/dev-team spec.ref.branch: no branch dev-team among the remote's":                                                                                                                 "revision",
		"kubernetes/apps/network/x/ks.yaml: postBuild.substituteFrom Secret network/x-secret: " + delivery.ValuesNotFound(delivery.ValuesRepositoryOnly):                                                     "no cluster",
		"kubernetes/apps/network/x/ks.yaml: postBuild.substituteFrom Secret network/x-secret: " + delivery.ValuesNotFound("cluster"):                                                                         "substitution",
		"metadata.name \"${APP}\" depends on APP, which flux-system/apps's postBuild substitutes from a source discovery cannot read (encrypted, or only in the cluster): it is not known what this deploys": "substitution",
		"not a target of its own: what renders of Kustomization flux-system/wallabag, which would apply it, leaves it out: apps/wallabag/helmrelease.yaml:3: a HelmRelease whose name or namespace is made from Secret flux-system/cluster-secrets key SECRET_INSTANCE, whose value a check never reads: not checked": "secret name",
		"spec.path depends on Secret flux-system/cluster-secrets key SECRET_DOMAIN, which flux-system/cluster-apps's postBuild substitutes and a check never reads: it is not known what this deploys":                                                                                                                "substitution",
	} {
		if got := ReasonKind(reason); got != want {
			t.Errorf("ReasonKind(%q) = %q, want %q", reason, got, want)
		}
	}
}

// TestCoverageOfReports: a check counts what its targets render, not what
// they delete nor a renamed object's old name, and a target that could
// not be checked as an error; every format of many ends with the line.
func TestCoverageOfReports(t *testing.T) {
	r := &Report{Environment: "prod", Objects: []Object{
		{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Change: model.ChangeUpdate},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "gone", Change: model.ChangeDelete},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cfg-a", Change: model.ChangeRename, Rename: &model.Rename{From: "cfg-a", To: "cfg-b"}},
		{APIVersion: "v1", Kind: "ConfigMap", Name: "cfg-b", Change: model.ChangeRename, Rename: &model.Rename{From: "cfg-a", To: "cfg-b"}},
	}}
	r.Summarize()
	es := []Entry{{Name: "prod", Report: r, Unit: UnitKustomization}, {Name: "x", Reason: "suspended", Unit: UnitKustomization}, {Name: "y", Err: errors.New("boom"), Unit: UnitHelmRelease}}
	const want = "coverage: 1 of 2 Kustomizations, 0 of 1 HelmRelease checked, 2 objects, 1 workload; 2 not checked: 1 error, 1 suspended"
	if got := CoverageOf(es).Line(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	var buf bytes.Buffer
	if err := WriteMany(&buf, es, "text", ManyOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(buf.String(), "\n"+want+"\n") {
		t.Errorf("text does not end with the coverage line:\n%s", buf.String())
	}
	if md := MarkdownMany(es, "3 of 3 targets checked", Tool{}); !strings.Contains(md, "\n\n"+mdProse(want)+".\n\n") {
		t.Errorf("markdown lacks the coverage line:\n%s", md)
	}
	buf.Reset()
	if err := WriteMany(&buf, es, "json", ManyOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"coverage": {`) {
		t.Errorf("JSON lacks coverage:\n%s", buf.String())
	}
}

// TestClusterNamed: the section heading, the text header and the JSON
// name a target's cluster.
func TestClusterNamed(t *testing.T) {
	r := &Report{Environment: "apps/web", Cluster: "staging-eu", FieldManager: "kustomize-controller", Objects: []Object{}}
	r.Summarize()
	if md := Markdown(r, MarkdownOptions{}); !strings.Contains(md, "### ⚠️ apps/web · cluster `staging-eu`") {
		t.Errorf("markdown heading:\n%s", md)
	}
	var buf bytes.Buffer
	_ = WriteText(&buf, r, TextOptions{})
	if !strings.Contains(buf.String(), "environment apps/web, cluster staging-eu,") {
		t.Errorf("text:\n%s", buf.String())
	}
	buf.Reset()
	_ = WriteJSON(&buf, r)
	if !strings.Contains(buf.String(), `"cluster": "staging-eu"`) {
		t.Errorf("JSON:\n%s", buf.String())
	}
	s := NotCheckedSection("apps/db", "suspended", Tool{}, MarkdownOptions{Cluster: "prod"})
	if out := s.Render(0); !strings.Contains(out, "apps/db · cluster `prod`") {
		t.Errorf("not-checked section:\n%s", out)
	}
}
