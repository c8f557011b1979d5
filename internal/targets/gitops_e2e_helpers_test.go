package targets_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/targets"
)

// gitopsCluster is the test API server as the GitOps fixture's clusters:
// every discover entry's context is it, the kinds the fixture deploys
// that it does not serve itself are installed, and so are the namespaces.
type gitopsCluster struct {
	t      *testing.T
	client *kube.Client
}

func newGitOpsCluster(t *testing.T) *gitopsCluster {
	t.Helper()
	client, err := kube.New(cluster.Config(), "default", 8)
	if err != nil {
		t.Fatal(err)
	}
	// The discover entries' contexts, every one this API server.
	kubeconfig := cluster.KubeconfigFile(t)
	kc, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"staging", "production", "management"} {
		kc.Contexts[name] = kc.Contexts[kc.CurrentContext].DeepCopy()
	}
	kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	c := &gitopsCluster{t: t, client: client}
	for _, d := range []map[string]any{
		crd("monitoring.coreos.com", "v1", "ServiceMonitor"),
		crd("kustomize.toolkit.fluxcd.io", "v1", "Kustomization"),
		crd("source.toolkit.fluxcd.io", "v1", "GitRepository"),
		crd("source.toolkit.fluxcd.io", "v1", "HelmRepository"),
		crd("helm.toolkit.fluxcd.io", "v2", "HelmRelease"),
	} {
		c.apply(d, "platform")
	}
	for _, ns := range []string{"apps", "guestbook", "flux-system", "web"} {
		c.apply(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}}, "platform")
	}
	return c
}

// apply applies obj server-side as manager, forcing.
func (c *gitopsCluster) apply(obj map[string]any, manager string) {
	t := c.t
	t.Helper()
	ctx := context.Background()
	u := &unstructured.Unstructured{Object: obj}
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	force := true
	// A CRD is served a moment after it is created.
	deadline := time.Now().Add(20 * time.Second)
	for {
		res, err := c.client.Resource(u.GroupVersionKind(), u.GetNamespace())
		if err == nil {
			_, err = res.Patch(ctx, u.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: manager, Force: &force})
		}
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("apply %s %s as %s: %v", u.GetKind(), u.GetName(), manager, err)
		}
		time.Sleep(200 * time.Millisecond)
		// Its discovery is read once: a new client sees the new kind.
		if c.client, err = kube.New(cluster.Config(), "default", 8); err != nil {
			t.Fatal(err)
		}
	}
}

// deploy deploys s as its controller deploys it: its render, applied
// server-side with its manager, forcing.
func (c *gitopsCluster) deploy(s targets.Target) {
	t := c.t
	t.Helper()
	ctx := context.Background()
	rt, paths, err := targets.Resolve(ctx, check.Target{}, s)
	if err != nil {
		t.Fatal(err)
	}
	objs, warnings, err := command.Render(ctx, rt, check.RunOptions{}, paths, check.RenderOptions{})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("%s: %v %q", s.Name, err, warnings)
	}
	for _, o := range objs {
		c.apply(o.Object.Object, s.FieldManager)
	}
}
