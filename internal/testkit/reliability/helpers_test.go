package reliability_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

const deployer = "deployer"

var nsCounter atomic.Int64

// freshNamespace names a namespace no other test uses (namespaces cannot be
// deleted: no controllers run) and creates it.
func freshNamespace(t *testing.T, prefix string) string {
	t.Helper()
	ns := fmt.Sprintf("%s-%d-%d", prefix, time.Now().UnixNano()%1e6, nsCounter.Add(1))
	apply(t, cluster.Config(), deployer, map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns},
	})
	return ns
}

// apply server-side applies obj as manager with force.
func apply(t *testing.T, cfg *rest.Config, manager string, obj map[string]any) {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{Object: obj}
	gvk := u.GroupVersionKind()
	plural := strings.ToLower(gvk.Kind) + "s"
	if gvk.Kind == "Namespace" {
		plural = "namespaces"
	}
	gvr := schema.GroupVersionResource{Group: gvk.Group, Version: gvk.Version, Resource: plural}
	var ri dynamic.ResourceInterface = dyn.Resource(gvr)
	if ns := u.GetNamespace(); ns != "" {
		ri = dyn.Resource(gvr).Namespace(ns)
	}
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	force := true
	if _, err := ri.Patch(context.Background(), u.GetName(), types.ApplyPatchType, data,
		metav1.PatchOptions{FieldManager: manager, Force: &force}); err != nil {
		t.Fatalf("apply %s/%s as %s: %v", gvk.Kind, u.GetName(), manager, err)
	}
}

// configMaps returns n ConfigMaps in ns.
func configMaps(ns string, n int) []map[string]any {
	var out []map[string]any
	for i := range n {
		out = append(out, map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": fmt.Sprintf("cm-%d", i), "namespace": ns},
			"data":     map[string]any{"key": fmt.Sprintf("value-%d", i)},
		})
	}
	return out
}

// writeManifests writes objs as one multi-document YAML (JSON documents)
// file in a new directory and returns the file.
func writeManifests(t *testing.T, objs []map[string]any) string {
	t.Helper()
	var b bytes.Buffer
	for _, o := range objs {
		data, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("---\n")
		b.Write(data)
		b.WriteString("\n")
	}
	path := filepath.Join(t.TempDir(), "manifests.yaml")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// gitRepo makes an empty repository for --snapshot-repo.
func gitRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return dir
}

// kubeconfigFor writes a kubeconfig that reaches cfg's server as cfg's
// identity.
func kubeconfigFor(t *testing.T, cfg *rest.Config) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := testcluster.WriteKubeconfig(cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

type result struct {
	code           int
	stdout, stderr string
	rep            *report.Report
}

// run runs the command line and decodes a JSON report when stdout holds one.
func run(t *testing.T, args ...string) result {
	t.Helper()
	var stdout, stderr bytes.Buffer
	var code int
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("ownership-check %s panicked: %v", strings.Join(args, " "), p)
			}
		}()
		code = cli.Run("test", args, &stdout, &stderr)
	}()
	r := result{code: code, stdout: stdout.String(), stderr: stderr.String()}
	if strings.HasPrefix(strings.TrimSpace(r.stdout), "{") {
		var rep report.Report
		if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
			t.Fatalf("exit %d with a report that is not JSON: %v\n%s", code, err, r.stdout)
		}
		r.rep = &rep
	}
	return r
}

// checkArgs are the arguments of a JSON check of manifests.
func checkArgs(kubeconfig, repo, manifests string, extra ...string) []string {
	return append([]string{"check", manifests, "--field-manager", deployer,
		"--kubeconfig", kubeconfig, "--snapshot-repo", repo, "--output", "json"}, extra...)
}

// errorsOf returns the dry-run-error findings of the report by object name.
func errorsOf(rep *report.Report) map[string][]model.Finding {
	out := map[string][]model.Finding{}
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if f.Category == model.DryRunError {
				out[o.Name] = append(out[o.Name], f)
			}
		}
	}
	return out
}

func dump(rep *report.Report) string {
	var b strings.Builder
	_ = report.WriteJSON(&b, rep)
	return b.String()
}

// setEnv sets the engine's limits for one test (see internal/check/tuning.go).
func setLimits(t *testing.T, requestTimeout, deadline string, retries int) {
	t.Setenv("OWNERSHIP_CHECK_REQUEST_TIMEOUT", requestTimeout)
	t.Setenv("OWNERSHIP_CHECK_DEADLINE", deadline)
	t.Setenv("OWNERSHIP_CHECK_MAX_RETRIES", fmt.Sprint(retries))
}
