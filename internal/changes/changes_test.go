package changes

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
)

func obj(t *testing.T, y string) *unstructured.Unstructured {
	t.Helper()
	var m map[string]any
	if err := yaml.Unmarshal([]byte(y), &m); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod, resourceVersion: "7", generation: 3, uid: u1}
spec:
  replicas: REPLICAS
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
  template:
    spec:
      containers:
      - name: app
        image: IMAGE
        env: [{name: DB_PASSWORD, value: SECRETVAL}, {name: MODE, value: fast}]
      - {name: sidecar, image: busybox:1.36}
      volumes: [{name: config, configMap: {name: CONFIG}}]
status: {replicas: 12}
`

func deploymentWith(t *testing.T, replicas, image, password, config string) *unstructured.Unstructured {
	r := strings.NewReplacer("REPLICAS", replicas, "IMAGE", image, "SECRETVAL", password, "CONFIG", config)
	return obj(t, r.Replace(deployment))
}

func TestRolloutOfAnImageBump(t *testing.T) {
	live := deploymentWith(t, "12", "nginx:1.26", "hunter2", "app-config-5gm2mt6bbk")
	pred := deploymentWith(t, "12", "nginx:1.27", "hunter3", "app-config-9bk7tmcdtg")
	pred.SetResourceVersion("8")
	id := model.ID{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	r := Of(Input{ID: id, Live: live, Predicted: pred})
	if r.Change != model.ChangeUpdate {
		t.Fatalf("change %q", r.Change)
	}
	for _, d := range r.Diff {
		if strings.Contains(d.Path, "resourceVersion") || strings.HasPrefix(d.Path, ".status") {
			t.Errorf("bookkeeping in the diff: %s", d.Path)
		}
		if d.Before == "hunter2" || d.After == "hunter3" {
			t.Errorf("a secret-like env value is shown: %+v", d)
		}
	}
	if len(r.Diff) != 3 {
		t.Errorf("diff %+v, want image, DB_PASSWORD and the ConfigMap's name", r.Diff)
	}
	ro := r.Rollout
	if !ro.Replaces || len(ro.Images) != 1 || ro.Images[0].Container != "app" {
		t.Fatalf("rollout %+v", ro)
	}
	want := []string{"env of app", "image of app", "ConfigMap app-config-5gm2mt6bbk → app-config-9bk7tmcdtg"}
	if strings.Join(ro.Why, "|") != strings.Join(want, "|") {
		t.Errorf("why %q, want %q", ro.Why, want)
	}
	if ro.Strategy != "12 pods, 6 at a time (maxSurge 25%, maxUnavailable 25%)" {
		t.Errorf("strategy %q", ro.Strategy)
	}
	if len(ro.Uses) != 1 || ro.Uses[0].Name != "app-config-9bk7tmcdtg" {
		t.Errorf("uses %+v", ro.Uses)
	}
}

func TestScaleDownIsAWarning(t *testing.T) {
	live := deploymentWith(t, "3", "nginx:1.26", "x", "c")
	pred := deploymentWith(t, "1", "nginx:1.26", "x", "c")
	r := Of(Input{ID: model.ID{Group: "apps", Kind: "Deployment", Name: "web"}, Live: live, Predicted: pred})
	if r.Rollout.Replaces || r.Rollout.Replicas == nil || *r.Rollout.Replicas != (model.Replicas{From: 3, To: 1}) {
		t.Fatalf("rollout %+v", r.Rollout)
	}
	if len(r.Findings) != 1 || r.Findings[0].Category != model.ScaleDown {
		t.Fatalf("findings %+v, want one scale-down", r.Findings)
	}
}

func TestSecretKeysNamedValuesHidden(t *testing.T) {
	live := obj(t, `{apiVersion: v1, kind: Secret, metadata: {name: db}, data: {password: hashA, user: hashU}}`)
	pred := obj(t, `{apiVersion: v1, kind: Secret, metadata: {name: db}, data: {password: hashB, user: hashU, token: hashT}}`)
	r := Of(Input{ID: model.ID{Kind: "Secret", Name: "db"}, Live: live, Predicted: pred})
	want := []model.FieldChange{
		{Path: ".data.password", Before: model.HiddenValue, After: model.HiddenValue},
		{Path: ".data.token", Before: nil, After: model.HiddenValue},
	}
	same := func(a, b model.FieldChange) bool {
		return a.Path == b.Path && a.Before == b.Before && a.After == b.After && a.FieldPath.String() == a.Path
	}
	if len(r.Diff) != 2 || !same(r.Diff[0], want[0]) || !same(r.Diff[1], want[1]) {
		t.Errorf("diff %+v, want %+v", r.Diff, want)
	}
}

func TestCreateAndNone(t *testing.T) {
	u := obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c}, data: {a: "1"}}`)
	if r := Of(Input{ID: model.ID{Kind: "ConfigMap", Name: "c"}, Predicted: u}); r.Change != model.ChangeCreate {
		t.Errorf("no live: %q, want create", r.Change)
	}
	if r := Of(Input{ID: model.ID{Kind: "ConfigMap", Name: "c"}, Live: u, Predicted: u}); r.Change != model.ChangeNone || len(r.Diff) != 0 {
		t.Errorf("same: %q %+v, want none", r.Change, r.Diff)
	}
}

func TestImmutableRefusal(t *testing.T) {
	id := model.ID{Group: "apps", Kind: "Deployment", Namespace: "prod", Name: "web"}
	msg := `Deployment.apps "web" is invalid: spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web2"}}: field is immutable`
	f, ok := Immutable(id, "Invalid", msg, []metav1.StatusCause{{Type: "FieldValueInvalid", Field: "spec.selector", Message: "Invalid value: ...: field is immutable"}})
	if !ok || f.Category != model.RecreateRequired || f.Path != ".spec.selector" {
		t.Fatalf("finding %+v, %v", f, ok)
	}
	if _, ok := Immutable(id, "Invalid", "spec.template.spec.containers[0].image: Required value", nil); ok {
		t.Error("a refusal of another kind is read as immutable")
	}
	sts := `StatefulSet.apps "db" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template' are forbidden`
	if f, ok := Immutable(model.ID{Group: "apps", Kind: "StatefulSet", Name: "db"}, "Invalid", sts, nil); !ok || f.Path != ".spec" {
		t.Errorf("StatefulSet spec: %+v %v", f, ok)
	}
}

func TestRenames(t *testing.T) {
	old := model.ID{Kind: "ConfigMap", Namespace: "p", Name: "app-config-5gm2mt6bbk"}
	nu := model.ID{Kind: "ConfigMap", Namespace: "p", Name: "app-config-9bk7tmcdtg"}
	plain := model.ID{Kind: "ConfigMap", Namespace: "p", Name: "settings"}
	got := Renames([]model.ID{old, plain}, []model.ID{nu})
	if len(got) != 1 || got[old] != nu {
		t.Errorf("renames %+v", got)
	}
}

func TestScaleDownToldByADriftIsNotRepeated(t *testing.T) {
	sd := model.Finding{Category: model.ScaleDown, Path: ".spec.replicas"}
	drift := model.Finding{Category: model.Drift, Path: ".spec.replicas"}
	release := model.Finding{Category: model.Release, Path: ".spec.replicas"}
	if got := Untold([]model.Finding{sd}, []model.Finding{drift}); len(got) != 0 {
		t.Errorf("scale-down beside a drift: %+v", got)
	}
	if got := Untold([]model.Finding{sd}, []model.Finding{release}); len(got) != 1 {
		t.Errorf("scale-down beside a release (a note) is dropped: %+v", got)
	}
}

func TestOfflineResetOfReplicasIsAScaleDown(t *testing.T) {
	live := deploymentWith(t, "3", "nginx:1.26", "x", "c")
	pred := deploymentWith(t, "3", "nginx:1.26", "x", "c")
	unstructured.RemoveNestedField(pred.Object, "spec", "replicas")
	r := Of(Input{ID: model.ID{Group: "apps", Kind: "Deployment", Name: "web"}, Live: live, Predicted: pred})
	if r.Rollout.Replicas == nil || *r.Rollout.Replicas != (model.Replicas{From: 3, To: 1}) || len(r.Findings) != 1 {
		t.Errorf("replicas %+v findings %+v, want 3 → 1 and a scale-down", r.Rollout.Replicas, r.Findings)
	}
}

func TestDaemonSetAndOnDeleteStrategies(t *testing.T) {
	ds := func(image, strategy string) *unstructured.Unstructured {
		return obj(t, `{apiVersion: apps/v1, kind: DaemonSet, metadata: {name: agent}, spec: {updateStrategy: `+strategy+`,
  template: {spec: {containers: [{name: agent, image: `+image+`}]}}}, status: {desiredNumberScheduled: 40}}`)
	}
	id := model.ID{Group: "apps", Kind: "DaemonSet", Name: "agent"}
	r := Of(Input{ID: id, Live: ds("fb:3.0", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}"),
		Predicted: ds("fb:3.1", "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 10%}}")})
	if r.Rollout.Strategy != "40 pods (one per node), 4 at a time" || r.Rollout.Pods == nil || *r.Rollout.Pods != 40 {
		t.Errorf("DaemonSet: %q %v", r.Rollout.Strategy, r.Rollout.Pods)
	}
	r = Of(Input{ID: id, Live: ds("fb:3.0", "{type: OnDelete}"), Predicted: ds("fb:3.1", "{type: OnDelete}")})
	if r.Rollout.Replaces || r.Rollout.Strategy != onDelete || len(r.Rollout.Images) != 1 {
		t.Errorf("OnDelete: %+v, want no pod replaced now, the image named and when pods get it", r.Rollout)
	}
}

// A count an autoscaler lowers, to zero with HPAScaleToZero, is not the
// deploy's scale-down when the deploy does not send replicas; one it sends
// is.
func TestAutoscalersScaleToZeroIsNoScaleDown(t *testing.T) {
	id := model.ID{Group: "apps", Kind: "Deployment", Name: "web"}
	hpa := metav1.ManagedFieldsEntry{Manager: "kube-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "scale",
		APIVersion: "apps/v1", FieldsType: "FieldsV1", FieldsV1: &metav1.FieldsV1{Raw: []byte(`{"f:spec":{"f:replicas":{}}}`)}}
	live := deploymentWith(t, "2", "nginx:1.26", "x", "c")
	pred := deploymentWith(t, "0", "nginx:1.26", "x", "c")
	pred.SetManagedFields([]metav1.ManagedFieldsEntry{hpa})
	desired := deploymentWith(t, "2", "nginx:1.26", "x", "c")
	unstructured.RemoveNestedField(desired.Object, "spec", "replicas")
	if r := Of(Input{ID: id, Live: live, Predicted: pred, Desired: desired}); len(r.Findings) != 0 {
		t.Errorf("the autoscaler's count is a scale-down: %+v", r.Findings)
	}
	sends := deploymentWith(t, "0", "nginx:1.26", "x", "c")
	if r := Of(Input{ID: id, Live: live, Predicted: pred, Desired: sends}); len(r.Findings) != 1 || r.Findings[0].Category != model.ScaleDown {
		t.Errorf("replicas the deploy sends: %+v, want a scale-down", r.Findings)
	}
	pred.SetManagedFields(nil)
	if r := Of(Input{ID: id, Live: live, Predicted: pred, Desired: desired}); len(r.Findings) != 1 {
		t.Errorf("no autoscaler owns the count: %+v, want a scale-down", r.Findings)
	}
}
