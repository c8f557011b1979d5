package check_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestChangesAgreeWithKubectlDiff takes `kubectl diff --server-side` as the
// oracle of what a deploy changes, on a fixture with every workload kind,
// a Service, ConfigMaps and a custom resource: the same objects change,
// and every field kubectl shows changed (server bookkeeping aside) is in
// our diff.
func TestChangesAgreeWithKubectlDiff(t *testing.T) {
	s := newScenario(t, "kubectl-diff")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "s21.diff-example.com", Version: "v1", Kind: "Widget"})
	agreeWithKubectlDiff(t, s, 9)
}

// TestChangesAgreeWithKubectlDiffOnPublicManifests: the same on real
// public manifests, Kubernetes' own add-ons: metrics-server, the
// volume snapshot controller, its CRDs (one of them changed) and a
// custom resource of one.
func TestChangesAgreeWithKubectlDiffOnPublicManifests(t *testing.T) {
	s := newScenario(t, "kubectl-diff-public")
	s.deploy("crd", "")
	waitForSchema(t, s, schema.GroupVersionKind{Group: "snapshot.storage.k8s.io", Version: "v1", Kind: "VolumeSnapshotClass"})
	agreeWithKubectlDiff(t, s, 4)
}

// agreeWithKubectlDiff deploys "deployed", snapshots, and compares
// check's changes of "pr" with kubectl diff's; kubectl must show at least
// want changed objects (the fixture's).
func agreeWithKubectlDiff(t *testing.T, s *scenario, want int) {
	t.Helper()
	s.deploy("deployed", "")
	s.snapshot("deployed", "")

	code, rep, stderr := s.check("pr", "--fail-on", "none")
	if code != 0 {
		t.Fatalf("check exited %d: %s", code, stderr)
	}
	live, merged := kubectlDiff(t, s, "pr")

	oracle := map[string][]string{}
	for name, after := range merged {
		if changed := leafChanges(live[name], after); len(changed) > 0 {
			oracle[name] = changed
		}
	}
	ours := map[string]report.Object{}
	for _, o := range rep.Objects {
		if o.Change != model.ChangeNone {
			ours[kubectlFileName(o)] = o
		}
	}
	if got, want := sortedKeys(ours), sortedKeys(oracle); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("changed objects:\n ours    %v\n kubectl %v", got, want)
	}
	t.Logf("kubectl diff: %d changed objects: %v", len(oracle), oracle)
	if len(oracle) < want {
		t.Errorf("kubectl diff shows %d changed objects, want the fixture's %d: %v", len(oracle), want, sortedKeys(oracle))
	}
	for name, paths := range oracle {
		o, ok := ours[name]
		if !ok || o.Change == model.ChangeCreate {
			continue
		}
		for _, p := range paths {
			if !inDiff(o.Diff, p) {
				t.Errorf("%s: kubectl diff shows %s changed, our diff does not: %+v", name, p, o.Diff)
			}
		}
	}
}

// kubectlDiff runs kubectl diff with an external "diff" that keeps the two
// folders it is given, and reads the objects in them by file name.
func kubectlDiff(t *testing.T, s *scenario, manifests string) (live, merged map[string]map[string]any) {
	t.Helper()
	out := t.TempDir()
	script := filepath.Join(t.TempDir(), "keep.sh")
	if err := os.WriteFile(script, []byte(fmt.Sprintf("#!/bin/sh\ncp -r \"$1\" %[1]s/live && cp -r \"$2\" %[1]s/merged\n", out)), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(testcluster.Tool(t, "kubectl"), "--kubeconfig", s.kubeconfig, "diff", "--server-side", "--force-conflicts",
		"--field-manager", deployer, "-f", s.path(manifests))
	cmd.Env = append(os.Environ(), "KUBECTL_EXTERNAL_DIFF="+script)
	if b, err := cmd.CombinedOutput(); err != nil {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("kubectl diff: %v\n%s", err, b)
		}
	}
	return readFolder(t, filepath.Join(out, "live")), readFolder(t, filepath.Join(out, "merged"))
}

func readFolder(t *testing.T, dir string) map[string]map[string]any {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	objs := map[string]map[string]any{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		objs[e.Name()] = m
	}
	return objs
}

// kubectlFileName is the name kubectl diff gives an object's file:
// group.version.Kind.namespace.name (the group left out for core kinds,
// the namespace empty for cluster-scoped ones).
func kubectlFileName(o report.Object) string {
	gv, _ := schema.ParseGroupVersion(o.APIVersion)
	parts := []string{}
	if gv.Group != "" {
		parts = append(parts, gv.Group)
	}
	return strings.Join(append(parts, gv.Version, o.Kind, o.Namespace, o.Name), ".")
}

// leafChanges lists the leaves that differ, in the paths our diff uses:
// items of lists of named objects by [name="…"], other lists of objects
// by position, lists of scalars whole.
func leafChanges(before, after map[string]any) []string {
	a, b := map[string]string{}, map[string]string{}
	flatten("", before, a)
	flatten("", after, b)
	var out []string
	for p, v := range b {
		if a[p] != v {
			out = append(out, p)
		}
	}
	for p := range a {
		if _, ok := b[p]; !ok {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

var kubectlBookkeeping = []string{".status", ".metadata.managedFields", ".metadata.resourceVersion", ".metadata.generation",
	".metadata.uid", ".metadata.creationTimestamp"}

func flatten(path string, v any, out map[string]string) {
	for _, b := range kubectlBookkeeping {
		if path == b || strings.HasPrefix(path, b+".") || strings.HasPrefix(path, b+"[") {
			return
		}
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			flatten(path+"."+k, e, out)
		}
		return
	case []any:
		if len(x) > 0 {
			if _, ok := x[0].(map[string]any); ok {
				for i, e := range x {
					m, _ := e.(map[string]any)
					if n, ok := m["name"].(string); ok {
						flatten(fmt.Sprintf("%s[name=%q]", path, n), e, out)
					} else {
						flatten(fmt.Sprintf("%s[%d]", path, i), e, out)
					}
				}
				return
			}
		}
	}
	out[path] = fmt.Sprint(v)
}

func inDiff(diff []model.FieldChange, path string) bool {
	for _, c := range diff {
		if c.Path == path || strings.HasPrefix(path, c.Path+".") || strings.HasPrefix(path, c.Path+"[") {
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
