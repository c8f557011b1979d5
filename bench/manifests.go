package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

const (
	namespaces = 10
	// minObjects is the namespaces, the CRD and one object of each kind.
	minObjects = namespaces + 1 + 4

	crdGroup = "bench.ownership-check.dev"
	// driftEvery: one object in driftEvery drifts (5%).
	driftEvery = 20
)

// kinds are the namespaced kinds generated in turn.
var kinds = [...]string{"Deployment", "Service", "ConfigMap", "Widget"}

// object is one generated manifest and whether someone else changes it
// after the deploy.
type object struct {
	body  map[string]any
	drift bool
}

func (o object) kind() string { return o.body["kind"].(string) }
func (o object) name() string { return metadata(o.body)["name"].(string) }
func (o object) namespace() string {
	ns, _ := metadata(o.body)["namespace"].(string)
	return ns
}

func metadata(body map[string]any) map[string]any { return body["metadata"].(map[string]any) }

// generate returns n objects: the namespaces, the CRD, then Deployments,
// Services, ConfigMaps and Widgets (the CRD's kind) in turn across the
// namespaces; one in 20 of the latter is marked to drift, each kind alike.
func generate(n int) []object {
	var out []object
	for i := range namespaces {
		out = append(out, object{body: map[string]any{
			"apiVersion": "v1", "kind": "Namespace",
			"metadata": map[string]any{"name": nsName(i), "labels": map[string]any{"bench": "ownership-check"}},
		}})
	}
	out = append(out, object{body: widgetCRD()})
	for i := range n - len(out) {
		kind := kinds[i%len(kinds)]
		name := fmt.Sprintf("%s-%05d", lower(kind), i)
		ns := nsName((i / len(kinds)) % namespaces)
		// Striding by driftEvery+1 over the kinds' cycle spreads the drift
		// over every kind instead of hitting one.
		drift := i%driftEvery == (i/driftEvery)%len(kinds)
		out = append(out, object{body: manifest(kind, ns, name, i), drift: drift})
	}
	return out
}

func nsName(i int) string { return fmt.Sprintf("bench-%02d", i) }

func lower(kind string) string { return string(bytes.ToLower([]byte(kind))) }

func manifest(kind, ns, name string, i int) map[string]any {
	labels := map[string]any{"app": name, "tier": "backend", "bench": "ownership-check"}
	md := map[string]any{"name": name, "namespace": ns, "labels": labels,
		"annotations": map[string]any{"bench.ownership-check.dev/index": fmt.Sprint(i)}}
	obj := map[string]any{"kind": kind, "metadata": md}
	switch kind {
	case "Deployment":
		obj["apiVersion"] = "apps/v1"
		obj["spec"] = map[string]any{
			"replicas": 3,
			"selector": map[string]any{"matchLabels": map[string]any{"app": name}},
			"template": map[string]any{
				"metadata": map[string]any{"labels": map[string]any{"app": name, "tier": "backend"}},
				"spec": map[string]any{"containers": []any{map[string]any{
					"name":  "app",
					"image": fmt.Sprintf("registry.example/app:%d.0", i%7),
					"ports": []any{map[string]any{"name": "http", "containerPort": 8080}},
					"env": []any{
						map[string]any{"name": "LOG_LEVEL", "value": "info"},
						map[string]any{"name": "INDEX", "value": fmt.Sprint(i)},
					},
					"resources": map[string]any{
						"requests": map[string]any{"cpu": "100m", "memory": "128Mi"},
						"limits":   map[string]any{"memory": "256Mi"},
					},
				}}},
			},
		}
	case "Service":
		obj["apiVersion"] = "v1"
		// Headless: the test server's service range has 254 addresses.
		obj["spec"] = map[string]any{
			"clusterIP": "None",
			"selector":  map[string]any{"app": name},
			"ports":     []any{map[string]any{"name": "http", "port": 80, "targetPort": 8080, "protocol": "TCP"}},
		}
	case "ConfigMap":
		obj["apiVersion"] = "v1"
		obj["data"] = map[string]any{
			"mode": "production", "index": fmt.Sprint(i),
			"settings.yaml": "retries: 3\ntimeout: 30s\nfeatures: [a, b, c]\n",
		}
	case "Widget":
		obj["apiVersion"] = crdGroup + "/v1"
		obj["spec"] = map[string]any{"size": 3, "color": "blue", "tags": []any{"a", "b"}}
	}
	return obj
}

func widgetCRD() map[string]any {
	str := map[string]any{"type": "string"}
	return map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets." + crdGroup},
		"spec": map[string]any{
			"group": crdGroup, "scope": "Namespaced",
			"names": map[string]any{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object",
					"properties": map[string]any{"spec": map[string]any{
						"type": "object",
						"properties": map[string]any{
							"size":  map[string]any{"type": "integer"},
							"color": str,
							"tags":  map[string]any{"type": "array", "items": str},
						},
					}},
				}},
			}},
		},
	}
}

// writeManifests writes the objects into dir as one multi-document file
// per namespace and kind, plus the cluster-scoped ones.
func writeManifests(dir string, objs []object) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := map[string]*bytes.Buffer{}
	var order []string
	for _, o := range objs {
		file := "00-cluster.yaml"
		if ns := o.namespace(); ns != "" {
			file = ns + "-" + lower(o.kind()) + ".yaml"
		}
		b, ok := files[file]
		if !ok {
			b = &bytes.Buffer{}
			files[file] = b
			order = append(order, file)
		}
		data, err := yaml.Marshal(o.body)
		if err != nil {
			return err
		}
		b.WriteString("---\n")
		b.Write(data)
	}
	for _, f := range order {
		if err := os.WriteFile(filepath.Join(dir, f), files[f].Bytes(), 0o644); err != nil {
			return err
		}
	}
	return nil
}
