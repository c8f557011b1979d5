package predict

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func TestPredictForbidden(t *testing.T) {
	testcluster.Require(t, cluster)
	_, admin := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, admin)
	// The deploy identity may read and patch ConfigMaps, but neither list
	// nor create them.
	create(t, admin, "", obj(t, `
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: patch-configmaps, namespace: `+ns+`}
rules:
- {apiGroups: [""], resources: [configmaps], verbs: [get, patch]}
`))
	create(t, admin, "", obj(t, `
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: deployer, namespace: `+ns+`}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: patch-configmaps}
subjects:
- {kind: ServiceAccount, name: deployer, namespace: `+ns+`}
`))
	existing := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: old, namespace: `+ns+`}, data: {k: v2}}`)
	create(t, admin, "before", obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: old, namespace: `+ns+`}, data: {k: v1}}`))
	fresh := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: fresh, namespace: `+ns+`}, data: {k: v}}`)

	cfg, err := cluster.ServiceAccountConfig(context.Background(), ns, "deployer")
	if err != nil {
		t.Fatal(err)
	}
	// A LIST threshold of 1 makes the engine try a LIST, which is refused,
	// and fall back to GETs.
	e, sa := engine(t, cfg, ClusterOptions{ListThreshold: 1})
	eventually(t, "RBAC in effect", func() error {
		ri, _ := sa.Resource(existing.Object.GroupVersionKind(), ns)
		_, err := ri.Get(context.Background(), "old", metav1.GetOptions{})
		return err
	})

	rs := predict(t, e, existing, fresh)
	if r := rs[0]; r.Err != nil || r.Live == nil || r.Predicted == nil {
		t.Errorf("ConfigMap old: err %v, live %v; want predicted with live read by GET", r.Err, r.Live != nil)
	}
	r := rs[1]
	if r.Err == nil || r.Err.Reason != "Forbidden" || r.Err.Code != 403 || r.Err.Op != OpDryRun {
		t.Fatalf("ConfigMap fresh: err %+v; want a Forbidden dry-run (creating needs create)", r.Err)
	}
	if !strings.Contains(r.Err.Message, "system:serviceaccount:"+ns+":deployer") {
		t.Errorf("message %q does not name the identity", r.Err.Message)
	}
	t.Logf("%v", r.Err)
}
