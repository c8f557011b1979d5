package targets_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// shopApplication is an Argo CD Application whose destination namespace
// the cluster does not have; syncOptions is its sync options' YAML list.
func shopApplication(syncOptions string) string {
	return `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: shop
  namespace: argocd
spec:
  project: default
  source:
    repoURL: https://github.com/example/platform.git
    targetRevision: main
    path: apps/echo
  destination:
    server: https://staging.k8s.example.com
    namespace: shop-new
  syncPolicy:
    syncOptions: ` + syncOptions + `
    managedNamespaceMetadata:
      labels:
        team: shop
`
}

// checkTargets runs check --output json on the targets and decodes the
// reports of those checked by environment.
func checkTargets(t *testing.T, snapshots string, args ...string) (int, map[string]report.Report, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := cli.Run("test", append([]string{"check", "--output", "json", "--snapshot-repo", snapshots}, args...), &stdout, &stderr)
	var reps []report.Report
	if err := json.Unmarshal(stdout.Bytes(), &reps); err != nil {
		t.Fatalf("check %v: exit %d: %v\n%s\n%s", args, code, err, stdout.String(), stderr.String())
	}
	byEnv := map[string]report.Report{}
	for _, rep := range reps {
		byEnv[rep.Environment] = rep
	}
	return code, byEnv, stdout.String() + stderr.String()
}

// TestArgoCDCreatesNamespace: an Application with CreateNamespace=true
// whose namespace the cluster lacks passes: the Namespace is a create,
// with managedNamespaceMetadata's labels, and the objects in it are new,
// as Argo CD creates it before it applies them; without the option the
// same objects are refused, as Argo CD's sync would be. The Namespace is
// the pull request's only when it turns the option on.
func TestArgoCDCreatesNamespace(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	r.Write("argocd/shop.yaml", shopApplication("[CreateNamespace=true, ServerSideApply=true]"))
	base := r.Commit("the shop Application")
	code, reps, out := checkTargets(t, r.snapshots, "--target", "shop", "--base", base)
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s", code, out)
	}
	rep := reps["shop"]
	if rep.Summary.Objects < 2 || rep.Summary.Changes.Create != rep.Summary.Objects {
		t.Errorf("shop: %+v, want every object created", rep.Summary)
	}
	if !rep.Unchanged {
		t.Errorf("shop: the pull request is said to change something; it changes nothing")
	}
	for _, o := range rep.Objects {
		if o.Kind == "Namespace" {
			if o.Name != "shop-new" || o.Change != model.ChangeCreate || !strings.Contains(strings.Join(o.Notes, " "), "CreateNamespace=true") {
				t.Errorf("%s: %s %q, want Namespace shop-new created, saying why", o.Display(), o.Change, o.Notes)
			}
			continue
		}
		if len(o.Findings) != 1 || o.Findings[0].Category != model.New || !strings.Contains(o.Findings[0].Message, "Namespace/shop-new") {
			t.Errorf("%s: %+v, want new, blocked until the namespace Argo CD creates exists", o.Display(), o.Findings)
		}
		if o.Findings[0].Cause != model.CauseCluster {
			t.Errorf("%s: cause %s, want cluster: the pull request changes nothing", o.Display(), o.Findings[0].Cause)
		}
	}

	r.Write("argocd/shop.yaml", shopApplication("[ServerSideApply=true]"))
	code, reps, out = checkTargets(t, r.snapshots, "--target", "shop")
	if code != 1 || reps["shop"].Summary.Count(model.DryRunError) == 0 {
		t.Errorf("without CreateNamespace=true: exit %d, want 1 on the missing namespace\n%s", code, out)
	}
}

// TestFirstRunFailsOnlyWhatItCauses: a first run, with no snapshot of any
// target, of a pull request that changes one target's Deployment: a
// target whose namespace the cluster lacks (the environment is not
// deployed) is refused on every pull request alike, so it is a finding for
// the environment and fails nothing; the pull request's own change passes.
func TestFirstRunFailsOnlyWhatItCauses(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	const (
		apps   = "staging/flux-system/apps"
		legacy = "flux-system/legacy-jobs"
	)
	r.edit("apps/base/podinfo/deployment.yaml", "memory: 64Mi", "memory: 96Mi")
	code, reps, out := checkTargets(t, r.snapshots, "--base", r.base, "--target", apps+","+legacy)
	if code != 0 {
		t.Fatalf("exit %d, want 0: nothing fails that the pull request did not cause\n%s", code, out)
	}
	rep := reps[legacy]
	if rep.Snapshot.Found || rep.Summary.Count(model.DryRunError) == 0 || rep.Failed {
		t.Fatalf("%s: %+v, want its refusals on the namespace the cluster lacks, failing nothing", legacy, rep.Summary)
	}
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if f.Category == model.DryRunError && (f.Cause != model.CauseCluster || !strings.Contains(f.Message, `namespaces "batch" not found`)) {
				t.Errorf("%s: %+v, want the cluster's refusal", o.Display(), f)
			}
		}
	}
	if reps[apps].Failed || reps[apps].Unchanged {
		t.Errorf("%s: failed %v, unchanged %v; want the pull request's change, passing", apps, reps[apps].Failed, reps[apps].Unchanged)
	}
}

// TestFluxAppliesNamespacesFirst: kustomize-controller applies the
// Namespaces of a render before the rest, in one apply: objects in a
// namespace the same render creates are new, never refused.
func TestFluxAppliesNamespacesFirst(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	r.Write("apps/fresh/namespace.yaml", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: fresh\n")
	r.Write("apps/fresh/settings.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: fresh\ndata:\n  mode: fast\n")
	r.Write("clusters/staging/fresh.yaml", fluxKustomization("fresh", "./apps/fresh"))
	code, reps, out := checkTargets(t, r.snapshots, "--target", "flux-system/fresh")
	if code != 0 {
		t.Fatalf("exit %d, want 0\n%s", code, out)
	}
	rep := reps["flux-system/fresh"]
	if rep.Summary.Objects != 2 || rep.Summary.Changes.Create != 2 || rep.Summary.Count(model.DryRunError) != 0 {
		t.Errorf("%+v, want the Namespace and its ConfigMap created", rep.Summary)
	}
}

// fluxKustomization is a Kustomization of this repository's path.
func fluxKustomization(name, path string) string {
	return `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: ` + name + `
  namespace: flux-system
spec:
  interval: 10m
  sourceRef:
    kind: GitRepository
    name: flux-system
  path: ` + path + `
  prune: true
`
}
