package config

import (
	"testing"
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
