package deployers_test

import (
	"context"
	"io"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// helm/helm#31516: Helm v4.0.0 created an object its server-side release
// added with a plain create, recorded as an Update by helm. Helm merges
// client-side managers only at the first server-side upgrade of a release
// applied client-side, so at the next upgrade of this one helm's Apply
// meets helm's Update as another manager: a field whose value the chart
// changes conflicts, and the upgrade fails without --force-conflicts.
func TestHelm4ServerSideReleaseObjectCreatedByUpdate(t *testing.T) {
	for _, c := range []struct {
		name  string
		apply delivery.ApplyMethod
		flags []string
	}{
		{"auto", delivery.ApplyMethod{Resolve: delivery.ResolveHelm}, nil},
		{"server-side=true", config.ForHelm(delivery.ApplyMethod{Method: delivery.ApplyServerSide,
			Why: "helm upgrade --server-side=true, without --force-conflicts"}), []string{"--server-side=true"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, "helm4-31516-"+strings.TrimSuffix(strings.ReplaceAll(c.name, "=", "-"), "-true"))
			if out, err := e.helm4("helm", "install", release, chartDir(t)); err != nil {
				t.Fatalf("helm install: %v\n%s", err, out)
			}
			createdByUpdate(e, "ConfigMap", "settings", "helm")
			head := e.helmRender("v2.yaml", "mode=slow")
			p := e.predict(head, "helm", c.apply, "")
			if m := p.method; m.Method != delivery.ApplyServerSide || m.Force || !m.ReleaseServerSide {
				t.Errorf("resolved %+v, want server-side, not forced, of a release applied server-side", m)
			}

			out, err := e.helm4("helm", append([]string{"upgrade", release, chartDir(t), "--set", "mode=slow"}, c.flags...)...)
			if err == nil {
				t.Fatalf("helm upgrade succeeded, want the conflict with helm's own Update:\n%s", out)
			}
			if !strings.Contains(out, ".data.mode") || !strings.Contains(out, `conflict with "helm"`) {
				t.Errorf("helm's error does not name .data.mode and helm:\n%s", out)
			}
			if got := e.get("ConfigMap", "settings").Object["data"].(map[string]any)["mode"]; got != "fast" {
				t.Errorf("mode after the failed upgrade: %v, want fast", got)
			}
			t.Run("prediction", func(t *testing.T) {
				expectConflicts(t, p, []conflict{{"ConfigMap/settings", ".data.mode", "helm"}})
				expectRemedy(t, p, "ConfigMap/settings", "--field-manager helm --from-manager helm")
			})

			// The remedy: merge helm's Update into its Apply once; the
			// next upgrade then meets no conflict, as predicted.
			e.migrate(head, "helm", "helm")
			after := e.predict(head, "helm", c.apply, "")
			if out, err := e.helm4("helm", append([]string{"upgrade", release, chartDir(t), "--set", "mode=slow"}, c.flags...)...); err != nil {
				t.Fatalf("helm upgrade after the migrate: %v\n%s", err, out)
			}
			t.Run("prediction after migrate", func(t *testing.T) {
				if after.report.Failed {
					t.Errorf("the report still fails after the migrate: %v", findingsOf(after.report, model.DryRunError))
				}
				expectAsApplied(t, after, "Helm 4", e.get("ConfigMap", "settings"))
			})
		})
	}
}

// expectRemedy: the refusal of key names the way out.
func expectRemedy(t *testing.T, p prediction, key, want string) {
	t.Helper()
	for _, o := range p.report.Objects {
		for _, f := range o.Findings {
			if o.Kind+"/"+o.Name == key && f.Category == model.DryRunError && strings.Contains(f.Remediation, want) {
				return
			}
		}
	}
	t.Errorf("%s: no refusal whose remedy says %q", key, want)
}

// migrate runs ownership-check migrate --apply over path, merging the
// from managers into fieldManager.
func (e *env) migrate(path, fieldManager string, from ...string) {
	e.t.Helper()
	_, err := command.Migrate(context.Background(), check.MigrateOptions{
		Target: check.Target{FieldManager: fieldManager, Environment: e.ns, Cluster: check.Cluster{Kubeconfig: e.kubeconfig, Namespace: e.ns},
			Snapshot: runstate.Branch{Repo: e.repo}},
		Paths: []string{path}, FromManagers: from, Apply: true,
	}, check.RunOptions{}, io.Discard)
	if err != nil {
		e.t.Fatalf("migrate: %v", err)
	}
}

// createdByUpdate makes the object again as Helm v4.0.0 made an object
// its upgrade added: the same content, with a plain create under manager,
// which the server records as an Update.
func createdByUpdate(e *env, kind, name, manager string) {
	e.t.Helper()
	u := e.get(kind, name)
	u.SetManagedFields(nil)
	u.SetResourceVersion("")
	u.SetUID("")
	u.SetCreationTimestamp(metav1.Time{})
	res := e.dyn.Resource(resources[kind]).Namespace(e.ns)
	ctx := context.Background()
	if err := res.Delete(ctx, name, metav1.DeleteOptions{}); err != nil {
		e.t.Fatal(err)
	}
	if _, err := res.Create(ctx, u, metav1.CreateOptions{FieldManager: manager}); err != nil {
		e.t.Fatal(err)
	}
	var ops []string
	for _, m := range e.get(kind, name).GetManagedFields() {
		ops = append(ops, m.Manager+"/"+string(m.Operation))
	}
	if !slices.Equal(ops, []string{manager + "/Update"}) {
		e.t.Fatalf("%s/%s after the plain create: managers %v, want %s/Update alone", kind, name, ops, manager)
	}
}
