package render

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/gitops"
	"github.com/ownership-check/ownership-check/internal/model"
)

// The GitOps fixture repository, and its origin: what makes its own
// GitRepository this repository.
const (
	gitopsFixture = "../../testdata/gitops"
	gitopsOrigin  = "https://github.com/example/platform.git"
)

// clusterValues are a cluster's substitution sources as the render reads
// them: the repository's cluster-vars ConfigMap; its Secret, when the
// repository has one, SOPS-encrypted and so withheld.
type clusterValues struct {
	cluster string
	values  fakeValues
}

func (c clusterValues) Values(_ context.Context, kind, namespace, name string, _ *model.StandIns) (map[string]string, string, bool, error) {
	file := "clusters/" + c.cluster + "/cluster-secrets.sops.yaml"
	if kind == "Secret" && name == "cluster-secrets" {
		if _, err := os.Stat(filepath.Join(gitopsFixture, file)); err == nil {
			return nil, file, true, &delivery.ValuesWithheld{Reason: name + " is encrypted with SOPS"}
		}
	}
	data, ok := c.values[kind+"/"+namespace+"/"+name]
	return data, "clusters/" + c.cluster + "/cluster-vars.yaml", ok, nil
}

// fixtureClusterValues reads a cluster folder's cluster-vars ConfigMap:
// the values kustomize-controller reads from the cluster it was applied to.
func fixtureClusterValues(t *testing.T, cluster string) clusterValues {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(gitopsFixture, "clusters", cluster, "cluster-vars.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cm struct {
		Data map[string]string `json:"data"`
	}
	if err := yaml.Unmarshal(data, &cm); err != nil {
		t.Fatal(err)
	}
	return clusterValues{cluster: cluster, values: fakeValues{"ConfigMap/flux-system/cluster-vars": cm.Data}}
}

// TestFluxRenderOfGitOpsFixture: every Flux Kustomization discovered in
// the fixture repository renders, object for object, as Flux's own
// library builds and substitutes it (then the controller's apply step),
// each object with the controller's owner labels; the one whose
// substitution source is SOPS-encrypted is not rendered, with the reason.
func TestFluxRenderOfGitOpsFixture(t *testing.T) {
	cfg, err := config.Load(filepath.Join(gitopsFixture, config.DefaultFile))
	if err != nil {
		t.Fatal(err)
	}
	found, err := gitops.Discover(context.Background(), gitops.Repository{Root: gitopsFixture, URLs: []string{gitopsOrigin}}, cfg.Discover)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range found {
		if g.Source != delivery.ControllerFlux || !g.Checked() || g.FieldManager != "kustomize-controller" {
			continue
		}
		n++
		t.Run(g.Name, func(t *testing.T) {
			if len(g.Paths) != 1 {
				t.Fatalf("paths %q", g.Paths)
			}
			values := fixtureClusterValues(t, g.Context)
			res, err := RenderAll(context.Background(), []string{filepath.Join(gitopsFixture, g.Paths[0])}, Options{Deployer: g.Deployer, Values: values})
			if err != nil {
				t.Fatal(err)
			}
			ks := unstructured.Unstructured{Object: g.Deployer.Object}
			if g.Name == "production/flux-system/apps" {
				if len(res.Objects) != 0 || len(res.NotRendered) != 1 || !strings.Contains(res.NotRendered[0].Reason, "encrypted with SOPS") {
					t.Errorf("a SOPS-encrypted substitution source: %d objects, not rendered %+v", len(res.Objects), res.NotRendered)
				}
				return
			}
			want, encrypted := libraryRenderIn(t, gitopsFixture, g.Deployer.Object, g.Paths[0], values.values)
			sameAsLibrary(t, res, want, encrypted)
			for _, o := range res.Objects {
				l := o.Object.GetLabels()
				if l["kustomize.toolkit.fluxcd.io/name"] != ks.GetName() || l["kustomize.toolkit.fluxcd.io/namespace"] != ks.GetNamespace() {
					t.Errorf("%s: owner labels %v, want %s/%s", o.ID, l, ks.GetNamespace(), ks.GetName())
				}
			}
		})
	}
	if n < 7 {
		t.Errorf("%d Flux targets checked, want the fixture's 7", n)
	}
}
