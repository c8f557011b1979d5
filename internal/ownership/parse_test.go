package ownership

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

func leafStrings(s *fieldpath.Set) []string {
	var out []string
	s.Leaves().Iterate(func(p fieldpath.Path) { out = append(out, p.String()) })
	return out
}

func TestParseFieldsV1(t *testing.T) {
	raw := `{
	  "f:metadata": {"f:labels": {".": {}, "f:app": {}}, "f:finalizers": {"v:\"example.com/protect\"": {}}},
	  "f:spec": {
	    "f:ports": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}, "f:targetPort": {}}},
	    "f:args": {"i:0": {}},
	    "f:initContainers": {".": {}, "k:{\"name\":\"init\"}": {".": {}}}
	  }
	}`
	s, err := ParseFieldsV1([]byte(raw))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`.metadata.finalizers[="example.com/protect"]`,
		`.metadata.labels.app`,
		`.spec.args[0]`,
		`.spec.initContainers[name="init"]`,
		`.spec.ports[port=80,protocol="TCP"].port`,
		`.spec.ports[port=80,protocol="TCP"].targetPort`,
	}
	got := leafStrings(s)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("leaves:\n%s", strings.Join(got, "\n"))
	}
	// "." makes the node itself a member, although Leaves drops it.
	for _, p := range []string{".metadata.labels", `.spec.ports[port=80,protocol="TCP"]`, ".spec.initContainers"} {
		if !s.Has(path(t, p)) {
			t.Errorf("%s: not a member", p)
		}
	}
	if s.Has(path(t, ".metadata")) {
		t.Error(".metadata is only a parent")
	}

	for _, empty := range []string{"", "  ", "{}"} {
		if s, err := ParseFieldsV1([]byte(empty)); err != nil || !s.Empty() {
			t.Errorf("%q: %v, %v", empty, s, err)
		}
	}
	for _, bad := range []string{`{`, `[]`, `"x"`, `{"k:{oops": {}}`, `{"k:{}": {}}`, `{"f:a": {"i:x": {}}}`, `{"v:": {}}`} {
		if _, err := ParseFieldsV1([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		} else if !strings.HasPrefix(err.Error(), "invalid fieldsV1") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func TestManagedSets(t *testing.T) {
	live := captured(t, "deploy-scaled.live")
	o, err := ManagedSets(live)
	if err != nil {
		t.Fatal(err)
	}
	if len(o) != 2 || o[0].Manager.Manager != "deployer" || o[1].Manager != (model.Manager{Manager: "kubectl", Operation: "Update", Subresource: "scale"}) {
		t.Fatalf("owners: %+v", o)
	}
	if o[0].Time != "2026-11-22T04:29:11Z" {
		t.Errorf("time %q", o[0].Time)
	}
	if !serverSide.own(o, "deployer").Has(path(t, imagePath)) || serverSide.own(o, "nobody").Empty() == false {
		t.Error("Applier")
	}
	if got := o.OwnersOf(path(t, replicasPath)); len(got) != 1 || got[0].Manager != "kubectl" {
		t.Errorf("OwnersOf replicas: %+v", got)
	}
	if got := serverSide.others(o, "deployer"); len(got) != 1 {
		t.Errorf("Others: %+v", got)
	}
	if o, err := ManagedSets(nil); o != nil || err != nil {
		t.Error("nil object")
	}

	// Entries of one manager through two API versions are one owner.
	two := edit(t, live).obj()
	l, _, _ := unstructured.NestedSlice(two.Object, "metadata", "managedFields")
	extra := map[string]any{"manager": "deployer", "operation": "Apply", "apiVersion": "apps/v1beta2", "fieldsType": "FieldsV1",
		"time": "2027-01-01T00:00:00Z", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:paused": map[string]any{}}}}
	noFields := map[string]any{"manager": "empty", "operation": "Update"}
	_ = unstructured.SetNestedSlice(two.Object, append(l, extra, noFields), "metadata", "managedFields")
	o, err = ManagedSets(two)
	if err != nil {
		t.Fatal(err)
	}
	m := serverSide.own(o, "deployer")
	if !m.Has(path(t, ".spec.paused")) || !m.Has(path(t, imagePath)) || o[0].Time != "2027-01-01T00:00:00Z" {
		t.Errorf("merged owner: %v %s", leafStrings(m), o[0].Time)
	}
	if len(o) != 3 || o[1].Manager.Manager != "empty" || !o[1].Fields.Empty() {
		t.Errorf("owner without fields: %+v", o)
	}

	// One name, three owners: operation and subresource tell them apart.
	same := live.DeepCopy()
	var kubectl []any
	for _, id := range [][2]string{{"Update", "scale"}, {"Update", ""}, {"Apply", ""}} {
		kubectl = append(kubectl, map[string]any{"manager": "kubectl", "operation": id[0], "subresource": id[1],
			"fieldsV1": map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}})
	}
	_ = unstructured.SetNestedSlice(same.Object, kubectl, "metadata", "managedFields")
	o, err = ManagedSets(same)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range o {
		ids = append(ids, e.Manager.String())
	}
	if got := strings.Join(ids, "; "); got != "kubectl (Apply); kubectl (Update); kubectl (Update, scale)" {
		t.Errorf("order: %s", got)
	}
	if got := o.OwnersOf(path(t, replicasPath)); len(got) != 3 {
		t.Errorf("co-owners: %+v", got)
	}

	for name, mf := range map[string]any{
		"not a list":       "x",
		"entry not object": []any{"x"},
		"bad entry field":  []any{map[string]any{"manager": 3}},
		"unknown type":     []any{map[string]any{"manager": "a", "fieldsType": "FieldsV9", "fieldsV1": map[string]any{}}},
		"bad fieldsV1":     []any{map[string]any{"manager": "a", "fieldsV1": map[string]any{"k:{": map[string]any{}}}},
		"bad time":         []any{map[string]any{"manager": "a", "time": "yesterday"}},
	} {
		u := live.DeepCopy()
		u.Object["metadata"].(map[string]any)["managedFields"] = mf
		if _, err := ManagedSets(u); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCovers(t *testing.T) {
	s := fieldpath.NewSet(path(t, `.spec.items[name="a"].x`), path(t, ".spec.replicas"))
	for p, want := range map[string]bool{
		".spec.replicas":            true,
		".spec.items":               true, // part of it
		`.spec.items[name="a"]`:     true,
		`.spec.items[name="a"].x`:   true,
		`.spec.items[name="a"].x.y`: false,
		".spec.paused":              false,
		".status":                   false,
	} {
		if got := Covers(s, path(t, p)); got != want {
			t.Errorf("Covers(%s) = %t", p, got)
		}
	}
	if Covers(nil, path(t, ".a")) || Covers(s, nil) {
		t.Error("nil set or empty path")
	}
}

func TestDescribeManager(t *testing.T) {
	for m, want := range map[model.Manager]string{
		{Manager: "kubectl", Operation: "Update", Subresource: "scale"}: "kubectl (Update, scale)",
		{Manager: "hpa", Operation: "Apply"}:                            "hpa (Apply)",
		{Manager: "x"}:                                                  "x",
		{Operation: "Update"}:                                           "(unnamed manager) (Update)",
	} {
		if got := m.String(); got != want {
			t.Errorf("%+v: %q", m, got)
		}
	}
	if got := model.JoinAnd([]string{"a", "b", "c"}); got != "a, b and c" {
		t.Error(got)
	}
	if model.JoinAnd(nil) != "" || model.JoinAnd([]string{"a"}) != "a" {
		t.Error("joinAnd")
	}
}
