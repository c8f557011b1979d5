package kustomize

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// buildSourced builds dir as Render does and returns each object's
// "kind/name" → "source:line", and how many builds were run again with
// origin annotations to find them.
func buildSourced(t *testing.T, dir string) (map[string]string, int32) {
	t.Helper()
	cwd, _ := os.Getwd()
	b, err := source.NewBoundary(cwd, "", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		t.Fatal(err)
	}
	k := NewBuilder(source.NewGuardFS(b), config.KustomizeOptions{})
	objs, err := k.Build(context.Background(), real)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, o := range objs {
		meta, _ := o.Obj["metadata"].(map[string]any)
		ns, _ := meta["namespace"].(string)
		out[o.Obj["kind"].(string)+"/"+ns+"/"+source.NameOf(o.Obj)] = o.Source + ":" + strconv.Itoa(o.Line)
	}
	return out, k.originBuilds.Load()
}

func checkSources(t *testing.T, got, want map[string]string) {
	t.Helper()
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: source %q, want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("built %v, want %d objects", got, len(want))
	}
}

// Bases, a component, generators (one merged by the overlay), prefixes and
// hashes: every source is found from the scan, without building again.
func TestSourcesFromScan(t *testing.T) {
	inRepoRoot(t)
	got, again := buildSourced(t, "testdata/render/kustomize/overlays/prod")
	for id, want := range map[string]string{
		"Deployment/prod/prod-web":                  "testdata/render/kustomize/base/deployment.yaml:1",
		"Service/prod/prod-web":                     "testdata/render/kustomize/base/service.yaml:2",
		"ServiceAccount/prod/prod-web":              "testdata/render/kustomize/base/service.yaml:13",
		"ConfigMap/prod/prod-web-config-9tbh48kmkt": "testdata/render/kustomize/base/kustomization.yaml:11",
		"Secret/prod/prod-web-tls-ddbc979t2b":       "testdata/render/kustomize/overlays/prod/kustomization.yaml:32",
		"ServiceMonitor/prod/prod-web":              "testdata/render/kustomize/components/monitoring/servicemonitor.yaml:1",
	} {
		if got[id] != want {
			t.Errorf("%s: source %q, want %q", id, got[id], want)
		}
	}
	if again != 0 {
		t.Errorf("built again %d times for sources, want 0", again)
	}
}

// One base reached twice (two namespaces): both objects come from the
// same document, which the build reaches twice.
func TestSourcesBaseTwice(t *testing.T) {
	t.Chdir(t.TempDir())
	writeFile(t, "base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n")
	writeFile(t, "base/kustomization.yaml", "resources: [cm.yaml]\n")
	for _, ns := range []string{"a", "b"} {
		writeFile(t, ns+"/kustomization.yaml", "namespace: "+ns+"\nresources: [../base]\n")
	}
	writeFile(t, "all/kustomization.yaml", "resources: [../a, ../b]\n")
	got, again := buildSourced(t, "all")
	checkSources(t, got, map[string]string{"ConfigMap/a/web": "base/cm.yaml:1", "ConfigMap/b/web": "base/cm.yaml:1"})
	if again != 0 {
		t.Errorf("built again %d times for sources, want 0", again)
	}
}

// Where the names cannot tell (two documents named alike, or a name that
// contains another document's), the build runs again with origin
// annotations, and the sources are still exact.
func TestSourcesAmbiguousNames(t *testing.T) {
	t.Run("two bases, one name", func(t *testing.T) {
		t.Chdir(t.TempDir())
		for _, app := range []string{"a", "b"} {
			writeFile(t, app+"/cm.yaml", "# "+app+"\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\ndata: {a: b}\n")
			writeFile(t, app+"/kustomization.yaml", "namePrefix: "+app+"-\nresources: [cm.yaml]\n")
		}
		writeFile(t, "all/kustomization.yaml", "resources: [../a, ../b]\n")
		got, again := buildSourced(t, "all")
		checkSources(t, got, map[string]string{"ConfigMap//a-web": "a/cm.yaml:2", "ConfigMap//b-web": "b/cm.yaml:2"})
		if again != 1 {
			t.Errorf("built again %d times, want 1", again)
		}
	})
	t.Run("a name containing another", func(t *testing.T) {
		// base's "web" becomes prod-web; other's "prod-web" becomes
		// prod-prod-web. The longest name in "prod-web" is other's.
		t.Chdir(t.TempDir())
		writeFile(t, "base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n")
		writeFile(t, "base/other.yaml", "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: prod-web}\n")
		writeFile(t, "base/kustomization.yaml", "resources: [cm.yaml, other.yaml]\n")
		writeFile(t, "prod/kustomization.yaml", "namePrefix: prod-\nresources: [../base]\n")
		got, again := buildSourced(t, "prod")
		checkSources(t, got, map[string]string{"ConfigMap//prod-web": "base/cm.yaml:1", "ConfigMap//prod-prod-web": "base/other.yaml:2"})
		if again != 1 {
			t.Errorf("built again %d times, want 1", again)
		}
	})
	t.Run("renamed by a patch", func(t *testing.T) {
		t.Chdir(t.TempDir())
		writeFile(t, "app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: web}\n")
		writeFile(t, "app/kustomization.yaml", `resources: [cm.yaml]
patches:
  - target: {kind: ConfigMap, name: web}
    options: {allowNameChange: true}
    patch: |-
      - op: replace
        path: /metadata/name
        value: api
`)
		got, again := buildSourced(t, "app")
		checkSources(t, got, map[string]string{"ConfigMap//api": "app/cm.yaml:1"})
		if again != 1 {
			t.Errorf("built again %d times, want 1", again)
		}
	})
}
