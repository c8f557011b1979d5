package predict

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestManagedFieldsOf: the managedFields of the objects that exist, as
// the API server recorded them (a create as an Update, a Server-Side Apply
// as an Apply); an absent object and a kind the server does not serve
// give none.
func TestManagedFieldsOf(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	created := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: created, namespace: `+ns+`}, data: {k: v}}`)
	applied := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: applied, namespace: `+ns+`}, data: {k: v}}`)
	create(t, kc, "helm", created)
	apply(t, kc, "helm", applied)
	absent := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: absent, namespace: `+ns+`}}`)
	unserved := obj(t, `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: `+ns+`}}`)

	got, err := e.ManagedFieldsOf(context.Background(), []model.Object{created, absent, applied, unserved})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("%d lists of entries, want 2 (the objects that exist): %v", len(got), got)
	}
	ops := map[string]bool{}
	for _, es := range got {
		for _, e := range es {
			if e.Manager == "helm" {
				ops[string(e.Operation)] = true
			}
		}
	}
	if !ops["Update"] || !ops["Apply"] {
		t.Errorf("helm's operations %v, want the create's Update and the apply's Apply", ops)
	}
}

// TestManagedFieldsOfForbidden: an object the checker may not read is
// left out, not a failure of the check: its dry-run is refused too.
func TestManagedFieldsOfForbidden(t *testing.T) {
	testcluster.Require(t, cluster)
	_, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	cm := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: hidden, namespace: `+ns+`}, data: {k: v}}`)
	apply(t, kc, "helm", cm)
	cfg, err := cluster.ServiceAccountConfig(context.Background(), ns, "reader")
	if err != nil {
		t.Fatal(err)
	}
	e, _ := engine(t, cfg, ClusterOptions{})
	got, err := e.ManagedFieldsOf(context.Background(), []model.Object{cm})
	if err != nil || len(got) != 0 {
		t.Errorf("entries %v, error %v; want none and no error", got, err)
	}
}
