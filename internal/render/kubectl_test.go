package render

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/render/kustomize"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// kubectlCases are the kustomize fixtures whose build must equal
// `kubectl kustomize` (the golden files are recorded with make test-deps'
// kubectl v1.33.13, kustomize v5.6.0; v1.32.4 with kustomize v5.5.0
// printed the same objects): bases and overlays, strategic-merge and JSON
// 6902 patches, ConfigMap and Secret generators with hash suffixes (and a
// merge behavior), a component, the namespace, prefix and suffix
// transformers, images, replicas and labels.
var kubectlCases = []string{"base", "overlays/prod", "overlays/staging"}

func kubectlGolden(c string) string {
	return filepath.Join("testdata/render/golden/kubectl", strings.ReplaceAll(c, "/", "-")+".yaml")
}

func TestKustomizeMatchesKubectl(t *testing.T) {
	inRepoRoot(t)
	for _, c := range kubectlCases {
		t.Run(c, func(t *testing.T) {
			dir := filepath.Join("testdata/render/kustomize", c)
			if *update {
				recordKubectl(t, dir, kubectlGolden(c))
			}
			data, err := os.ReadFile(kubectlGolden(c))
			if err != nil {
				t.Fatalf("%v (record it with: go test ./internal/render -run TestKustomizeMatchesKubectl -update; needs kubectl)", err)
			}
			want, err := source.ParseManifests(kubectlGolden(c), data)
			if err != nil {
				t.Fatal(err)
			}
			got := buildRaw(t, dir, config.KustomizeOptions{})
			if g, w := byKey(got), byKey(want); !reflect.DeepEqual(g, w) {
				for k := range w {
					if !reflect.DeepEqual(g[k], w[k]) {
						t.Errorf("%s: got\n%v\nwant (kubectl kustomize)\n%v", k, g[k], w[k])
					}
				}
				for k := range g {
					if _, ok := w[k]; !ok {
						t.Errorf("%s: not in kubectl's output", k)
					}
				}
			}
		})
	}
}

// buildRaw runs the kustomize stage alone: no namespace defaulting, no
// ignore rules, as kubectl kustomize prints it.
func buildRaw(t testing.TB, dir string, opts config.KustomizeOptions) []source.RawObject {
	t.Helper()
	cwd, _ := os.Getwd()
	b, err := source.NewBoundary(cwd, "", []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(real)
	objs, err := kustomize.NewBuilder(source.NewGuardFS(b), opts).Build(context.Background(), abs)
	if err != nil {
		t.Fatal(err)
	}
	return objs
}

func byKey(objs []source.RawObject) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, o := range objs {
		meta, _ := o.Obj["metadata"].(map[string]any)
		out[fmt.Sprintf("%v/%v/%v/%v", o.Obj["apiVersion"], o.Obj["kind"], meta["namespace"], meta["name"])] = o.Obj
	}
	return out
}

func recordKubectl(t *testing.T, dir, golden string) {
	t.Helper()
	kubectl := testcluster.Tool(t, "kubectl")
	out, err := exec.Command(kubectl, "kustomize", dir).Output()
	if err != nil {
		t.Fatalf("kubectl kustomize %s: %v", dir, err)
	}
	version, _ := exec.Command(kubectl, "version", "--client").Output()
	var header bytes.Buffer
	fmt.Fprintf(&header, "# Recorded with: kubectl kustomize %s\n", filepath.ToSlash(dir))
	for _, line := range strings.Split(strings.TrimSpace(string(version)), "\n") {
		fmt.Fprintf(&header, "# %s\n", line)
	}
	fmt.Fprintf(&header, "# Refresh: go test ./internal/render -run TestKustomizeMatchesKubectl -update\n")
	if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(golden, append(header.Bytes(), out...), 0o644); err != nil {
		t.Fatal(err)
	}
}
