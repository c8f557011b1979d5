package reliability_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// writeTree writes files (path → content) under a new git repository and
// returns its root.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := gitRepo(t)
	for p, content := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// measured runs the command line and returns its result with the bytes it
// allocated (runtime.MemStats.TotalAlloc; the tests in this package run one
// at a time).
func measured(t *testing.T, args ...string) (result, uint64) {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r := run(t, args...)
	runtime.ReadMemStats(&after)
	return r, after.TotalAlloc - before.TotalAlloc
}

const cm = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"

func billionLaughs() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lol\ndata:\n  a0: &a0 \"lol\"\n")
	// Each level refers to the previous one ten times: 10^9 nodes at level 9.
	b.WriteString("x:\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "  a%d: &a%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func deeplyNested(depth int) string {
	return fmt.Sprintf(cm, "deep") + "data:\n  k: v\nx: " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\n"
}

// TestHostileManifests: what a pull request's files may try. Each is
// refused with exit 2 and a message naming the file at fault, with bounded
// memory, and nothing is read outside the repository or run.
func TestHostileManifests(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside-secret.yaml")
	if err := os.WriteFile(outside, []byte(fmt.Sprintf(cm, "stolen")+"data:\n  key: outside-canary\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		files map[string]string
		link  [2]string // symlink: path in the tree → target
		path  string    // what to render, relative to the tree
		want  string    // in the error
	}{
		{"path escape with ../", map[string]string{"app/kustomization.yaml": "resources:\n- ../../../../../../../.." + outside + "\n"},
			[2]string{}, "app", "outside"},
		{"absolute path", map[string]string{"app/kustomization.yaml": "resources:\n- " + outside + "\n"},
			[2]string{}, "app", "outside"},
		{"symlink out of the repository", map[string]string{"app/kustomization.yaml": "resources:\n- cm.yaml\n"},
			[2]string{"app/cm.yaml", outside}, "app", "cm.yaml"},
		{"exec plugin", map[string]string{"app/kustomization.yaml": "transformers:\n- plugin.yaml\n",
			"app/plugin.yaml": "apiVersion: example.com/v1\nkind: Pwn\nmetadata:\n  name: x\n  annotations:\n    config.kubernetes.io/function: |\n      exec:\n        path: /bin/sh\n"},
			[2]string{}, "app", "plugin"},
		{"helm chart", map[string]string{"app/kustomization.yaml": "helmCharts:\n- name: x\n  repo: https://charts.example.com\n  version: 1.0.0\n"},
			[2]string{}, "app", "helm"},
		{"remote git base", map[string]string{"app/kustomization.yaml": "resources:\n- github.com/kubernetes-sigs/kustomize//examples/helloWorld?ref=v3.3.1\n"},
			[2]string{}, "app", "remote"},
		{"remote http resource", map[string]string{"app/kustomization.yaml": "resources:\n- https://raw.githubusercontent.com/kubernetes/website/main/content/en/examples/application/nginx-app.yaml\n"},
			[2]string{}, "app", "remote"},
		{"billion laughs", map[string]string{"m/lol.yaml": billionLaughs()}, [2]string{}, "m/lol.yaml", "lol.yaml"},
		{"deeply nested (100,000 levels)", map[string]string{"m/deep.yaml": deeplyNested(100_000)}, [2]string{}, "m/deep.yaml", "deep.yaml"},
		{"invalid UTF-8", map[string]string{"m/bad.yaml": fmt.Sprintf(cm, "bad") + "data:\n  k: \"\xff\xfe\"\n"}, [2]string{}, "m/bad.yaml", "bad.yaml"},
		{"duplicate keys", map[string]string{"m/dup.yaml": fmt.Sprintf(cm, "dup") + "data:\n  k: one\n  k: two\n"}, [2]string{}, "m/dup.yaml", "dup.yaml"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTree(t, tc.files)
			if tc.link[0] != "" {
				if err := os.Symlink(tc.link[1], filepath.Join(root, tc.link[0])); err != nil {
					t.Fatal(err)
				}
			}
			// The workflow runs from the checkout: the repository boundary.
			t.Chdir(root)
			r, alloc := measured(t, "render", tc.path)
			t.Logf("exit %d, %d MiB allocated: %s", r.code, alloc>>20, firstLine(r.stderr))
			if r.code != 2 {
				t.Fatalf("want exit 2, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(strings.ToLower(r.stderr), strings.ToLower(tc.want)) {
				t.Errorf("error does not name %q:\n%s", tc.want, r.stderr)
			}
			if strings.Contains(r.stdout+r.stderr, "outside-canary") {
				t.Error("content from outside the repository was read into the output")
			}
			if alloc > 512<<20 {
				t.Errorf("allocated %d MiB: unbounded", alloc>>20)
			}
		})
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// TestLargeManifests: a 1 MiB ConfigMap (just under the API server's limit)
// and an object with 20,000 fields are checked correctly against the API
// server, with bounded memory.
func TestLargeManifests(t *testing.T) {
	testcluster.Require(t, cluster)
	ns := freshNamespace(t, "large")
	var many strings.Builder
	for i := range 20_000 {
		fmt.Fprintf(&many, "  k%05d: v%d\n", i, i)
	}
	for _, tc := range []struct {
		name, yaml string
	}{
		{"1 MiB ConfigMap", fmt.Sprintf(cm, "big") + "  namespace: " + ns + "\ndata:\n  blob: " + strings.Repeat("x", 1000*1024) + "\n"},
		{"20,000 fields", fmt.Sprintf(cm, "wide") + "  namespace: " + ns + "\ndata:\n" + many.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "m.yaml")
			if err := os.WriteFile(file, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			r, alloc := measured(t, checkArgs(cluster.KubeconfigFile(t), gitRepo(t), file)...)
			t.Logf("exit %d, %d MiB allocated for a %d KiB manifest", r.code, alloc>>20, len(tc.yaml)>>10)
			if r.code != 0 || r.rep == nil || len(r.rep.Objects) != 1 || r.rep.Summary.Count(model.New) != 1 {
				t.Fatalf("want exit 0 and one new object, got %d\n%.2000s\n%s", r.code, r.stdout, r.stderr)
			}
			if alloc > 2<<30 {
				t.Errorf("allocated %d MiB: unbounded", alloc>>20)
			}
		})
	}
}
