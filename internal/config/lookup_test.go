package config

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

func TestLookup(t *testing.T) {
	obj := map[string]any{
		"metadata": map[string]any{"annotations": map[string]any{"example.com/x": "1"}},
		"spec": map[string]any{
			"replicas": int64(3),
			"ports":    []any{map[string]any{"containerPort": int64(80), "name": "http"}},
			"containers": []any{
				map[string]any{"name": "app", "image": "app:1", "env": []any{map[string]any{"name": "A", "value": "a"}}},
				map[string]any{"name": "side", "image": "side:1"},
			},
			"finalizers": []any{"x", "y"},
		},
	}
	for _, tc := range []struct {
		path string
		want any
		ok   bool
	}{
		{".spec.replicas", int64(3), true},
		{".spec.missing", nil, false},
		{`.spec.containers[name="side"].image`, "side:1", true},
		{`.spec.containers[name="app"].env[name="A"].value`, "a", true},
		{`.spec.containers[name="gone"].image`, nil, false},
		{`.spec.ports[containerPort=80,protocol="TCP"].name`, "http", true},
		{`.spec.finalizers[="y"]`, "y", true},
		{`.metadata.annotations.example.com/x`, "1", true},
	} {
		got, ok := MustParsePath(tc.path).Lookup(obj)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%s: got %v, %v; want %v, %v", tc.path, got, ok, tc.want, tc.ok)
		}
	}
}

// TestPathOfLooksUpAFindingsPath: a finding's fieldpath.Path is looked up
// as the string form would be, dotted keys whole.
func TestPathOfLooksUpAFindingsPath(t *testing.T) {
	obj := map[string]any{"metadata": map[string]any{"annotations": map[string]any{"example.com/x": "v"}},
		"spec": map[string]any{"ports": []any{map[string]any{"port": int64(80), "protocol": "TCP", "name": "http"}}}}
	for s, want := range map[string]any{
		".metadata.annotations.example.com/x":      "v",
		`.spec.ports[port=80,protocol="TCP"].name`: "http",
	} {
		fp, err := model.ParsePath(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := PathOf(fp).Lookup(obj); !ok || got != want {
			t.Errorf("PathOf(%s).Lookup = %v, %v; want %v", s, got, ok, want)
		}
		if PathOf(fp).String() != s {
			t.Errorf("PathOf(%s).String() = %s", s, PathOf(fp).String())
		}
	}
}
