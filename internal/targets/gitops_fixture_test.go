package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestGitOpsFixtureTargetsJSON: targets --output json lists every target
// of the fixture in the spec's shape: a checked one with its field
// manager and cluster, one that is not with its reason. Offline, with an
// empty chart cache: the remote chart is not fetched, whatever the network.
func TestGitOpsFixtureTargetsJSON(t *testing.T) {
	newGitOpsRepo(t)
	var stdout, stderr bytes.Buffer
	if code := cli.Run("test", []string{"targets", "--output", "json", "--offline", "--chart-cache", t.TempDir()}, &stdout, &stderr); code != 0 {
		t.Fatalf("targets: exit %d: %s", code, stderr.String())
	}
	var rows []map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &rows); err != nil {
		t.Fatalf("%v\n%s", err, stdout.String())
	}
	keys := []string{"checked", "cluster", "fieldManager", "name", "object", "paths", "reason", "source"}
	notChecked := map[string]string{}
	for _, row := range rows {
		var got []string
		for k := range row {
			got = append(got, k)
		}
		slices.Sort(got)
		if !slices.Equal(got, keys) {
			t.Errorf("%v: keys %q, want %q", row["name"], got, keys)
		}
		name, _ := row["name"].(string)
		checked, _ := row["checked"].(bool)
		reason, _ := row["reason"].(string)
		if src := row["source"]; src != "flux" && src != "argocd" {
			t.Errorf("%s: source %v", name, src)
		}
		if row["object"] == "" || row["fieldManager"] == "" {
			t.Errorf("%s: no object or field manager: %v", name, row)
		}
		if _, ok := row["paths"].([]any); !ok {
			t.Errorf("%s: paths %v, want an array", name, row["paths"])
		}
		switch {
		case checked && (reason != "" || row["cluster"] == ""):
			t.Errorf("%s: checked with reason %q and cluster %q", name, reason, row["cluster"])
		case !checked && reason == "":
			t.Errorf("%s: not checked, and no reason", name)
		case !checked:
			notChecked[name] = reason
		}
	}
	// 26 with data-dag-sync, which data-platform's kustomization makes.
	if len(rows) != 26 {
		t.Errorf("%d targets, want the fixture's 26", len(rows))
	}
	if _, ok := notChecked["data-dag-sync"]; ok || !slices.ContainsFunc(rows, func(r map[string]any) bool { return r["name"] == "data-dag-sync" }) {
		t.Errorf("data-dag-sync, the Application data-platform's kustomization makes: not listed, or not checked (%q)", notChecked["data-dag-sync"])
	}
	for _, name := range []string{"HelmRelease/redis.apps", "external-dns", "flux-system/monitoring", "flux-system/reports", "payments-worker"} {
		if notChecked[name] == "" {
			t.Errorf("%s: listed as checked or not at all; not checked: %q", name, notChecked)
		}
	}
	managers := map[string]string{"staging/flux-system/apps": "kustomize-controller", "guestbook-staging": "argocd-controller", "HelmRelease/redis.apps": "helm-controller", "HelmRelease/frontend.web": "helm-controller", "frontend-production": "argocd-controller"}
	for _, row := range rows {
		if m, ok := managers[row["name"].(string)]; ok && row["fieldManager"] != m {
			t.Errorf("%s: field manager %v, want %s", row["name"], row["fieldManager"], m)
		}
	}
	// The Helm forms: a HelmRelease and an Application of the chart in
	// this repository are checked; a HelmRelease of a HelmRepository's
	// chart not in the cache is not, and names that source (why it is not
	// fetched is the fetcher's to say).
	for _, name := range []string{"HelmRelease/frontend.web", "frontend-production"} {
		if _, no := notChecked[name]; no {
			t.Errorf("%s: not checked: %s", name, notChecked[name])
		}
	}
	if r := notChecked["HelmRelease/redis.apps"]; !strings.Contains(r, "HelmRepository flux-system/bitnami") {
		t.Errorf("HelmRelease/redis.apps: reason %q, want the HelmRepository named", r)
	}
}

// TestGitOpsFixtureArgoRender: an Argo CD target's render carries what
// the controller adds: its app's tracking annotation on every object, the
// destination namespace where the manifest has none, and the
// Application's kustomize overrides.
func TestGitOpsFixtureArgoRender(t *testing.T) {
	r := newGitOpsRepo(t)
	n := 0
	for _, s := range r.list() {
		if s.Source != delivery.ControllerArgoCD || !s.Checked() {
			continue
		}
		n++
		got := r.render(s)
		if len(got.byID) == 0 || got.err != nil {
			t.Errorf("%s: rendered nothing (%v %q)", s.Name, got.err, got.warnings)
		}
		for id, obj := range got.byID {
			u := unstructured.Unstructured{Object: obj}
			gvk := u.GroupVersionKind()
			want := fmt.Sprintf("%s:%s/%s:%s/%s", s.Name, gvk.Group, gvk.Kind, u.GetNamespace(), u.GetName())
			if a := u.GetAnnotations()["argocd.argoproj.io/tracking-id"]; a != want {
				t.Errorf("%s: %s: tracking-id %q, want %q", s.Name, id, a, want)
			}
		}
	}
	if n < 8 {
		t.Errorf("%d Argo CD targets checked, want the fixture's", n)
	}
	var staging targets.Target
	for _, s := range r.list() {
		if s.Name == "guestbook-staging" {
			staging = s
		}
	}
	got := r.render(staging)
	dep, ok := got.byID["Deployment.apps/guestbook/stg-guestbook-ui"]
	if !ok {
		t.Fatalf("guestbook-staging: no Deployment guestbook/stg-guestbook-ui (namePrefix, destination namespace): %v", keysOf(got.byID))
	}
	if _, ok := got.byID["Service/guestbook/stg-guestbook-ui"]; !ok {
		t.Errorf("guestbook-staging: no Service guestbook/stg-guestbook-ui: %v", keysOf(got.byID))
	}
	u := unstructured.Unstructured{Object: dep}
	containers, _, _ := unstructured.NestedSlice(dep, "spec", "template", "spec", "containers")
	if len(containers) != 1 {
		t.Fatalf("containers %v", containers)
	}
	c := containers[0].(map[string]any)
	if c["image"] != "gcr.io/heptio-images/ks-guestbook-demo:0.3" {
		t.Errorf("image %v, want the Application's 0.3", c["image"])
	}
	if port, _, _ := unstructured.NestedInt64(c["ports"].([]any)[0].(map[string]any), "containerPort"); port != 8080 {
		t.Errorf("containerPort %d, want the Application's patch's 8080", port)
	}
	if replicas, _, _ := unstructured.NestedInt64(dep, "spec", "replicas"); replicas != 2 {
		t.Errorf("replicas %d, want the Application's 2", replicas)
	}
	if l := u.GetLabels(); l["team"] != "web" || l["environment"] != "staging" {
		t.Errorf("labels %v, want the Application's team=web over the overlay's", l)
	}
	if a := u.GetAnnotations(); a["example.com/pager"] != "web-oncall" {
		t.Errorf("annotations %v, want the Application's pager", a)
	}

	// Without its kustomize namespace, echo's manifests (which set none)
	// land in the destination namespace.
	r.edit("argocd/appsets/echo.yaml", "          namespace: echo\n", "")
	defer r.Restore()
	for _, s := range r.list() {
		if s.Name != "echo-staging" {
			continue
		}
		got := r.render(s)
		if _, ok := got.byID["Deployment.apps/echo/echo-server"]; !ok || len(got.byID) != 2 {
			t.Errorf("echo-staging without its kustomize namespace: %v, want its Deployment and Service in echo", keysOf(got.byID))
		}
	}
}

func keysOf(m map[string]map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestGitOpsFixtureSelect: on the fixture, with each target's snapshot
// recording what its render reads, a change to an app's base selects
// exactly the targets that render it, and a change to a Kustomization's
// file exactly that target and the Kustomization that applies the file.
// A target without a record is checked anyway, with the reason.
func TestGitOpsFixtureSelect(t *testing.T) {
	r := newGitOpsRepo(t)
	var recorded []string
	for _, s := range r.list() {
		// The production apps' substitution source is encrypted: it is
		// never rendered here, so a deploy never records it.
		if s.Checked() && s.Name != "production/flux-system/apps" {
			recorded = append(recorded, s.Name)
		}
	}
	r.recordInputs(recorded...)
	selected := func() map[string]string {
		t.Helper()
		sel, err := targets.Select(context.Background(), r.cfg, targets.SelectOptions{ChangedFrom: r.base, SnapshotRepo: r.snapshots, SnapshotBranch: "ownership-snapshots"})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range sel.Targets {
			out[s.Name] = s.Why
		}
		return out
	}
	names := func(m map[string]string) string {
		var out []string
		for k := range m {
			out = append(out, k)
		}
		slices.Sort(out)
		return strings.Join(out, " ")
	}
	const prodApps = "production/flux-system/apps"

	got := selected()
	if names(got) != prodApps || !strings.Contains(got[prodApps], "no record") {
		t.Errorf("no change: %v, want the target without a record alone, with the reason", got)
	}

	r.edit("apps/base/podinfo/deployment.yaml", "revisionHistoryLimit: 5", "revisionHistoryLimit: 6")
	got = selected()
	if want := prodApps + " staging/flux-system/apps"; names(got) != want {
		t.Errorf("podinfo's base: %v, want %s", got, want)
	}
	if !strings.Contains(got["staging/flux-system/apps"], "apps/base/podinfo/deployment.yaml") {
		t.Errorf("podinfo's base: why %q", got["staging/flux-system/apps"])
	}
	r.Restore()

	r.edit("apps/guestbook/base/deployment.yaml", "revisionHistoryLimit: 3", "revisionHistoryLimit: 4")
	if got, want := names(selected()), "guestbook-production guestbook-staging "+prodApps; got != want {
		t.Errorf("guestbook's base: %s, want %s", got, want)
	}
	r.Restore()

	r.edit("clusters/staging/apps.yaml", "interval: 10m", "interval: 5m")
	got = selected()
	if want := prodApps + " staging/flux-system/apps staging/flux-system/flux-system"; names(got) != want {
		t.Errorf("clusters/staging/apps.yaml: %v, want %s", got, want)
	}
	if !strings.Contains(got["staging/flux-system/apps"], "its GitOps object changed") || !strings.Contains(got["staging/flux-system/flux-system"], "clusters/staging/apps.yaml") {
		t.Errorf("clusters/staging/apps.yaml: why %q", got)
	}
	r.Restore()
}

// TestGitOpsFixtureFluxRender: render --target of each checked Flux
// target (as the command resolves and renders it, with no cluster) gives
// objects that carry the controller's owner labels, the one whose
// substitution source is SOPS-encrypted included: its values stand in as
// placeholders (docs/security.md), none of SOPS's text is substituted.
// That its objects are the controller's library's is the render
// package's TestFluxRenderOfGitOpsFixture.
func TestGitOpsFixtureFluxRender(t *testing.T) {
	r := newGitOpsRepo(t)
	n := 0
	for _, s := range r.list() {
		if s.Source != delivery.ControllerFlux || !s.Checked() || s.FieldManager != "kustomize-controller" {
			continue
		}
		n++
		got := r.render(s)
		ks := unstructured.Unstructured{Object: s.Deployer.Object}
		if s.Name == "production/flux-system/apps" {
			for id, obj := range got.byID {
				if text := fmt.Sprint(obj); strings.Contains(text, "ENC[") {
					t.Errorf("%s: %s holds SOPS's text: %s", s.Name, id, text)
				}
			}
		}
		if len(got.byID) == 0 || got.err != nil {
			t.Errorf("%s: rendered nothing (%v %q)", s.Name, got.err, got.warnings)
		}
		for id, obj := range got.byID {
			l := (&unstructured.Unstructured{Object: obj}).GetLabels()
			if l["kustomize.toolkit.fluxcd.io/name"] != ks.GetName() || l["kustomize.toolkit.fluxcd.io/namespace"] != ks.GetNamespace() {
				t.Errorf("%s: %s: owner labels %v", s.Name, id, l)
			}
		}
	}
	if n != 7 {
		t.Errorf("%d Flux targets rendered, want the fixture's 7", n)
	}
}
