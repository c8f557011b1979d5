package predict

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }

// engine returns a cluster engine on cfg with a fresh discovery cache.
func engine(t testing.TB, cfg *rest.Config, o ClusterOptions) (*Cluster, *kube.Client) {
	t.Helper()
	if o.FieldManager == "" {
		o.FieldManager = "deployer"
	}
	kc, err := kube.New(cfg, "default", o.Concurrency)
	if err != nil {
		t.Fatal(err)
	}
	return NewCluster(kc, o), kc
}

var nsCounter atomic.Int32

// namespace creates a namespace of its own for one test.
func namespace(t testing.TB, kc *kube.Client) string {
	t.Helper()
	name := fmt.Sprintf("%s-%d", strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())), nsCounter.Add(1))
	if len(name) > 63 {
		name = name[len(name)-63:]
		name = strings.TrimLeft(name, "-")
	}
	create(t, kc, "", obj(t, `{apiVersion: v1, kind: Namespace, metadata: {name: `+name+`}}`))
	return name
}

// create writes an object for real as an Update by manager (a
// Go-http-client create, say).
func create(t testing.TB, kc *kube.Client, manager string, o model.Object) *unstructured.Unstructured {
	t.Helper()
	ri, err := kc.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	out, err := ri.Create(context.Background(), o.Object, metav1.CreateOptions{FieldManager: manager})
	if err != nil {
		t.Fatalf("%s: create: %v", o.ID, err)
	}
	return out
}

// apply writes an object for real with a Server-Side Apply by manager.
func apply(t testing.TB, kc *kube.Client, manager string, o model.Object) *unstructured.Unstructured {
	t.Helper()
	ri, err := kc.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	out, err := ri.Apply(context.Background(), o.Object.GetName(), o.Object, metav1.ApplyOptions{FieldManager: manager, Force: true})
	if err != nil {
		t.Fatalf("%s: apply: %v", o.ID, err)
	}
	return out
}

func get(t testing.TB, kc *kube.Client, o model.Object) (*unstructured.Unstructured, error) {
	t.Helper()
	ri, err := kc.Resource(o.Object.GroupVersionKind(), o.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	return ri.Get(context.Background(), o.Object.GetName(), metav1.GetOptions{})
}

// owns tells whether manager (with operation op) owns the field path, in
// structured-merge-diff's string form, in u's managedFields.
func owns(t testing.TB, u *unstructured.Unstructured, manager, op, path string) bool {
	t.Helper()
	for _, e := range u.GetManagedFields() {
		if e.Manager != manager || string(e.Operation) != op || e.FieldsV1 == nil {
			continue
		}
		var set fieldpath.Set
		if err := set.FromJSON(strings.NewReader(string(e.FieldsV1.Raw))); err != nil {
			t.Fatal(err)
		}
		found := false
		set.Leaves().Iterate(func(p fieldpath.Path) {
			if p.String() == path {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return false
}

// predict runs the engine and fails the test on an engine error.
func predict(t testing.TB, e *Cluster, objs ...model.Object) []Result {
	t.Helper()
	rs, err := e.Predict(context.Background(), objs)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != len(objs) {
		t.Fatalf("%d results for %d objects", len(rs), len(objs))
	}
	for i, r := range rs {
		if r.Object.ID != objs[i].ID {
			t.Fatalf("result %d is %s; want %s (input order)", i, r.Object.ID, objs[i].ID)
		}
	}
	return rs
}

// eventually retries f until it stops failing; for RBAC and CRDs, which
// take effect asynchronously on the API server.
func eventually(t testing.TB, what string, f func() error) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func isNotFound(err error) bool { return apierrors.IsNotFound(err) }
