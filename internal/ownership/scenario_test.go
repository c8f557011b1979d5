package ownership

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

const configVolume = `.spec.template.spec.volumes[name="config"]`

func withVolume(t *testing.T, u *unstructured.Unstructured, volume map[string]any) *unstructured.Unstructured {
	t.Helper()
	c := u.DeepCopy()
	if err := unstructured.SetNestedSlice(c.Object, []any{volume}, "spec", "template", "spec", "volumes"); err != nil {
		t.Fatal(err)
	}
	return c
}

// A volume switched from configMap to secret: the configMap struct goes,
// but its defaultMode belongs to the client that created the volume, so a
// volume with two sources would remain ("may not specify more than 1
// volume type").
func TestSplitOwnershipStructField(t *testing.T) {
	cm := map[string]any{"name": "config", "configMap": map[string]any{"name": "app-config-v2"}}
	live := edit(t, captured(t, "deploy-scaled.applied.live")).
		set([]any{map[string]any{"name": "config", "configMap": map[string]any{"name": "app-config-v2", "defaultMode": int64(420)}}},
			"spec", "template", "spec", "volumes").
		own("Go-http-client", OperationUpdate, path(t, configVolume+".name"), path(t, configVolume+".configMap.defaultMode")).
		own("deployer", OperationApply, path(t, configVolume+".name"), path(t, configVolume+".configMap.name")).obj()
	desired := withVolume(t, manifest(t, "web-scaled"), map[string]any{"name": "config", "secret": map[string]any{"secretName": "app-config"}})
	r := analyze(t, Input{
		Desired: desired, Applied: withVolume(t, manifest(t, "web-scaled"), cm), Deployed: live, Live: live,
	})
	f := byPath(r, model.SplitOwnership, configVolume+".configMap")
	if len(f) != 1 {
		t.Fatalf("want split on the configMap source:\n%s", dump(t, r))
	}
	if !strings.HasPrefix(f[0].Message, "the config removes it, but its fields are split: deployer (Apply) owns .name; Go-http-client (Update) owns .defaultMode. ") {
		t.Errorf("message %q", f[0].Message)
	}
	if len(byPath(r, model.SplitOwnership, configVolume)) != 0 {
		t.Error("the volume itself stays in the config: not split")
	}
	if len(byPath(r, model.Taking, configVolume+".secret.secretName")) != 1 {
		t.Errorf("the new source is taken:\n%s", dump(t, r))
	}
}

const widgetLive = `
apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  namespace: capture
  managedFields:
  - manager: deployer
    operation: Apply
    apiVersion: example.com/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:size: {}
        f:items:
          k:{"name":"a"}:
            .: {}
            f:name: {}
            f:x: {}
spec:
  size: 3
  items: [{name: a, x: 1}]
`

const widgetManifest = `
apiVersion: example.com/v1
kind: Widget
metadata: {name: w, namespace: capture}
spec:
  size: 3
  items: [{name: a, x: 1}]
`

// The cluster's CRD schema keys spec.items by name, which a deduced schema
// cannot know: the deploy still owns its items, with or without a
// prediction.
func TestDeducedKindAgainstAKeyedServerSchema(t *testing.T) {
	live := fromYAML(t, widgetLive)
	for _, predicted := range []*unstructured.Unstructured{live, nil} {
		r := analyze(t, Input{
			Desired: fromYAML(t, widgetManifest), Applied: fromYAML(t, widgetManifest),
			Deployed: live, Live: live, Predicted: predicted,
		})
		if len(r.Findings) != 0 {
			t.Fatalf("unchanged Widget (prediction %t) reported:\n%s", predicted != nil, dump(t, r))
		}
	}
	changed := edit(t, live).set([]any{map[string]any{"name": "a", "x": int64(2)}}, "spec", "items").
		disown("deployer", OperationApply, path(t, `.spec.items[name="a"].x`)).
		own("kubectl-edit", OperationUpdate, path(t, `.spec.items[name="a"].x`)).obj()
	r := analyze(t, Input{
		Desired: fromYAML(t, widgetManifest), Applied: fromYAML(t, widgetManifest),
		Deployed: live, Live: changed, Predicted: live,
	})
	if f := byPath(r, model.Drift, `.spec.items[name="a"].x`); len(f) != 1 || f[0].Message != "changed from 1 to 2 by kubectl-edit (Update); the deploy reverts it to 1" {
		t.Errorf("drift in an item:\n%s", dump(t, r))
	}
}

func TestTakingMessages(t *testing.T) {
	a := &analysis{baseline: BaselineSnapshot}
	hpa := []model.Manager{{Manager: "hpa", Operation: OperationApply}}
	for _, tc := range []struct {
		v      pathValues
		others []model.Manager
		want   string
	}{
		{pathValues{live: int64(3), liveOK: true, target: int64(3), targetOK: true}, hpa, "now shared with hpa (Apply) (value unchanged: 3)"},
		{pathValues{live: int64(7), liveOK: true, target: int64(3), targetOK: true}, hpa, "taken over from hpa (Apply): changed from 7 to 3"},
		{pathValues{target: "x", targetOK: true}, nil, `added: "x"`},
		{pathValues{live: int64(1), liveOK: true, target: int64(1), targetOK: true}, nil, "now owned by the deploy (value unchanged: 1)"},
		{pathValues{live: int64(1), liveOK: true, target: int64(2), targetOK: true}, nil, "now owned by the deploy: changed from 1 to 2"},
		{pathValues{live: int64(1), liveOK: true}, nil, "now owned by the deploy: removed (was 1)"},
		{pathValues{hidden: true, live: "h", liveOK: true, target: "h", targetOK: true}, hpa, "now shared with hpa (Apply)"},
		{pathValues{hidden: true, live: "h", liveOK: true, target: "h", targetOK: true}, nil, "now owned by the deploy"},
		{pathValues{hidden: true, live: "h", liveOK: true, target: "g", targetOK: true}, hpa, "taken over from hpa (Apply): changed (value hidden)"},
		{pathValues{hidden: true, target: "g", targetOK: true}, nil, "added"},
	} {
		if got := a.takingMessage(tc.v, tc.others); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestMessagePieces(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{change(nil, false, int64(5), true, false), "set to 5"},
		{change(int64(5), true, nil, false, false), "removed (was 5)"},
		{change(nil, false, "s", true, true), "set (value hidden)"},
		{change("s", true, nil, false, true), "removed (value hidden)"},
		{by(nil), " outside the deploy"},
		{show(strings.Repeat("x", 100), false), `"` + strings.Repeat("x", 78) + "…"},
		{show(map[string]any{"b": int64(1), "a": []any{true}}, false), `{"a":[true],"b":1}`},
		{show(make(chan int), false)[:2], "0x"},
		{show("secret", true), model.HiddenValue},
		{anomalyMessage(model.NewTransition(false, false, false, false)), "this ownership change should not happen: the deploy did not own the field at the last deploy and would not own it after this one, " +
			"though the config did not change it and no one else changed it: please report it at https://github.com/ownership-check/ownership-check/issues with this report's JSON"},
		{(&analysis{}).message("future", model.Transition{}, nil, pathValues{}, nil), "future"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
	// The drift message without a value to revert to, as when only the
	// prediction keeps the path.
	a := &analysis{baseline: BaselineSnapshot}
	if got := a.message(model.Drift, model.Transition{}, nil, pathValues{deployed: int64(1), deployedOK: true}, nil); got != "removed (was 1) outside the deploy; the deploy reverts it" {
		t.Errorf("drift: %q", got)
	}
}

func TestCopyValueIsDeep(t *testing.T) {
	orig := map[string]any{"a": []any{map[string]any{"b": int64(1)}}}
	c := copyValue(orig).(map[string]any)
	c["a"].([]any)[0].(map[string]any)["b"] = int64(2)
	if orig["a"].([]any)[0].(map[string]any)["b"] != int64(1) {
		t.Error("copy shares the original")
	}
	if copyValue(3) != 3 {
		t.Error("scalar")
	}
}
