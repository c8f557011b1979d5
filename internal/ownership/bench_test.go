package ownership

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// benchDeployment is a Deployment of 8 containers with ports, env, probes
// and resources: about 300 leaf fields.
func benchDeployment(b *testing.B) *unstructured.Unstructured {
	var containers []any
	for i := 0; i < 8; i++ {
		var env []any
		for j := 0; j < 12; j++ {
			env = append(env, map[string]any{"name": fmt.Sprintf("VAR_%d", j), "value": fmt.Sprintf("v%d", j)})
		}
		containers = append(containers, map[string]any{
			"name":  fmt.Sprintf("c%d", i),
			"image": fmt.Sprintf("registry.example.com/app-%d:1.2.3", i),
			"args":  []any{"--port", "8080"},
			"ports": []any{
				map[string]any{"name": "http", "containerPort": int64(8080 + i)},
				map[string]any{"name": "metrics", "containerPort": int64(9090 + i)},
			},
			"env": env,
			"resources": map[string]any{
				"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
				"limits":   map[string]any{"memory": "256Mi"},
			},
			"readinessProbe": map[string]any{"httpGet": map[string]any{"path": "/ready", "port": int64(8080)}, "periodSeconds": int64(5)},
		})
	}
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "big", "namespace": "bench",
			"labels": map[string]any{"app": "big", "team": "core"}, "annotations": map[string]any{"note": "x"}},
		"spec": map[string]any{
			"replicas": int64(3),
			"selector": map[string]any{"matchLabels": map[string]any{"app": "big"}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": "big"}},
				"spec":     map[string]any{"containers": containers},
			},
		},
	}}
	return u
}

// withManagedFields gives an object the managedFields an apply by
// "deployer" writes, plus a scale by kubectl.
func withManagedFields(b *testing.B, u *unstructured.Unstructured) *unstructured.Unstructured {
	s, err := FieldSet(u, nil)
	if err != nil {
		b.Fatal(err)
	}
	raw, err := s.ToJSON()
	if err != nil {
		b.Fatal(err)
	}
	var fields map[string]any
	if err := json.Unmarshal(raw, &fields); err != nil {
		b.Fatal(err)
	}
	c := u.DeepCopy()
	entries := []any{
		map[string]any{"manager": "deployer", "operation": "Apply", "apiVersion": "apps/v1", "fieldsType": "FieldsV1",
			"time": "2026-01-01T00:00:00Z", "fieldsV1": fields},
		map[string]any{"manager": "kubectl", "operation": "Update", "subresource": "scale", "apiVersion": "apps/v1",
			"fieldsType": "FieldsV1", "fieldsV1": map[string]any{"f:spec": map[string]any{"f:replicas": map[string]any{}}}},
	}
	if err := unstructured.SetNestedSlice(c.Object, entries, "metadata", "managedFields"); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkAnalyzeDeployment300 classifies a ~300-leaf Deployment with a
// snapshot, drift on replicas and a changed image.
//
//	go test ./internal/ownership -run '^$' -bench . -benchmem
func BenchmarkAnalyzeDeployment300(b *testing.B) {
	desired := benchDeployment(b)
	deployed := withManagedFields(b, desired)
	live := deployed.DeepCopy()
	_ = unstructured.SetNestedField(live.Object, int64(5), "spec", "replicas")
	in := Input{FieldManager: "deployer", Desired: desired, Applied: desired, Deployed: deployed, Live: live, Predicted: deployed}
	s, _ := FieldSet(desired, nil)
	leaves := s.Leaves().Size()
	r, err := Analyze(in)
	if err != nil {
		b.Fatal(err)
	}
	if len(r.Findings) != 1 || r.Findings[0].Category != model.Drift {
		b.Fatalf("findings: %+v", r.Findings)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Analyze(in); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(leaves), "leaves")
}
