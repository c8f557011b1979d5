package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// A field an overlay's patch sets is the patch's, at the line that sets
// it: a strategic-merge patch file, a JSON 6902 patch file, an inline
// patch of the kustomization; a field no patch sets is the base's.
func TestPatchedFieldsNameThePatch(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "base/deployment.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: web
        image: web:1
        ports: [{containerPort: 80}]
      - name: sidecar
        image: proxy:1
`)
	writeFile(t, "base/kustomization.yaml", "resources: [deployment.yaml]\n")
	writeFile(t, "overlays/prod/kustomization.yaml", `namePrefix: prod-
resources: [../../base]
patches:
- path: replicas-patch.yaml
- path: image-patch.yaml
  target: {kind: Deployment, name: web}
- target: {kind: Deployment}
  patch: |-
    - op: add
      path: /metadata/annotations
      value: {team: shop}
`)
	writeFile(t, "overlays/prod/replicas-patch.yaml", `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  template:
    spec:
      containers:
      - name: web
        resources: {limits: {memory: 64Mi}}
`)
	writeFile(t, "overlays/prod/image-patch.yaml", `- op: replace
  path: /spec/template/spec/containers/1/image
  value: proxy:2
`)
	obj := builtObject(t, "overlays/prod", "prod-web")
	for path, want := range map[string]string{
		".spec.replicas": "overlays/prod/replicas-patch.yaml:6",
		`.spec.template.spec.containers[name="web"].resources.limits.memory`: "overlays/prod/replicas-patch.yaml:11",
		`.spec.template.spec.containers[name="sidecar"].image`:               "overlays/prod/image-patch.yaml:2",
		".metadata.annotations.team":                                         "overlays/prod/kustomization.yaml:10",
		`.spec.template.spec.containers[name="web"].ports`:                   "base/deployment.yaml",
		`.spec.template.spec.containers[name="web"].image`:                   "base/deployment.yaml",
		".spec.selector": "base/deployment.yaml",
	} {
		p, err := model.ParsePath(path)
		if err != nil {
			t.Fatal(err)
		}
		if got := obj.SourceOf(p); got != want {
			t.Errorf("%s: set in %q, want %q", path, got, want)
		}
	}
}

// A kustomization without patches gives its objects no PatchedAt.
func TestUnpatchedBuildNamesTheDocument(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n")
	writeFile(t, "app/kustomization.yaml", "resources: [cm.yaml]\n")
	if obj := builtObject(t, "app", "web"); obj.PatchedAt != nil {
		t.Errorf("PatchedAt set on an object no patch applies to")
	}
}

// builtObject builds dir with the in-process kustomize and gives the
// object named name as a model.Object carries it.
func builtObject(t *testing.T, dir, name string) model.Object {
	t.Helper()
	cwd, _ := os.Getwd()
	b, err := source.NewBoundary(cwd, "", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(cwd, dir))
	if err != nil {
		t.Fatal(err)
	}
	k := NewBuilder(source.NewGuardFS(b), config.KustomizeOptions{})
	raws, err := k.Build(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range raws {
		if source.NameOf(r.Obj) == name {
			return model.Object{Source: r.Source, Line: r.Line, PatchedAt: r.PatchedAt}
		}
	}
	t.Fatalf("%s: no object %s", dir, name)
	return model.Object{}
}
