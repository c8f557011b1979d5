package render

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// Rendering a 500-object kustomization, against kubectl kustomize on the
// same input:
//
//	go test ./internal/render -short -run '^$' -bench 500 -benchmem
//
// BenchmarkKrusty500 is kustomize alone (no scan, no guarded file system,
// no identity or ignore step), as Render runs it; BenchmarkKrustyOrigins500
// kustomize with origin annotations, which Render asks for only when the
// scan cannot tell an object's source (see sources.go), to show what costs
// what.
// Besides wall time each reports cpu-ms/op, the CPU time used (kubectl's
// as its process's user + system time), which a busy machine disturbs
// less; compare that.

const benchObjects = 500

// writeBenchKustomization writes a base of n objects (Deployments,
// Services and ConfigMaps in multi-document files, plus generated
// ConfigMaps) and an overlay with a namespace, a prefix, labels and a
// patch, and returns the overlay's directory.
func writeBenchKustomization(tb testing.TB, n int) string {
	tb.Helper()
	return writeBenchKustomizationIn(tb, tb.TempDir(), n, "bench")
}

// writeBenchKustomizationIn is writeBenchKustomization into dir, with the
// overlay's objects in namespace.
func writeBenchKustomizationIn(tb testing.TB, dir string, n int, namespace string) string {
	tb.Helper()
	var resources, generators strings.Builder
	files := n * 9 / 10 / 3
	generated := n - 3*files
	for i := 0; i < files; i++ {
		name := fmt.Sprintf("app-%03d", i)
		writeFile(tb, filepath.Join(dir, "base", name+".yaml"), fmt.Sprintf(benchApp, name))
		fmt.Fprintf(&resources, "  - %s.yaml\n", name)
	}
	for i := 0; i < generated; i++ {
		fmt.Fprintf(&generators, "  - name: settings-%03d\n    literals:\n      - INDEX=%d\n      - MODE=bench\n", i, i)
	}
	writeFile(tb, filepath.Join(dir, "base", "kustomization.yaml"),
		"resources:\n"+resources.String()+"configMapGenerator:\n"+generators.String())
	writeFile(tb, filepath.Join(dir, "overlay", "kustomization.yaml"), `namespace: `+namespace+`
namePrefix: prod-
labels:
  - pairs: {env: prod}
resources:
  - ../base
patches:
  - target: {kind: Deployment}
    patch: |-
      - op: replace
        path: /spec/replicas
        value: 3
`)
	return filepath.Join(dir, "overlay")
}

const benchApp = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s
spec:
  replicas: 1
  selector:
    matchLabels: {app: %[1]s}
  template:
    metadata:
      labels: {app: %[1]s}
    spec:
      containers:
        - name: app
          image: nginx:1.27
          ports: [{containerPort: 80}]
          resources: {requests: {cpu: 10m, memory: 16Mi}}
---
apiVersion: v1
kind: Service
metadata:
  name: %[1]s
spec:
  selector: {app: %[1]s}
  ports: [{port: 80, targetPort: 80}]
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: %[1]s
data:
  greeting: hello
`

func BenchmarkRender500(b *testing.B) {
	overlay := writeBenchKustomization(b, benchObjects)
	b.Chdir(filepath.Dir(overlay))
	objs, err := Render(context.Background(), []string{"overlay"}, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(objs) != benchObjects {
		b.Fatalf("rendered %d objects, want %d", len(objs), benchObjects)
	}
	b.ResetTimer()
	start := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := Render(context.Background(), []string{"overlay"}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, processCPU()-start)
}

// Several paths at once, as a deploy of a few apps is run:
//
//	go test ./internal/render -short -run '^$' -bench 'Paths|Files' -benchmem
//
// BenchmarkRenderPaths4x500 renders four kustomizations of 500 objects;
// BenchmarkRenderFiles5000 a directory of 40 multi-document YAML files
// holding 5,000 objects (the layout of bench/run's manifests).
func BenchmarkRenderPaths4x500(b *testing.B) {
	root := b.TempDir()
	var paths []string
	for i := 0; i < 4; i++ {
		app := fmt.Sprintf("app%d", i)
		writeBenchKustomizationIn(b, filepath.Join(root, app), benchObjects, app)
		paths = append(paths, filepath.Join(app, "overlay"))
	}
	b.Chdir(root)
	benchRender(b, paths, 4*benchObjects)
}

func BenchmarkRenderFiles5000(b *testing.B) {
	dir := b.TempDir()
	const files, perFile = 40, 125
	for f := 0; f < files; f++ {
		var doc strings.Builder
		for i := 0; i < perFile/3+1 && doc.Len() >= 0; i++ {
			fmt.Fprintf(&doc, benchApp+"---\n", fmt.Sprintf("app-%02d-%03d", f, i))
		}
		// benchApp holds three objects; trim to perFile.
		docs := strings.Split(doc.String(), "---\n")[:perFile]
		writeFile(b, filepath.Join(dir, fmt.Sprintf("ns%02d.yaml", f)), strings.Join(docs, "---\n"))
	}
	b.Chdir(dir)
	benchRender(b, []string{"."}, files*perFile)
}

func benchRender(b *testing.B, paths []string, want int) {
	objs, err := Render(context.Background(), paths, Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(objs) != want {
		b.Fatalf("rendered %d objects, want %d", len(objs), want)
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := Render(context.Background(), paths, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, processCPU()-start)
}

func reportCPU(b *testing.B, d time.Duration) {
	b.ReportMetric(float64(d.Milliseconds())/float64(b.N), "cpu-ms/op")
}

func BenchmarkKrusty500(b *testing.B) {
	overlay := writeBenchKustomization(b, benchObjects)
	benchKrusty(b, overlay)
}

func benchKrusty(b *testing.B, dir string) {
	b.ResetTimer()
	start := processCPU()
	for i := 0; i < b.N; i++ {
		m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
		if err != nil {
			b.Fatal(err)
		}
		if m.Size() != benchObjects {
			b.Fatalf("%d objects", m.Size())
		}
	}
	reportCPU(b, processCPU()-start)
}

func BenchmarkKubectlKustomize500(b *testing.B) {
	kubectl := testcluster.Tool(b, "kubectl")
	overlay := writeBenchKustomization(b, benchObjects)
	b.ResetTimer()
	var cpu time.Duration
	for i := 0; i < b.N; i++ {
		cmd := exec.Command(kubectl, "kustomize", overlay)
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if n := strings.Count(string(out), "\n---\n") + 1; n != benchObjects {
			b.Fatalf("kubectl printed %d objects", n)
		}
	}
	reportCPU(b, cpu)
}

func BenchmarkKrustyOrigins500(b *testing.B) {
	overlay := writeBenchKustomization(b, benchObjects)
	kfile := filepath.Join(overlay, "kustomization.yaml")
	data, _ := os.ReadFile(kfile)
	writeFile(b, kfile, string(data)+"buildMetadata: [originAnnotations]\n")
	benchKrusty(b, overlay)
}
