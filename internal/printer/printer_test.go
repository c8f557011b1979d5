package printer

import (
	"errors"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/migrate"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

func TestPlanNamesWhoTakesWhat(t *testing.T) {
	web := model.ID{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	pl := &migrate.Plan{FieldManager: "deployer", Objects: []*migrate.ObjectPlan{{
		ID: web, Source: "deploy/web.yaml", ResourceVersion: "42",
		Items: []migrate.Item{{
			Path: `.spec.template.spec.initContainers[name="base-os-bash"]`,
			Owners: []model.FieldOwners{
				{Manager: model.Manager{Manager: "deployer", Operation: "Apply"}, Paths: []string{".image"}},
				{Manager: model.Manager{Manager: "Go-http-client", Operation: "Update"}, Paths: []string{".command"}},
			},
			Gone: true,
		}},
	}}}
	var b strings.Builder
	Plan(&b, pl)
	MigrateSummary(&b, pl, false, nil)
	for _, want := range []string{
		"Deployment.apps/prod/web from deploy/web.yaml (resourceVersion 42)\n",
		"deployer takes the fields of Go-http-client (Update): it owns the item alone afterwards\n",
		"the config no longer has this item: the next deploy removes it whole\n",
		"plan: 1 object to migrate (0 already whole, 0 not in the cluster); nothing was changed: run again with --apply to do it\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in:\n%s", want, b.String())
		}
	}
}

func TestSnapshotListsIdentitiesAndWhere(t *testing.T) {
	cm := model.ID{Kind: "ConfigMap", Namespace: "default", Name: "app"}
	ns := model.ID{Kind: "Namespace", Name: "default"}
	snap := &snapshot.Snapshot{
		Index:   snapshot.Index{Environment: "staging", FieldManager: "deployer"},
		Commit:  "abc123",
		Objects: map[model.ID]*snapshot.Entry{cm: {}, ns: {}},
	}
	if !cm.Less(ns) {
		t.Fatalf("test assumes %s sorts before %s", cm, ns)
	}
	var b strings.Builder
	Snapshot(&b, snap, "ownership-snapshots", "origin")
	want := "snapshot staging: 2 objects (field manager deployer, source commit unknown)\n" +
		"  " + cm.String() + "\n  " + ns.String() + "\n" +
		"committed abc123 (branch ownership-snapshots, pushed to origin)\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	Warnings(&b, "ownership-check: ", []error{errors.New("render: cluster discovery unavailable")})
	if b.String() != "ownership-check: render: cluster discovery unavailable\n" {
		t.Errorf("warnings: %q", b.String())
	}
}
