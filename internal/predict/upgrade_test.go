package predict

import (
	"bytes"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// clientSideLive is a Deployment as client-side `kubectl apply` left it:
// its env var OLD and the last-applied annotation are
// kubectl-client-side-apply's, and kubectl-edit changed the image since.
func clientSideLive(t *testing.T) *unstructured.Unstructured {
	t.Helper()
	u := obj(t, `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{}'
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:edited
        env:
        - {name: KEEP, value: "1"}
        - {name: OLD, value: "1"}
`).Object
	csa := `{"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}},` +
		`"f:spec":{"f:selector":{},"f:template":{"f:metadata":{"f:labels":{".":{},"f:app":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:name":{},` +
		`"f:env":{".":{},"k:{\"name\":\"KEEP\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"OLD\"}":{".":{},"f:name":{},"f:value":{}}}}}}}}}`
	edit := `{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:image":{}}}}}}}`
	u.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "kubectl-client-side-apply", Operation: "Update", APIVersion: "apps/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(csa)}},
		{Manager: "kubectl-edit", Operation: "Update", APIVersion: "apps/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(edit)}},
	})
	return u
}

const pullRequest = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: web:2
        env:
        - {name: KEEP, value: "1"}
`

// The cluster engine's way (dry-run, then upgrade and prune locally) gives
// what the deployer's way (upgrade, then apply) gives: here the local
// merge stands in for the API server's dry-run, the same code.
func TestUpgradedPredictionIsUpgradeThenApply(t *testing.T) {
	m := newManagers(typing.New(typing.Options{}))
	desired := obj(t, pullRequest)
	km := m.get(desired.Object.GroupVersionKind())
	if km.err != nil {
		t.Fatal(km.err)
	}
	apply := func(live *unstructured.Unstructured) *unstructured.Unstructured {
		out, err := km.fm.Apply(live.DeepCopy(), desired.Object.DeepCopy(), "deployer", true)
		if err != nil {
			t.Fatal(err)
		}
		return out.(*unstructured.Unstructured)
	}
	live := clientSideLive(t)
	dryRun := apply(live)
	got, err := upgradedPrediction(m, delivery.ApplyMethod{}, "deployer", live, dryRun)
	if err != nil {
		t.Fatal(err)
	}
	upgradedLive := live.DeepCopy()
	if err := upgradeLive(delivery.ApplyMethod{}, upgradedLive, "deployer"); err != nil {
		t.Fatal(err)
	}
	want := apply(upgradedLive)

	if !model.EqualValues(content(got), content(want)) {
		t.Errorf("content after upgrade:\n got %v\nwant %v", content(got), content(want))
	}
	if env, _, _ := unstructured.NestedSlice(got.Object, "spec", "template", "spec", "containers"); len(env) != 1 ||
		len(env[0].(map[string]any)["env"].([]any)) != 1 {
		t.Errorf("OLD is not removed: %v", env)
	}
	if _, ok := got.GetAnnotations()[model.LastAppliedAnnotation]; ok {
		t.Error("the last-applied annotation, the deploy's after the upgrade and not sent, is not removed")
	}
	if g, w := owners(t, got), owners(t, want); !equalOwners(g, w) {
		t.Errorf("managedFields after upgrade:\n got %v\nwant %v", g, w)
	}
	if _, ok := owners(t, got)["kubectl-client-side-apply/Update/"]; ok {
		t.Error("the client-side manager is still listed")
	}

	// Without a client-side manager the answer is the dry-run's own.
	plain := live.DeepCopy()
	plain.SetManagedFields(plain.GetManagedFields()[1:])
	if p, err := upgradedPrediction(m, delivery.ApplyMethod{}, "deployer", plain, dryRun); err != nil || p != dryRun {
		t.Errorf("no client-side manager: %v, changed answer %v", err, p != dryRun)
	}
}

// The offline engine upgrades the snapshot's object before it merges.
func TestOfflineUpgradesClientSide(t *testing.T) {
	live := clientSideLive(t)
	desired := obj(t, pullRequest)
	e := offlineEngine(t, model.Object{ID: desired.ID, Object: live})
	if r := predictOne(t, e, desired); r.Predicted == nil || len(envOf(r.Predicted)) != 2 {
		t.Fatalf("without the upgrade OLD stays: %+v", r.Err)
	}
	e.opts.UpgradesClientSide = true
	r := predictOne(t, e, desired)
	if r.Err != nil {
		t.Fatal(r.Err)
	}
	if n := len(envOf(r.Predicted)); n != 1 {
		t.Errorf("after the upgrade %d env vars, want KEEP alone", n)
	}
}

func envOf(u *unstructured.Unstructured) []any {
	cs, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	if len(cs) == 0 {
		return nil
	}
	env, _ := cs[0].(map[string]any)["env"].([]any)
	return env
}

func content(u *unstructured.Unstructured) map[string]any {
	c := u.DeepCopy()
	unstructured.RemoveNestedField(c.Object, "metadata", "managedFields")
	return c.Object
}

func owners(t *testing.T, u *unstructured.Unstructured) map[string]*fieldpath.Set {
	t.Helper()
	out := map[string]*fieldpath.Set{}
	for _, e := range u.GetManagedFields() {
		s := &fieldpath.Set{}
		if err := s.FromJSON(bytesOf(e.FieldsV1)); err != nil {
			t.Fatal(err)
		}
		out[e.Manager+"/"+string(e.Operation)+"/"+e.Subresource] = s
	}
	return out
}

func equalOwners(a, b map[string]*fieldpath.Set) bool {
	if len(a) != len(b) {
		return false
	}
	for k, s := range a {
		if b[k] == nil || !b[k].Equals(s) {
			return false
		}
	}
	return true
}

func bytesOf(f *metav1.FieldsV1) *bytes.Reader {
	if f == nil {
		return bytes.NewReader(nil)
	}
	return bytes.NewReader(f.Raw)
}
