package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"reflect"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"sigs.k8s.io/yaml"
)

func fromYAML(t *testing.T, s string) map[string]any {
	t.Helper()
	objs, err := source.ParseManifests("test.yaml", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return objs[0].Obj
}

func TestRemoveIgnored(t *testing.T) {
	const deployment = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    example.com/restartedAt: "2024"
    keep: "yes"
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: app
          image: app:1
          resources:
            limits: {cpu: "1"}
        - name: sidecar
          image: proxy:1
          resources:
            limits: {cpu: 100m}
            requests: {cpu: 10m}
      volumes:
        - name: cache
          emptyDir: {}
      finalizers: [a, b]
`
	cases := []struct {
		paths []string
		check func(t *testing.T, obj map[string]any)
	}{
		{paths: []string{".spec.replicas"}, check: func(t *testing.T, obj map[string]any) {
			if _, ok := obj["spec"].(map[string]any)["replicas"]; ok {
				t.Error("replicas still there")
			}
		}},
		{paths: []string{".metadata.annotations.example.com/restartedAt"}, check: func(t *testing.T, obj map[string]any) {
			ann := obj["metadata"].(map[string]any)["annotations"].(map[string]any)
			if !reflect.DeepEqual(ann, map[string]any{"keep": "yes"}) {
				t.Errorf("annotations = %v", ann)
			}
		}},
		{paths: []string{".metadata.annotations.*"}, check: func(t *testing.T, obj map[string]any) {
			if _, ok := obj["metadata"].(map[string]any)["annotations"]; ok {
				t.Error("emptied annotations should be removed")
			}
		}},
		{paths: []string{`.spec.template.spec.containers[name="app"].resources`}, check: func(t *testing.T, obj map[string]any) {
			cs := containers(obj)
			if _, ok := cs[0].(map[string]any)["resources"]; ok {
				t.Error("app resources still there")
			}
			if _, ok := cs[1].(map[string]any)["resources"]; !ok {
				t.Error("sidecar resources removed")
			}
		}},
		{paths: []string{`.spec.template.spec.containers[*].resources.limits`}, check: func(t *testing.T, obj map[string]any) {
			cs := containers(obj)
			if _, ok := cs[0].(map[string]any)["resources"]; ok {
				t.Error("app resources emptied by the removal should go")
			}
			res := cs[1].(map[string]any)["resources"].(map[string]any)
			if _, ok := res["limits"]; ok || res["requests"] == nil {
				t.Errorf("sidecar resources = %v", res)
			}
		}},
		{paths: []string{`.spec.template.spec.containers[name="sidecar"]`}, check: func(t *testing.T, obj map[string]any) {
			if cs := containers(obj); len(cs) != 1 || cs[0].(map[string]any)["name"] != "app" {
				t.Errorf("containers = %v", cs)
			}
		}},
		{paths: []string{`.spec.template.spec.finalizers[="a"]`}, check: func(t *testing.T, obj map[string]any) {
			f := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["finalizers"]
			if !reflect.DeepEqual(f, []any{"b"}) {
				t.Errorf("finalizers = %v", f)
			}
		}},
		{paths: []string{`.spec.template.spec.volumes[name="nope"]`, ".spec.nothing.here", `.metadata.name[0]`}, check: func(t *testing.T, obj map[string]any) {
			if !reflect.DeepEqual(obj, fromYAML(t, deployment)) {
				t.Error("paths that select nothing must change nothing")
			}
		}},
		{paths: []string{`.spec.template.spec.volumes[name="cache"].emptyDir.medium`}, check: func(t *testing.T, obj map[string]any) {
			vol := obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["volumes"].([]any)[0]
			if _, ok := vol.(map[string]any)["emptyDir"]; !ok {
				t.Error("an empty map that was empty before must stay")
			}
		}},
	}
	for _, c := range cases {
		obj := fromYAML(t, deployment)
		var paths []config.Path
		for _, p := range c.paths {
			paths = append(paths, config.MustParsePath(p))
		}
		removeIgnored(obj, paths)
		t.Run(c.paths[0], func(t *testing.T) {
			c.check(t, obj)
			if t.Failed() {
				y, _ := yaml.Marshal(obj)
				t.Logf("object:\n%s", y)
			}
		})
	}
}

func containers(obj map[string]any) []any {
	return obj["spec"].(map[string]any)["template"].(map[string]any)["spec"].(map[string]any)["containers"].([]any)
}
