package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// crd is a namespaced custom kind that takes any fields: the kinds the
// fixture's targets deploy that the API server does not serve itself, as
// the cluster would have them installed.
func crd(group, version, kind string) map[string]any {
	plural := strings.ToLower(kind) + "s"
	return map[string]any{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": plural + "." + group},
		"spec": map[string]any{"group": group, "scope": "Namespaced",
			"names": map[string]any{"plural": plural, "singular": strings.ToLower(kind), "kind": kind, "listKind": kind + "List"},
			"versions": []any{map[string]any{"name": version, "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}
}

// TestGitOpsFixtureEndToEnd: discovered targets run the whole pipeline on
// a real API server. A Flux target deployed as kustomize-controller
// deploys it and an Argo CD target as Argo CD does are snapshotted and
// checked clean; a change to the Flux app's base shows as its rollout in
// exactly that target; another manager's scale shows as drift.
func TestGitOpsFixtureEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	ctx := context.Background()
	c := newGitOpsCluster(t)
	const (
		flux = "staging/flux-system/apps"
		argo = "guestbook-staging"
		// The cluster folder's own Kustomization, which applies flux's
		// file: a name of three levels.
		sync = "staging/flux-system/flux-system"
		all  = flux + "," + argo + "," + sync
	)
	run := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		args = append(args, "--snapshot-repo", r.snapshots)
		code := cli.Run("test", args, &stdout, &stderr)
		return code, stdout.String(), stderr.String()
	}
	byName := map[string]targets.Target{}
	for _, s := range r.list() {
		byName[s.Name] = s
	}
	// Each deployed as its controller deploys it.
	for _, name := range []string{flux, argo, sync} {
		c.deploy(byName[name])
	}
	checkJSON := func(t *testing.T, wantCode int, args ...string) map[string]report.Report {
		t.Helper()
		code, out, errOut := run(append([]string{"check", "--output", "json"}, args...)...)
		if code != wantCode {
			t.Fatalf("check %v: exit %d, want %d\n%s\n%s", args, code, wantCode, out, errOut)
		}
		var reps []report.Report
		if err := json.Unmarshal([]byte(out), &reps); err != nil {
			t.Fatalf("check %v: %v\n%s", args, err, out)
		}
		byEnv := map[string]report.Report{}
		for _, rep := range reps {
			byEnv[rep.Environment] = rep
		}
		return byEnv
	}

	t.Run("snapshot", func(t *testing.T) {
		if code, out, errOut := run("snapshot", "--target", all, "--source-commit", r.base); code != 0 {
			t.Fatalf("snapshot: exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("clean", func(t *testing.T) {
		reps := checkJSON(t, 0, "--target", all)
		if len(reps) != 3 {
			t.Fatalf("reports %v, want both targets'", keys(reps))
		}
		for name, rep := range reps {
			if rep.FieldManager != byName[name].FieldManager || !rep.Snapshot.Found || rep.Summary.Objects == 0 {
				t.Errorf("%s: manager %s, snapshot %v, %d objects", name, rep.FieldManager, rep.Snapshot.Found, rep.Summary.Objects)
			}
			for _, o := range rep.Objects {
				// The fixture's podinfo sets replicas beside its HPA: a
				// true finding that fails nothing.
				o.Findings = slices.DeleteFunc(o.Findings, func(f model.Finding) bool {
					return o.Kind == "Deployment" && f.Category == model.Fight && f.Path == ".spec.replicas"
				})
				if len(o.Findings) > 0 {
					t.Errorf("%s: %s %s: findings %+v after its controller's deploy", name, o.Kind, o.Name, o.Findings)
				}
			}
			if rep.Summary.Rollouts != 0 || rep.Summary.Changes.Update != 0 || rep.Summary.Changes.Create != 0 {
				t.Errorf("%s: %+v after its controller's deploy", name, rep.Summary)
			}
		}
	})
	t.Run("base changed", func(t *testing.T) {
		r.edit("apps/base/podinfo/deployment.yaml", "memory: 64Mi", "memory: 96Mi")
		defer r.Restore()
		reps := checkJSON(t, 0, "--changed-from", "HEAD", "--target", all)
		if got := keys(reps); !slices.Equal(got, []string{flux}) {
			t.Fatalf("checked %v, want %s alone", got, flux)
		}
		if rep := reps[flux]; rep.Summary.Rollouts != 1 || rep.Summary.Changes.Update != 1 {
			t.Errorf("%s: %+v, want podinfo's rollout", flux, rep.Summary)
		}
	})
	t.Run("Kustomization changed", func(t *testing.T) {
		r.edit("clusters/staging/apps.yaml", "interval: 10m", "interval: 5m")
		defer r.Restore()
		reps := checkJSON(t, 0, "--changed-from", "HEAD", "--target", all)
		if got := keys(reps); !slices.Equal(got, []string{flux, sync}) {
			t.Fatalf("checked %v, want %s and %s", got, flux, sync)
		}
		if rep := reps[sync]; rep.Summary.Changes.Update != 1 || rep.Summary.Rollouts != 0 {
			t.Errorf("%s: %+v, want the apps Kustomization's update", sync, rep.Summary)
		}
		if rep := reps[flux]; rep.Summary.Changes.Update != 0 || rep.Summary.Rollouts != 0 {
			t.Errorf("%s: %+v, want no change: its objects are the same", flux, rep.Summary)
		}
	})
	t.Run("the Kustomization's own change is the pull request's", func(t *testing.T) {
		// The base renders with the base's Kustomization: an image bump in
		// the object itself is this pull request's change, never the
		// environment's.
		r.edit("clusters/staging/apps.yaml", "newTag: 6.7.1", "newTag: 6.7.2")
		defer r.Restore()
		reps := checkJSON(t, 0, "--target", flux, "--base", "HEAD")
		rep := reps[flux]
		if rep.Summary.Rollouts != 1 {
			t.Fatalf("%s: %+v, want podinfo's rollout for the image", flux, rep.Summary)
		}
		if rep.Unchanged {
			t.Errorf("%s: the pull request is said to change nothing", flux)
		}
	})
	t.Run("drift", func(t *testing.T) {
		// kubectl scale: another manager's update of the replicas.
		res, err := c.client.Resource(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "apps")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := res.Patch(ctx, "podinfo", types.MergePatchType, []byte(`{"spec":{"replicas":5}}`), metav1.PatchOptions{FieldManager: "kubectl"}, "scale"); err != nil {
			t.Fatal(err)
		}
		reps := checkJSON(t, 1, "--target", flux)
		if rep := reps[flux]; rep.Summary.Counts[model.Drift] != 1 {
			t.Errorf("%s: %+v, want the scale as drift", flux, rep.Summary)
		}
	})
}

func keys(m map[string]report.Report) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
