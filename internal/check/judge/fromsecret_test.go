package judge

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// TestWithoutSecretValues: a field made from a Secret's placeholder takes
// live's value in the manifest and the prediction, so that no change is
// claimed for it; a field live lacks keeps the placeholder; the note names
// the Secret's key and the fields; the caller's objects are not changed.
func TestWithoutSecretValues(t *testing.T) {
	cm := func(upper, added string) *unstructured.Unstructured {
		data := map[string]any{"upper": upper, "mode": "fast"}
		if added != "" {
			data["added"] = added
		}
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "derived", "namespace": "shop"}, "data": data}}
	}
	key := model.SecretKey{Namespace: "shop", Name: "app-db", Key: "password"}
	rendered := cm("SPLACEHOLDER", "splaceholder")
	obj := model.Object{ID: model.IDOf(rendered), Object: rendered, FromSecret: []model.SecretField{
		{Path: mustPath(t, ".data.upper"), Keys: []model.SecretKey{key}},
		{Path: mustPath(t, ".data.added"), Keys: []model.SecretKey{key}},
	}}
	res := predict.Result{Object: obj, Live: cm("LIVE", ""), Predicted: cm("SPLACEHOLDER", "splaceholder")}
	got, notes := withoutSecretValues(res)
	if v := got.Predicted.Object["data"].(map[string]any); v["upper"] != "LIVE" || v["added"] != "splaceholder" || v["mode"] != "fast" {
		t.Errorf("predicted data %v", v)
	}
	if v := got.Object.Object.Object["data"].(map[string]any); v["upper"] != "LIVE" {
		t.Errorf("manifest data %v", v)
	}
	if rendered.Object["data"].(map[string]any)["upper"] != "SPLACEHOLDER" || res.Predicted.Object["data"].(map[string]any)["upper"] != "SPLACEHOLDER" {
		t.Error("the caller's objects were changed")
	}
	want := "from Secret shop/app-db key password: value not compared (.data.upper, .data.added)"
	if len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
	if _, notes := withoutSecretValues(predict.Result{Object: model.Object{Object: cm("a", "")}}); notes != nil {
		t.Errorf("an object with no field from a Secret has notes %v", notes)
	}
}

func mustPath(t *testing.T, s string) fieldpath.Path {
	t.Helper()
	p, err := model.ParsePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestHidingSecretFields: the fields of the one object a render made from
// a Secret, and what is below them, are hidden; the same path of another
// object, and the config's own rules, are as before.
func TestHidingSecretFields(t *testing.T) {
	web := model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "web"}
	other := model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "other"}
	config := &model.Redaction{Paths: func(_ model.ID, p fieldpath.Path) bool { return p.String() == ".data.token" }}
	r := hidingSecretFields(config, web, []model.SecretField{{Path: mustPath(t, ".spec.q")}, {Path: mustPath(t, ".data.q")}})
	for _, tc := range []struct {
		id   model.ID
		path string
		want bool
	}{
		{web, ".data.q", true}, {web, ".spec.q.x", true}, {web, ".data.r", false},
		{other, ".data.q", false}, {other, ".data.token", true},
	} {
		if got := r.Paths(tc.id, mustPath(t, tc.path)); got != tc.want {
			t.Errorf("%s %s: hidden %v, want %v", tc.id.Name, tc.path, got, tc.want)
		}
	}
	if hidingSecretFields(config, web, nil) != config {
		t.Error("no fields changed the rule")
	}
}
