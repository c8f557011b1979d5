package targets_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

// externalTarget is the fleet's target whose source is another repository.
const externalTarget = "flux-system/external"

// fleet is a GitOps repository as discovery would see it: the monorepo's
// apps, one Flux Kustomization per app and environment under clusters/
// (the prod ones substituting from clusters/prod/vars.yaml), and one
// Kustomization whose source is another repository. Its targets are built
// by hand, as discovery would make them; discovery answers with them until
// the test ends.
type fleet struct {
	*monorepo.Repo
	cfg   *config.Config
	found []gitops.Target
	base  string
}

func newFleet(t testing.TB, apps int) *fleet {
	t.Helper()
	f := &fleet{Repo: monorepo.NewRepo(t, apps, "fleet", deployer), cfg: &config.Config{Discover: []config.Discover{{Flux: "clusters", Context: "prod-cluster"}}}}
	f.Write(config.DefaultFile, "discover:\n- flux: clusters\n  context: prod-cluster\n")
	f.Write("clusters/prod/vars.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: vars, namespace: flux-system}\ndata: {region: eu}\n")
	for a := range apps {
		app := monorepo.App(a)
		for _, env := range monorepo.Overlays {
			file := fmt.Sprintf("clusters/%s/%s.yaml", env, app)
			path := fmt.Sprintf("apps/%s/overlays/%s", app, env)
			obj := map[string]any{"apiVersion": "kustomize.toolkit.fluxcd.io/v1", "kind": "Kustomization",
				"metadata": map[string]any{"name": app + "-" + env, "namespace": "flux-system"},
				"spec":     map[string]any{"path": "./" + path, "sourceRef": map[string]any{"kind": "GitRepository", "name": "flux-system"}}}
			f.Write(file, fmt.Sprintf("apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: %s-%s, namespace: flux-system}\nspec: {path: ./%s, sourceRef: {kind: GitRepository, name: flux-system}}\n", app, env, path))
			inputs := []string{file}
			if env == "prod" {
				inputs = append(inputs, "clusters/prod/vars.yaml")
			}
			f.found = append(f.found, gitops.Target{
				Name: "flux-system/" + app + "-" + env, Source: delivery.ControllerFlux, Object: file, Paths: []string{path},
				FieldManager: "kustomize-controller", Context: "prod-cluster",
				Deployer: &delivery.Deployer{Controller: delivery.ControllerFlux, Object: obj, File: file}, Inputs: inputs, Dir: "clusters",
			})
		}
	}
	f.Write("clusters/prod/external.yaml", "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: external, namespace: flux-system}\nspec: {path: ./deploy, sourceRef: {kind: GitRepository, name: other}}\n")
	f.found = append(f.found, gitops.Target{
		Name: externalTarget, Source: delivery.ControllerFlux, Object: "clusters/prod/external.yaml", Paths: []string{"deploy"},
		FieldManager: "kustomize-controller", Context: "prod-cluster", Inputs: []string{"clusters/prod/external.yaml"},
		Reason: "its source is another repository (https://github.com/org/other)",
	})
	f.base = f.Commit("fleet")
	t.Cleanup(targets.UseDiscovery(func(_ context.Context, repo gitops.Repository, entries []config.Discover) ([]gitops.Target, error) {
		if len(entries) != 1 || entries[0].Flux != "clusters" || repo.Root == "" {
			return nil, fmt.Errorf("discovery asked for %+v in %+v", entries, repo)
		}
		return f.found, nil
	}))
	return f
}

// record writes each checked target's snapshot record of what its render
// read, as snapshot does after a deploy.
func (f *fleet) record(t testing.TB) {
	t.Helper()
	ctx := context.Background()
	store, err := snapshot.Open(ctx, f.Dir, "ownership-snapshots")
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	for _, g := range f.found {
		if !g.Checked() {
			continue
		}
		app := g.Paths[0][len("apps/"):][:len("app00")]
		snap := &snapshot.Snapshot{Index: snapshot.Index{
			Environment: g.Name, FieldManager: g.FieldManager, SourceCommit: f.base,
			Secrets: snapshot.Hashing{Algorithm: "sha256", Salt: "test"},
			Inputs: &snapshot.Inputs{
				Files: []string{"apps/" + app + "/base/kustomization.yaml", "apps/" + app + "/base/settings.yaml",
					"components/common/kustomization.yaml", g.Paths[0] + "/kustomization.yaml"},
				Dirs: []string{"apps/" + app + "/base", "components/common", g.Paths[0]},
			},
		}}
		if _, err := store.Write(ctx, snap, "test"); err != nil {
			t.Fatal(err)
		}
	}
}
