package deployers_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The kinds the scenarios deploy, by the name tests give them.
var resources = map[string]schema.GroupVersionResource{
	"Deployment":              {Group: "apps", Version: "v1", Resource: "deployments"},
	"ConfigMap":               {Version: "v1", Resource: "configmaps"},
	"Service":                 {Version: "v1", Resource: "services"},
	"HorizontalPodAutoscaler": {Group: "autoscaling", Version: "v2", Resource: "horizontalpodautoscalers"},
}

// env is one scenario's namespace on the test API server, and the real
// tools that deploy into it.
type env struct {
	t          *testing.T
	ns         string
	kubeconfig string
	client     *kube.Client
	dyn        dynamic.Interface
	kubectlBin string
	// helmHome keeps Helm's cache, config and data out of $HOME.
	helmHome string
	// repo is an empty snapshot repository: each check is the
	// environment's first, as nothing recorded a deploy.
	repo string
}

func newEnv(t *testing.T, ns string) *env {
	t.Helper()
	testcluster.Require(t, cluster)
	client, err := kube.New(cluster.Config(), ns, 8)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cluster.Config())
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	e := &env{t: t, ns: ns, kubeconfig: cluster.KubeconfigFile(t), client: client, dyn: dyn,
		kubectlBin: testcluster.Tool(t, "kubectl"), helmHome: t.TempDir(), repo: repo}
	e.kubectl("create", "namespace", ns)
	start := time.Now()
	t.Cleanup(func() { t.Logf("%s: %s", t.Name(), time.Since(start).Round(time.Millisecond)) })
	return e
}

// kubectl runs kubectl in the scenario's namespace and fails the test when
// it fails.
func (e *env) kubectl(args ...string) string {
	e.t.Helper()
	out, err := e.exec(e.kubectlBin, append([]string{"--namespace", e.ns}, args...)...)
	if err != nil {
		e.t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// exec runs a tool against the test API server; its output is stdout and
// stderr together, as a user reads a failure.
func (e *env) exec(bin string, args ...string) (string, error) {
	e.t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "KUBECONFIG="+e.kubeconfig,
		"HELM_CACHE_HOME="+filepath.Join(e.helmHome, "cache"),
		"HELM_CONFIG_HOME="+filepath.Join(e.helmHome, "config"),
		"HELM_DATA_HOME="+filepath.Join(e.helmHome, "data"))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// get reads an object of the scenario's namespace; nil when there is none.
func (e *env) get(kind, name string) *unstructured.Unstructured {
	e.t.Helper()
	u, err := e.dyn.Resource(resources[kind]).Namespace(e.ns).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		e.t.Fatalf("%s/%s: %v", kind, name, err)
	}
	return u
}

// getKey is get of "Kind/name".
func (e *env) getKey(key string) *unstructured.Unstructured {
	e.t.Helper()
	kind, name, _ := strings.Cut(key, "/")
	return e.get(kind, name)
}

// patch writes as a person or a controller does, under its manager: a
// `kubectl edit` is a merge patch by kubectl-edit, a `kubectl scale` or an
// autoscaler a patch of the scale subresource.
func (e *env) patch(kind, name string, body, manager string, subresource ...string) {
	e.t.Helper()
	_, err := e.dyn.Resource(resources[kind]).Namespace(e.ns).Patch(context.Background(), name, types.MergePatchType,
		[]byte(body), metav1.PatchOptions{FieldManager: manager}, subresource...)
	if err != nil {
		e.t.Fatalf("%s/%s: patch by %s: %v", kind, name, manager, err)
	}
}

// file writes content into the scenario's own directory and returns its
// path.
func (e *env) file(name, content string) string {
	e.t.Helper()
	dir := filepath.Join(e.helmHome, "files")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		e.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return path
}
