package predict

import (
	"context"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// What an object is sealed as opens as the request sends it: the same
// values, whole numbers as int64 as a render holds them.
func TestSealedOpensAsRendered(t *testing.T) {
	o := obj(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop, labels: {app: web}},
  spec: {replicas: 3, template: {spec: {containers: [{name: app, image: "app:1", ports: [{containerPort: 8080}], resources: {limits: {cpu: 0.5}}}]}}}}`)
	objs := []model.Object{o}
	held, n := sealObjects(objs)
	if n == 0 || objs[0].Object != nil {
		t.Fatalf("sealed %d bytes, object still held: %v", n, objs[0].Object != nil)
	}
	tg := &target{obj: objs[0], held: held[0]}
	if err := tg.unseal(); err != nil {
		t.Fatal(err)
	}
	if !model.EqualValues(tg.obj.Object.Object, obj(t, `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web, namespace: shop, labels: {app: web}},
  spec: {replicas: 3, template: {spec: {containers: [{name: app, image: "app:1", ports: [{containerPort: 8080}], resources: {limits: {cpu: 0.5}}}]}}}}`).Object.Object) {
		t.Errorf("opened as %#v", tg.obj.Object.Object)
	}
	if _, ok := tg.obj.Object.Object["spec"].(map[string]any)["replicas"].(int64); !ok {
		t.Errorf("replicas opened as %T, want int64", tg.obj.Object.Object["spec"].(map[string]any)["replicas"])
	}
}

// Predict leaves its caller's objects alone; PredictEach takes its list
// over and lets go of each object once merged.
func TestOfflinePredictEachLetsGoOfObjects(t *testing.T) {
	e := NewOffline(OfflineOptions{FieldManager: "deployer"})
	objs := []model.Object{obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}, data: {a: b}}`)}
	if _, err := e.Predict(context.Background(), objs); err != nil {
		t.Fatal(err)
	}
	if objs[0].Object == nil {
		t.Error("Predict let go of its caller's object")
	}
	if err := e.PredictEach(context.Background(), objs, func(int, Result) {}); err != nil {
		t.Fatal(err)
	}
	if objs[0].Object != nil {
		t.Error("PredictEach still holds an object it merged")
	}
}
