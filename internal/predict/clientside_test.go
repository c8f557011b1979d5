package predict

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// webWithEnv is a Deployment with the given env var names (value "1").
func webWithEnv(t *testing.T, ns string, env ...string) model.Object {
	t.Helper()
	vars := ""
	for _, n := range env {
		vars += `
        - {name: ` + n + `, value: "1"}`
	}
	return obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: `+ns+`}
spec:
  replicas: 3
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: nginx:1.27
        env:`+vars+`
`)
}

// driftedWeb deploys web with env A and B as the deployer did
// (deployed), then drifts it: `kubectl scale` to 5, and `kubectl edit` of
// the image and of an env var C that no deploy sent.
func driftedWeb(t *testing.T, kc *kube.Client, ns string, deployed func(model.Object)) model.Object {
	t.Helper()
	prev := webWithEnv(t, ns, "A", "B")
	deployed(prev)
	scaleTo(t, kc, prev, 5)
	edit(t, kc, prev, func(u *unstructured.Unstructured) {
		cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
		c := cs[0].(map[string]any)
		c["image"] = "nginx:edited"
		c["env"] = append(c["env"].([]any), map[string]any{"name": "C", "value": "1"})
		_ = unstructured.SetNestedSlice(u.Object, cs, "spec", "template", "spec", "containers")
	})
	return prev
}

// withLastApplied is o as kubectl's first apply creates it: annotated with
// itself.
func withLastApplied(t *testing.T, o model.Object) model.Object {
	t.Helper()
	cs := clientSide{method: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}}
	u, err := cs.modified(o.Object)
	if err != nil {
		t.Fatal(err)
	}
	return model.Object{ID: o.ID, Object: u}
}

func envNames(u *unstructured.Unstructured) []string {
	var out []string
	for _, e := range envOf(u) {
		out = append(out, e.(map[string]any)["name"].(string))
	}
	return out
}

// checkTakenBack checks a client-side answer to driftedWeb with a render
// that sends env A alone: the drifted replicas and image are the
// deploy's Update entry's again, B (applied before) is removed, C (never
// applied) stays.
func checkTakenBack(t *testing.T, p *unstructured.Unstructured, manager string) {
	t.Helper()
	if got := valueAt(p, "spec", "replicas"); got != int64(3) {
		t.Errorf("replicas %v; want 3 (taken back from kubectl scale)", got)
	}
	cs, _, _ := unstructured.NestedSlice(p.Object, "spec", "template", "spec", "containers")
	if got := cs[0].(map[string]any)["image"]; got != "nginx:1.27" {
		t.Errorf("image %v; want nginx:1.27 (taken back from kubectl edit)", got)
	}
	if got := envNames(p); len(got) != 2 || got[0] != "A" || got[1] != "C" {
		t.Errorf("env %v; want A (sent) and C (never applied, kept); B (applied before, not sent) removed", got)
	}
	for _, path := range []string{".spec.replicas", `.spec.template.spec.containers[name="app"].image`} {
		if !owns(t, p, manager, "Update", path) {
			t.Errorf("%s does not own %s: %v", manager, path, p.GetManagedFields())
		}
	}
	if owns(t, p, "kubectl", "Update", ".spec.replicas") {
		t.Error("kubectl scale still owns .spec.replicas")
	}
	if owns(t, p, "kubectl-edit", "Update", `.spec.template.spec.containers[name="app"].image`) {
		t.Error("kubectl edit still owns the image")
	}
	if !owns(t, p, "kubectl-edit", "Update", `.spec.template.spec.containers[name="app"].env[name="C"].value`) {
		t.Error("kubectl edit lost env C, which the deploy never sent")
	}
}

// writeClientSide sends the patch the engine dry-ran, for real, from the
// same live object: what the deployer's apply leaves.
func writeClientSide(t *testing.T, kc *kube.Client, o ClusterOptions, live *unstructured.Unstructured, desired model.Object) *unstructured.Unstructured {
	t.Helper()
	cs := clientSide{method: o.Apply, fieldManager: o.FieldManager, types: typesOrBuiltin(nil), original: o.Original}
	modified, err := cs.modified(applyBody(desired.Object, true, desired.Object.GetNamespace()))
	if err != nil {
		t.Fatal(err)
	}
	original, err := cs.originalOf(desired.ID, live)
	if err != nil {
		t.Fatal(err)
	}
	patch, pt, err := cs.patch(modified, live, original)
	if err != nil {
		t.Fatal(err)
	}
	ri, err := kc.Resource(desired.Object.GroupVersionKind(), desired.Object.GetNamespace())
	if err != nil {
		t.Fatal(err)
	}
	out, err := ri.Patch(context.Background(), desired.Object.GetName(), pt, patch, metav1.PatchOptions{FieldManager: o.FieldManager})
	if err != nil {
		t.Fatalf("the real patch %s: %v", patch, err)
	}
	return out
}

// kubectl's and Argo CD's client-side apply: a three-way merge from the
// last-applied annotation.
func TestClientSideFromLastApplied(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "kubectl-client-side-apply",
		Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	driftedWeb(t, kc, ns, func(prev model.Object) { create(t, kc, o.FieldManager, withLastApplied(t, prev)) })
	desired := webWithEnv(t, ns, "A")

	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Predicted == nil || r.Live == nil {
		t.Fatalf("err %v", r.Err)
	}
	checkTakenBack(t, r.Predicted, o.FieldManager)
	var applied map[string]any
	if err := json.Unmarshal([]byte(r.Predicted.GetAnnotations()[model.LastAppliedAnnotation]), &applied); err != nil {
		t.Fatalf("last-applied: %v", err)
	}
	// kubectl writes the object with an empty annotations map in it.
	want := applyBody(desired.Object, true, ns)
	want.SetAnnotations(map[string]string{})
	if !model.EqualValues(applied, want.Object) {
		t.Errorf("last-applied is not the render: %v", applied)
	}
	if now, _ := get(t, kc, desired); valueAt(now, "spec", "replicas") != int64(5) {
		t.Error("the dry-run persisted")
	}

	off := offlineOn(t, e.opts, r.Live, desired)
	if off.Err != nil {
		t.Fatalf("offline: %v", off.Err)
	}
	sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)
	sameWrite(t, "dry-run and the real patch", r.Predicted, writeClientSide(t, kc, e.opts, r.Live, desired))
}

// An object never applied client-side (no annotation): kubectl merges
// from an empty original, so nothing is removed.
func TestClientSideWithoutLastAppliedRemovesNothing(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "argocd-controller",
		Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	create(t, kc, "helm", webWithEnv(t, ns, "A", "B"))
	desired := webWithEnv(t, ns, "A")

	r := predict(t, e, desired)[0]
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if got := envNames(r.Predicted); len(got) != 2 {
		t.Errorf("env %v; want A and B (B was never applied by the deploy)", got)
	}
	sameWrite(t, "dry-run and the real patch", r.Predicted, writeClientSide(t, kc, e.opts, r.Live, desired))
}

// Helm's client-side upgrade: a three-way merge from the previous release
// manifest (the snapshot's applied config), or, without it, from what
// Helm's own Update entry owns in live.
func TestClientSideFromPreviousManifest(t *testing.T) {
	testcluster.Require(t, cluster)
	for _, snapshot := range []bool{true, false} {
		t.Run(map[bool]string{true: "snapshot", false: "managedFields"}[snapshot], func(t *testing.T) {
			o := ClusterOptions{FieldManager: "helm",
				Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest}}
			e, kc := engine(t, cluster.Config(), o)
			ns := namespace(t, kc)
			prev := driftedWeb(t, kc, ns, func(prev model.Object) { create(t, kc, "helm", prev) })
			if snapshot {
				e.opts.Original = func(id model.ID) *unstructured.Unstructured {
					if id == prev.ID {
						return prev.Object
					}
					return nil
				}
			}
			desired := webWithEnv(t, ns, "A")

			r := predict(t, e, desired)[0]
			if r.Err != nil || r.Predicted == nil {
				t.Fatalf("err %v", r.Err)
			}
			checkTakenBack(t, r.Predicted, "helm")
			if _, ok := r.Predicted.GetAnnotations()[model.LastAppliedAnnotation]; ok {
				t.Error("Helm writes no last-applied annotation")
			}
			// Offline there is always a snapshot. Without one the
			// original holds what the server defaulted on Helm's create
			// (its Update entry owns it): the patch removes it and only
			// the server puts it back.
			if snapshot {
				off := offlineOn(t, e.opts, r.Live, desired)
				if off.Err != nil {
					t.Fatalf("offline: %v", off.Err)
				}
				sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)
			}
			sameWrite(t, "dry-run and the real patch", r.Predicted, writeClientSide(t, kc, e.opts, r.Live, desired))
		})
	}
}

// A new object is created, with the annotation for kubectl, under the
// deploy's manager: an Update entry.
func TestClientSideCreates(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "kubectl-client-side-apply",
		Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	desired := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: fresh, namespace: `+ns+`}, data: {k: v}}`)

	r := predict(t, e, desired)[0]
	if r.Err != nil || r.Live != nil {
		t.Fatalf("err %v live %v", r.Err, r.Live)
	}
	if !owns(t, r.Predicted, o.FieldManager, "Update", ".data.k") {
		t.Errorf("managedFields %v", r.Predicted.GetManagedFields())
	}
	if _, ok := r.Predicted.GetAnnotations()[model.LastAppliedAnnotation]; !ok {
		t.Error("no last-applied annotation on kubectl's create")
	}
	off := offlineOn(t, e.opts, nil, desired)
	if off.Err != nil {
		t.Fatal(off.Err)
	}
	sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)
	real := create(t, kc, o.FieldManager, withLastApplied(t, desired))
	sameWrite(t, "dry-run and the real create", r.Predicted, real)
}

// gaugeCRD is widgetCRD's kind in another group, with string fields
// beside size.
var gaugeCRD = strings.NewReplacer("widget", "gauge", "Widget", "Gauge", "example.com", "example.net",
	"size: {type: integer}", `size: {type: integer}
              color: {type: string}
              note: {type: string}
              label: {type: string}`).Replace(widgetCRD)

func gauge(t *testing.T, ns, spec string) model.Object {
	return obj(t, `{apiVersion: example.net/v1, kind: Gauge, metadata: {name: g, namespace: `+ns+`}, spec: `+spec+`}`)
}

// Custom kinds get a JSON merge patch: three-way from the last-applied
// annotation for kubectl, two-way from the previous manifest for Helm,
// which therefore leaves a drifted field it sent before unchanged.
func TestClientSideCustomResources(t *testing.T) {
	testcluster.Require(t, cluster)
	_, kc := engine(t, cluster.Config(), ClusterOptions{})
	crd := obj(t, gaugeCRD)
	apply(t, kc, "deployer", crd)
	t.Cleanup(func() {
		ri, _ := kc.Resource(crd.Object.GroupVersionKind(), "")
		_ = ri.Delete(context.Background(), crd.Object.GetName(), metav1.DeleteOptions{})
	})
	eventually(t, "Gauge served", func() error {
		_, kc := engine(t, cluster.Config(), ClusterOptions{})
		_, err := kc.Resource(gauge(t, "default", "{}").Object.GroupVersionKind(), "default")
		return err
	})
	for _, c := range []struct {
		original, manager string
		size              int64 // after the deploy: 5 is kubectl-edit's
	}{
		{delivery.OriginalLastApplied, "kubectl-client-side-apply", 1},
		{delivery.OriginalPreviousManifest, "helm", 5},
	} {
		t.Run(c.original, func(t *testing.T) {
			o := ClusterOptions{FieldManager: c.manager, Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: c.original}}
			e, kc := engine(t, cluster.Config(), o)
			ns := namespace(t, kc)
			prev := gauge(t, ns, `{size: 1, color: red, note: old}`)
			if c.original == delivery.OriginalLastApplied {
				prev = withLastApplied(t, prev)
			} else {
				e.opts.Original = func(model.ID) *unstructured.Unstructured { return prev.Object }
			}
			create(t, kc, c.manager, prev)
			edit(t, kc, prev, func(u *unstructured.Unstructured) {
				_ = unstructured.SetNestedField(u.Object, int64(5), "spec", "size")
				_ = unstructured.SetNestedField(u.Object, "x", "spec", "label")
			})
			desired := gauge(t, ns, `{size: 1, color: red}`)

			r := predict(t, e, desired)[0]
			if r.Err != nil || r.Predicted == nil {
				t.Fatalf("err %v", r.Err)
			}
			spec := valueAt(r.Predicted, "spec")
			if want := map[string]any{"size": c.size, "color": "red", "label": "x"}; !model.EqualValues(spec, want) {
				t.Errorf("spec %v; want %v", spec, want)
			}
			if sizeOwner := map[int64]string{1: c.manager, 5: "kubectl-edit"}[c.size]; !owns(t, r.Predicted, sizeOwner, "Update", ".spec.size") {
				t.Errorf("%s does not own .spec.size: %v", sizeOwner, r.Predicted.GetManagedFields())
			}
			off := offlineOn(t, e.opts, r.Live, desired)
			if off.Err != nil {
				t.Fatal(off.Err)
			}
			sameWrite(t, "offline and cluster", off.Predicted, r.Predicted)
			sameWrite(t, "dry-run and the real patch", r.Predicted, writeClientSide(t, kc, e.opts, r.Live, desired))
		})
	}
}

// The live objects a LIST reads are each patched from: the request waits
// for the LIST, and an object it does not return is created.
func TestClientSideReadsLiveWithList(t *testing.T) {
	testcluster.Require(t, cluster)
	o := ClusterOptions{FieldManager: "argocd-controller", ListThreshold: 1,
		Apply: delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}}
	e, kc := engine(t, cluster.Config(), o)
	ns := namespace(t, kc)
	cm := func(name, data string) model.Object {
		return obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: `+ns+`}, data: `+data+`}`)
	}
	for _, name := range []string{"a", "b", "c"} {
		create(t, kc, "argocd-controller", withLastApplied(t, cm(name, `{k: "1", old: "1"}`)))
	}
	objs := []model.Object{cm("a", `{k: "2"}`), cm("new", `{k: "2"}`), cm("b", `{k: "2"}`), cm("c", `{k: "2"}`)}
	var got []Result
	if err := e.PredictEach(context.Background(), append([]model.Object(nil), objs...), func(_ int, r Result) { got = append(got, r) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(objs) {
		t.Fatalf("%d results", len(got))
	}
	for _, r := range got {
		if r.Err != nil || r.Predicted == nil {
			t.Fatalf("%s: %v", r.Object.ID, r.Err)
		}
		if want := map[string]any{"k": "2"}; !model.EqualValues(valueAt(r.Predicted, "data"), want) {
			t.Errorf("%s: data %v; want %v (old removed: it was applied before)", r.Object.ID, valueAt(r.Predicted, "data"), want)
		}
		if (r.Live == nil) != (r.Object.ID.Name == "new") {
			t.Errorf("%s: live %v", r.Object.ID, r.Live != nil)
		}
	}
}
