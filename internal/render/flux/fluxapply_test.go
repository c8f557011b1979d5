package flux

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// TestFluxApply: what the controller does at apply, kind by kind.
func TestFluxApply(t *testing.T) {
	ks := unstructured.Unstructured{Object: map[string]any{"metadata": map[string]any{"name": "apps", "namespace": "flux-system"},
		"spec": map[string]any{"commonMetadata": map[string]any{"labels": map[string]any{NameLabel: "overridden"}}}}}
	parse := func(s string) map[string]any {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	cases := []struct {
		name, in string
		check    func(a Applied) string
	}{
		{"stringData goes into data", "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: b}\n", func(a Applied) string {
			if d, _, _ := unstructured.NestedString(a.Obj, "data", "a"); d != "Yg==" {
				return "data.a " + d
			}
			if _, ok := a.Obj["stringData"]; ok {
				return "stringData kept"
			}
			return ""
		}},
		{"a Role is left as it is", "apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules: [{verbs: [get], resources: [pods], apiGroups: ['']}]\nextra: kept\n", func(a Applied) string {
			if a.Obj["extra"] != "kept" {
				return "normalized"
			}
			return ""
		}},
		{"commonMetadata after the owner labels", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", func(a Applied) string {
			l := (&unstructured.Unstructured{Object: a.Obj}).GetLabels()
			if l[NameLabel] != "overridden" || l[NamespaceLabel] != "flux-system" {
				return fmt.Sprint(l)
			}
			return ""
		}},
		{"reconcile disabled", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {kustomize.toolkit.fluxcd.io/reconcile: Disabled}}\n", func(a Applied) string {
			if a.Skip == "" {
				return "applied"
			}
			return ""
		}},
		{"a custom kind keeps its fields and status goes", "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {x: 1}\nstatus: {ready: true}\n", func(a Applied) string {
			if _, ok := a.Obj["status"]; ok || a.Obj["spec"] == nil {
				return fmt.Sprint(a.Obj)
			}
			return ""
		}},
	}
	for _, c := range cases {
		a, err := Apply(ks, parse(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if msg := c.check(a); msg != "" {
			t.Errorf("%s: %s", c.name, msg)
		}
	}
}
