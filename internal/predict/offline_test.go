package predict

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/secrets"
)

// These need no API server; the agreement with it is tested end to end in
// internal/check (offline_agreement_test.go).

func offlineEngine(t *testing.T, live ...model.Object) *Offline {
	t.Helper()
	h, err := secrets.New("salt", nil)
	if err != nil {
		t.Fatal(err)
	}
	m := map[model.ID]*unstructured.Unstructured{}
	for _, o := range live {
		m[o.ID] = o.Object
	}
	return NewOffline(OfflineOptions{FieldManager: "deployer", Live: func(id model.ID) *unstructured.Unstructured { return m[id] }, Hasher: h})
}

func predictOne(t *testing.T, e *Offline, o model.Object) Result {
	t.Helper()
	rs, err := e.Predict(context.Background(), []model.Object{o})
	if err != nil {
		t.Fatal(err)
	}
	return rs[0]
}

func managersOf(t *testing.T, u *unstructured.Unstructured) string {
	t.Helper()
	var names []string
	for _, m := range u.GetManagedFields() {
		b, _ := json.Marshal(m.FieldsV1)
		names = append(names, m.Manager+"/"+string(m.Operation)+" "+string(b))
	}
	return strings.Join(names, "\n")
}

func TestOfflineCreate(t *testing.T) {
	desired := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, data: {a: "1"}}`)
	r := predictOne(t, offlineEngine(t), desired)
	if r.Err != nil || r.Live != nil || r.Predicted == nil {
		t.Fatalf("result %+v", r)
	}
	if got := managersOf(t, r.Predicted); !strings.Contains(got, `deployer/Apply {"f:data":{`) || !strings.Contains(got, `"f:a":{}`) {
		t.Errorf("managedFields:\n%s", got)
	}
}

func TestOfflineForceTakesFromOtherManager(t *testing.T) {
	live := obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns
  managedFields:
  - {manager: deployer, operation: Apply, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:selector": {}, "f:template": {"f:metadata": {"f:labels": {"f:app": {}}}, "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}}
  - {manager: kubectl, operation: Update, subresource: scale, apiVersion: apps/v1, fieldsType: FieldsV1, fieldsV1: {"f:spec": {"f:replicas": {}}}}
spec:
  replicas: 5
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "nginx:1.25"}]}
`)
	desired := obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ns}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: "nginx:1.25"}]}
`)
	r := predictOne(t, offlineEngine(t, live), desired)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	got := managersOf(t, r.Predicted)
	if strings.Contains(got, "kubectl") || !strings.Contains(got, `"f:replicas"`) {
		t.Errorf("force did not take .spec.replicas from kubectl:\n%s", got)
	}
	if v, _, _ := unstructured.NestedFieldNoCopy(r.Predicted.Object, "spec", "replicas"); !model.EqualValues(v, 3) {
		t.Errorf("replicas %v, want 3", v)
	}
	if r.Live != live.Object {
		t.Error("live is not the snapshot's object")
	}
	if v, _, _ := unstructured.NestedFieldNoCopy(live.Object.Object, "spec", "replicas"); v != 5.0 {
		t.Error("the merge changed the snapshot's object")
	}
}

func TestOfflineSecretValuesNeverInPrediction(t *testing.T) {
	desired := obj(t, `{apiVersion: v1, kind: Secret, metadata: {name: s, namespace: ns}, data: {a: c2VjcmV0LWE=}, stringData: {b: secret-b}}`)
	// Every method: a client-side apply copies the values into the
	// last-applied annotation.
	for _, m := range []delivery.ApplyMethod{{}, {Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied},
		{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest}, {Method: delivery.ApplyReplace}} {
		e := offlineEngine(t)
		e.opts.Apply = m.OrDefault()
		r := predictOne(t, e, desired)
		if r.Err != nil {
			t.Fatal(r.Err)
		}
		b, _ := json.Marshal(r.Predicted.Object)
		if strings.Contains(string(b), "secret-") || strings.Contains(string(b), "c2VjcmV0") {
			t.Fatalf("%s: prediction holds a Secret value: %s", m, b)
		}
		data, _, _ := unstructured.NestedStringMap(r.Predicted.Object, "data")
		if len(data) != 2 || !strings.HasPrefix(data["b"], "sha256:") {
			t.Errorf("%s: stringData not folded into data as the server does: %v", m, data)
		}
	}
}

func TestOfflineCRDSchemaKeysLists(t *testing.T) {
	crd := obj(t, `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gizmos.example.com}
spec:
  group: example.com
  names: {kind: Gizmo, plural: gizmos}
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
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items: {type: object, properties: {name: {type: string}, port: {type: integer}}}
`)
	cr := obj(t, `{apiVersion: example.com/v1, kind: Gizmo, metadata: {name: g, namespace: ns, finalizers: [x]}, spec: {ports: [{name: http, port: 80}]}}`)
	e := offlineEngine(t)
	rs, err := e.Predict(context.Background(), []model.Object{crd, cr})
	if err != nil {
		t.Fatal(err)
	}
	got := managersOf(t, rs[1].Predicted)
	if !strings.Contains(got, `"k:{\"name\":\"http\"}"`) || !strings.Contains(got, `"v:\"x\""`) {
		t.Errorf("keyed list or finalizer set not itemised:\n%s", got)
	}
	if d := e.Deduced([]model.Object{crd, cr}); len(d) != 1 || !strings.Contains(d[0], "CustomResourceDefinition objects themselves") {
		t.Errorf("deduced %v, want only the CRD object itself", d)
	}
	// Without the CRD the kind is deduced, and said so.
	rs, err = e.Predict(context.Background(), []model.Object{cr})
	if err != nil || rs[0].Predicted == nil {
		t.Fatalf("%v %+v", err, rs[0])
	}
	if got := managersOf(t, rs[0].Predicted); strings.Contains(got, `k:{`) {
		t.Errorf("deduced schema itemised a list:\n%s", got)
	}
	if d := e.Deduced([]model.Object{cr}); len(d) != 1 || !strings.Contains(d[0], "example.com/v1, Kind=Gizmo") {
		t.Errorf("deduced = %v", d)
	}
}

func TestOfflineSchemaMismatchIsInvalid(t *testing.T) {
	desired := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: ns}, spec: {nope: 1}}`)
	r := predictOne(t, offlineEngine(t), desired)
	if r.Err == nil || r.Err.Reason != "Invalid" || !strings.HasPrefix(r.Err.Error(), "ConfigMap/ns/c: ") {
		t.Fatalf("err = %v, want Invalid starting with the id", r.Err)
	}
}
