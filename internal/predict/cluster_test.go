package predict

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

func deployment(t testing.TB, ns string, replicas string) string {
	return `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ` + ns + `}
spec:
  replicas: ` + replicas + `
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - {name: app, image: nginx:1.27}
`
}

func TestPredictRevertsScaleDrift(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	desired := obj(t, deployment(t, ns, "3"))
	apply(t, kc, "deployer", desired)
	// kubectl scale: an Update of the scale subresource.
	scale := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "autoscaling/v1", "kind": "Scale",
		"metadata": map[string]any{"name": "web", "namespace": ns},
		"spec":     map[string]any{"replicas": int64(5)},
	}}
	ri, _ := kc.Resource(desired.Object.GroupVersionKind(), ns)
	if _, err := ri.Update(context.Background(), scale, metav1.UpdateOptions{FieldManager: "kubectl"}, "scale"); err != nil {
		t.Fatal(err)
	}

	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Blocked != "" {
		t.Fatalf("err %v, blocked %q", r.Err, r.Blocked)
	}
	if got, _, _ := unstructured.NestedInt64(r.Live.Object, "spec", "replicas"); got != 5 {
		t.Errorf("live replicas %d; want 5", got)
	}
	if !owns(t, r.Live, "kubectl", "Update", ".spec.replicas") {
		t.Error("live: kubectl does not own .spec.replicas")
	}
	if got, _, _ := unstructured.NestedInt64(r.Predicted.Object, "spec", "replicas"); got != 3 {
		t.Errorf("predicted replicas %d; want 3 (reverted)", got)
	}
	if !owns(t, r.Predicted, "deployer", "Apply", ".spec.replicas") {
		t.Error("predicted: deployer does not own .spec.replicas")
	}
	if owns(t, r.Predicted, "kubectl", "Update", ".spec.replicas") {
		t.Error("predicted: kubectl still owns .spec.replicas after a forced apply")
	}
	// Dry-run: nothing changed.
	now, err := get(t, kc, desired)
	if err != nil {
		t.Fatal(err)
	}
	if got, _, _ := unstructured.NestedInt64(now.Object, "spec", "replicas"); got != 5 {
		t.Errorf("replicas are %d after Predict; a dry-run must not persist", got)
	}
}

func TestPredictNewObject(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	desired := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: fresh, namespace: `+ns+`}, data: {k: v}}`)

	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Blocked != "" || r.Live != nil {
		t.Fatalf("err %v, blocked %q, live %v; want a new object predicted", r.Err, r.Blocked, r.Live)
	}
	if !owns(t, r.Predicted, "deployer", "Apply", ".data.k") {
		t.Errorf("predicted: deployer does not own .data.k: %v", r.Predicted.GetManagedFields())
	}
	if _, err := get(t, kc, desired); !isNotFound(err) {
		t.Errorf("GET after a dry-run create: %v; want NotFound", err)
	}
}

func TestPredictBlocksObjectsInANamespaceOfTheRender(t *testing.T) {
	testcluster.Require(t, cluster)
	e, _ := engine(t, cluster.Config(), ClusterOptions{})
	objs := []model.Object{
		obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: shop}, data: {k: v}}`),
		obj(t, `{apiVersion: v1, kind: Namespace, metadata: {name: shop}}`),
		obj(t, deployment(t, "shop", "1")),
		obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: nowhere}}`),
	}
	rs := predict(t, e, objs...)
	for _, i := range []int{0, 2} {
		if rs[i].Blocked != "cannot be dry-run until Namespace/shop exists" || rs[i].Err != nil || rs[i].Predicted != nil {
			t.Errorf("%s: blocked %q err %v; want blocked on Namespace/shop", objs[i].ID, rs[i].Blocked, rs[i].Err)
		}
	}
	if rs[1].Predicted == nil || rs[1].Err != nil || rs[1].Live != nil {
		t.Errorf("Namespace/shop: predicted %v err %v; want a dry-run create", rs[1].Predicted != nil, rs[1].Err)
	}
	// A namespace that neither the cluster nor the render has is an error.
	if err := rs[3].Err; err == nil || err.Reason != "NotFound" || !strings.Contains(err.Message, `namespaces "nowhere" not found`) {
		t.Errorf("ConfigMap/nowhere/c: err %v; want NotFound for the namespace", err)
	}
}

const widgetCRD = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {kind: Widget, listKind: WidgetList, plural: widgets, singular: widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              size: {type: integer}
`

func TestPredictBlocksCustomResourcesOfACRDInTheRender(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	crd := obj(t, widgetCRD)
	widget := obj(t, `{apiVersion: example.com/v1, kind: Widget, metadata: {name: w, namespace: default}, spec: {size: 3}}`)
	unknown := obj(t, `{apiVersion: example.org/v1, kind: Gadget, metadata: {name: g, namespace: default}}`)

	rs := predict(t, e, widget, crd, unknown)
	if rs[0].Blocked != "cannot be dry-run until CustomResourceDefinition/widgets.example.com exists" || rs[0].Err != nil {
		t.Errorf("Widget: blocked %q err %v", rs[0].Blocked, rs[0].Err)
	}
	if rs[1].Predicted == nil || rs[1].Err != nil {
		t.Errorf("CRD: err %v; want a dry-run create", rs[1].Err)
	}
	if err := rs[2].Err; err == nil || err.Reason != ReasonNoMatch || !strings.Contains(err.Message, `no matches for kind "Gadget"`) {
		t.Errorf("Gadget: err %v; want NoMatch", err)
	}
	// An unserved kind's live object is never read: its absence must not
	// read as "not in the cluster".
	if r := rs[2]; r.LiveErr == nil || r.Err == nil || r.Err.Unserved != "Gadget.example.org" {
		t.Errorf("Gadget: live err %v, unserved %q; want the live object unread and Gadget.example.org named", r.LiveErr, r.Err.Unserved)
	}

	// Once the CRD is installed, the same engine (discovery cached before)
	// sees the kind: a NoMatch refreshes discovery once.
	apply(t, kc, "deployer", crd)
	t.Cleanup(func() {
		ri, _ := kc.Resource(crd.Object.GroupVersionKind(), "")
		ri.Delete(context.Background(), crd.Object.GetName(), metav1.DeleteOptions{})
	})
	eventually(t, "Widget served", func() error {
		r := predict(t, e, widget)[0]
		if r.Predicted == nil {
			return errors.New(r.Blocked + r.Err.Error())
		}
		if got, _, _ := unstructured.NestedInt64(r.Predicted.Object, "spec", "size"); got != 3 {
			t.Errorf("predicted size %d; want 3", got)
		}
		return nil
	})
}

func TestPredictSplitOwnershipIsInvalid(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{FieldManager: "eno"})
	ns := namespace(t, kc)
	withInit := obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: `+ns+`}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      initContainers:
      - name: base-os-bash
        image: busybox:1.36
        command: [sh, -c, "true"]
        imagePullPolicy: IfNotPresent
      containers:
      - {name: app, image: nginx:1.27}
`)
	create(t, kc, "Go-http-client", withInit)
	// eno takes the image with a new value (force), so Go-http-client keeps
	// the rest of the item and no longer co-owns the image.
	apply(t, kc, "eno", obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: `+ns+`}
spec:
  template:
    spec:
      initContainers:
      - {name: base-os-bash, image: busybox:1.37}
`))
	desired := obj(t, deployment(t, ns, "1"))

	r := predict(t, e, desired)[0]
	if r.Err == nil {
		t.Fatalf("no error; want the split-ownership Invalid")
	}
	if r.Err.Reason != "Invalid" || r.Err.Code != 422 || !strings.Contains(r.Err.Message, "spec.template.spec.initContainers[0].image: Required value") {
		t.Errorf("err %+v; want Invalid with Required value", r.Err)
	}
	if len(r.Err.Causes) == 0 {
		t.Error("no causes")
	}
	if !strings.HasPrefix(r.Err.Error(), "Deployment.apps/"+ns+"/web: dry-run failed: ") {
		t.Errorf("Error() = %q", r.Err.Error())
	}
	if r.Live == nil || !owns(t, r.Live, "eno", "Apply", `.spec.template.spec.initContainers[name="base-os-bash"].image`) {
		t.Error("live missing or eno does not own the initContainer's image: the lead needs it to explain the error")
	}
	if r.Predicted != nil {
		t.Error("a refused dry-run has a prediction")
	}
}

func TestPredictFieldNotInSchemaIsPermanent(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	r := predict(t, e, obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: `+ns+`}, spec: {a: b}}`))[0]
	if r.Err == nil || r.Err.Reason != "Invalid" || r.Err.Attempts != 1 || !strings.Contains(r.Err.Message, "field not declared in schema") {
		t.Errorf("err %+v; want Invalid after 1 attempt", r.Err)
	}
}

func TestPredictHidesSecretValuesInErrors(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, kc)
	r := predict(t, e, obj(t, `{apiVersion: v1, kind: Secret, metadata: {name: s, namespace: `+ns+`}, stringData: {token: 918273645}}`))[0]
	if r.Err == nil {
		t.Fatal("no error for a number in stringData")
	}
	t.Logf("server said (redacted): %s", r.Err)
	for _, s := range []string{r.Err.Error(), r.Err.Err.Error()} {
		if strings.Contains(s, "918273645") {
			t.Errorf("the Secret's value leaks: %s", s)
		}
	}
}

func TestPredictReadsLiveWithList(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{ListThreshold: 3})
	ns := namespace(t, kc)
	var objs []model.Object
	for _, name := range []string{"a", "b", "c", "d"} {
		o := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: `+ns+`}, data: {k: v2}}`)
		if name != "d" {
			create(t, kc, "before", obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: `+ns+`}, data: {k: v1}}`))
		}
		objs = append(objs, o)
	}
	// Another ConfigMap in the namespace that the render does not name.
	create(t, kc, "before", obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: other, namespace: `+ns+`}}`))

	rs := predict(t, e, objs...)
	for i, r := range rs[:3] {
		if r.Err != nil || r.Live == nil || r.Predicted == nil {
			t.Fatalf("%s: err %v live %v", objs[i].ID, r.Err, r.Live != nil)
		}
		if r.Live.GetName() != objs[i].Object.GetName() || r.Live.GetKind() != "ConfigMap" || r.Live.GetAPIVersion() != "v1" {
			t.Errorf("%s: live is %s %s/%s", objs[i].ID, r.Live.GetAPIVersion(), r.Live.GetKind(), r.Live.GetName())
		}
		if !owns(t, r.Live, "before", "Update", ".data.k") {
			t.Errorf("%s: listed live lacks managedFields", objs[i].ID)
		}
		if v, _, _ := unstructured.NestedString(r.Predicted.Object, "data", "k"); v != "v2" {
			t.Errorf("%s: predicted %q", objs[i].ID, v)
		}
	}
	if rs[3].Live != nil || rs[3].Predicted == nil {
		t.Errorf("ConfigMap d: live %v; want a new object", rs[3].Live)
	}
}

func TestPredictUnreachableServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	e, _ := engine(t, &rest.Config{Host: "https://" + addr, BearerToken: "x"}, ClusterOptions{Deadline: time.Minute})

	start := time.Now()
	_, err = e.Predict(context.Background(), []model.Object{obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}`)})
	t.Logf("failed after %s: %v", time.Since(start), err)
	if err == nil {
		t.Fatal("no error from an unreachable server")
	}
	for _, want := range []string{"cannot reach the API server at https://" + addr, "connection refused", "--kubeconfig"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	// Quick: it failed on the refused connection, not at the deadline.
	if errors.Is(err, context.DeadlineExceeded) {
		t.Error("it waited for the deadline")
	}
}

// requestCounter counts the engine's live reads: LISTs and GETs of one
// object.
type requestCounter struct {
	mu          sync.Mutex
	lists, gets int
}

func (c *requestCounter) wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if r.Method == http.MethodGet && strings.Contains(r.URL.Path, "/configmaps") {
			c.mu.Lock()
			if strings.HasSuffix(r.URL.Path, "/configmaps") {
				c.lists++
			} else {
				c.gets++
			}
			c.mu.Unlock()
		}
		return rt.RoundTrip(r)
	})
}

func TestPredictListPaging(t *testing.T) {
	testcluster.Require(t, cluster)
	_, admin := engine(t, cluster.Config(), ClusterOptions{})
	ns := namespace(t, admin)
	for i := range 40 {
		create(t, admin, "before", obj(t, fmt.Sprintf(`{apiVersion: v1, kind: ConfigMap, metadata: {name: cm-%02d, namespace: %s}}`, i, ns)))
	}
	desired := func(names ...string) []model.Object {
		var objs []model.Object
		for _, n := range names {
			objs = append(objs, obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+n+`, namespace: `+ns+`}, data: {k: v}}`))
		}
		return objs
	}
	for _, tc := range []struct {
		name        string
		objs        []model.Object
		lists, gets int
	}{
		// Pages until all are found, then stops.
		{"all found on page 3", desired("cm-05", "cm-06", "cm-07", "cm-08", "cm-09", "cm-10", "cm-11", "cm-12", "cm-13", "cm-14"), 3, 0},
		// 35 left to read for 2 wanted is more than GETs cost.
		{"crowded namespace", desired("cm-00", "cm-39", "absent"), 1, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var n requestCounter
			cfg := cluster.Config()
			cfg.WrapTransport = n.wrap
			e, _ := engine(t, cfg, ClusterOptions{ListThreshold: 2})
			e.listPageSize = 5
			rs := predict(t, e, tc.objs...)
			for _, r := range rs {
				exists := r.Object.Object.GetName() != "absent"
				if r.Err != nil || (r.Live != nil) != exists || exists && r.Live.GetName() != r.Object.Object.GetName() {
					t.Errorf("%s: err %v, live %v", r.Object.ID, r.Err, r.Live != nil)
				}
			}
			if n.lists != tc.lists || n.gets != tc.gets {
				t.Errorf("%d LISTs, %d GETs; want %d and %d", n.lists, n.gets, tc.lists, tc.gets)
			}
		})
	}
}

func TestPredictBlocksAVersionTheRenderAdds(t *testing.T) {
	testcluster.Require(t, cluster)
	e, kc := engine(t, cluster.Config(), ClusterOptions{})
	crd := func(versions string) model.Object {
		return obj(t, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.net}
spec:
  group: example.net
  names: {kind: Gizmo, listKind: GizmoList, plural: gizmos, singular: gizmo}
  scope: Namespaced
  versions:`+versions)
	}
	const v1 = `
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}`
	const v2 = `
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}`
	installed := crd(v1)
	apply(t, kc, "deployer", installed)
	t.Cleanup(func() {
		ri, _ := kc.Resource(installed.Object.GroupVersionKind(), "")
		ri.Delete(context.Background(), installed.Object.GetName(), metav1.DeleteOptions{})
	})
	gizmo := obj(t, `{apiVersion: example.net/v2, kind: Gizmo, metadata: {name: g, namespace: default}}`)
	eventually(t, "Gizmo v1 served", func() error {
		_, err := kc.Mapping(schema.GroupVersionKind{Group: "example.net", Version: "v1", Kind: "Gizmo"})
		if err != nil {
			kc.ResetDiscovery()
		}
		return err
	})

	rs := predict(t, e, crd(v1+v2), gizmo)
	if rs[1].Blocked != "cannot be dry-run until CustomResourceDefinition/gizmos.example.net serves example.net/v2" {
		t.Errorf("Gizmo v2: blocked %q, err %v", rs[1].Blocked, rs[1].Err)
	}
	// Without the new version in the render, v2 is simply unknown.
	if err := predict(t, e, gizmo)[0].Err; err == nil || err.Reason != ReasonNoMatch ||
		err.Unserved != "Gizmo.example.net in version v2" || !strings.Contains(err.Message, "serves Gizmo.example.net only in v1") {
		t.Errorf("Gizmo v2 without its CRD in the render: err %+v; want NoMatch naming the version served", err)
	}
}
