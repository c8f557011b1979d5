package testcluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var captureFlag = flag.Bool("capture", false, "write real API server objects to testdata/managedfields")

const captureNamespace = "capture"

// TestCaptureManagedFields records what the real API server answers in the
// ownership scenarios, for the ownership package's tests to read offline.
// testdata/managedfields/README.md describes each file.
func TestCaptureManagedFields(t *testing.T) {
	if !*captureFlag {
		t.Skip("writes testdata/managedfields; run with -capture")
	}
	testcluster.Require(t, cluster)
	c := newCapturer(t)

	t.Run("deploy-scaled", func(t *testing.T) {
		c.save(t, "deploy-scaled.applied.live", c.apply(t, deploymentYAML("web-scaled", 3), "deployer"))
		c.scale(t, "web-scaled", 5, "kubectl")
		c.save(t, "deploy-scaled.live", c.get(t, deploymentYAML("web-scaled", 3)))
		c.save(t, "deploy-scaled.predicted", c.predict(t, deploymentYAML("web-scaled", 3), "deployer"))
	})

	t.Run("deploy-new", func(t *testing.T) {
		c.save(t, "deploy-new.predicted", c.predict(t, deploymentYAML("web-new", 3), "deployer"))
	})

	t.Run("deploy-hpa", func(t *testing.T) {
		c.apply(t, deploymentYAML("web-hpa", 3), "deployer")
		hpa := replicasOnlyYAML("web-hpa", 7)
		c.saveError(t, "deploy-hpa.conflict.error", hpa, "hpa", metav1.ApplyOptions{})
		c.apply(t, hpa, "hpa")
		c.save(t, "deploy-hpa.live", c.get(t, hpa))
		c.save(t, "deploy-hpa.predicted", c.predict(t, deploymentYAML("web-hpa", 3), "deployer"))
		c.saveError(t, "deploy-hpa.noforce.error", deploymentYAML("web-hpa", 3), "deployer",
			metav1.ApplyOptions{DryRun: []string{metav1.DryRunAll}})
	})

	t.Run("deploy-shared", func(t *testing.T) {
		c.apply(t, deploymentYAML("web-shared", 3), "deployer")
		c.apply(t, imageOnlyYAML("web-shared", "nginx:1.25"), "other")
		c.save(t, "deploy-shared.live", c.get(t, deploymentYAML("web-shared", 3)))
		changed := withImage(deploymentYAML("web-shared", 3), "nginx:1.26")
		c.save(t, "deploy-shared.predicted-image-changed", c.predict(t, changed, "deployer"))
	})

	t.Run("deploy-edited", func(t *testing.T) {
		y := deploymentYAML("web-edited", 3)
		c.apply(t, y, "deployer")
		patch := `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"nginx:1.26"}]}}}}`
		c.patch(t, y, types.StrategicMergePatchType, patch, "kubectl-edit")
		c.save(t, "deploy-edited.live", c.get(t, y))
		c.save(t, "deploy-edited.predicted", c.predict(t, y, "deployer"))
	})

	t.Run("service-ports", func(t *testing.T) {
		c.apply(t, serviceYAML, "deployer")
		c.save(t, "service-ports.live", c.get(t, serviceYAML))
		c.save(t, "service-ports.predicted-port-added", c.predict(t, serviceWithHTTPSYAML, "deployer"))
	})

	t.Run("deploy-finalizers", func(t *testing.T) {
		c.apply(t, finalizersYAML, "deployer")
		c.apply(t, teamLabelYAML, "labeler")
		c.save(t, "deploy-finalizers.live", c.get(t, finalizersYAML))
		c.save(t, "deploy-finalizers.predicted-label-dropped", c.predict(t, finalizersWithoutTeamYAML, "deployer"))
	})

	t.Run("initc-split", func(t *testing.T) {
		c.create(t, initContainersYAML, "Go-http-client")
		c.apply(t, enoInitImageYAML, "eno")
		c.save(t, "initc-split.live", c.get(t, initContainersYAML))
		c.saveError(t, "initc-split.dryrun.error", enoWithoutInitYAML, "eno",
			metav1.ApplyOptions{Force: true, DryRun: []string{metav1.DryRunAll}})
	})

	t.Run("secret", func(t *testing.T) {
		c.apply(t, secretYAML, "deployer")
		c.save(t, "secret.live", c.get(t, secretYAML))
		c.save(t, "secret.predicted", c.predict(t, secretYAML, "deployer"))
	})

	t.Run("configmap-edited", func(t *testing.T) {
		c.apply(t, configMapYAML, "deployer")
		c.update(t, configMapYAML, "editor", func(u *unstructured.Unstructured) {
			if err := unstructured.SetNestedField(u.Object, "3", "data", "b"); err != nil {
				t.Fatal(err)
			}
		})
		c.save(t, "configmap-edited.live", c.get(t, configMapYAML))
		c.save(t, "configmap-edited.predicted", c.predict(t, configMapYAML, "deployer"))
	})
}

type capturer struct {
	ctx    context.Context
	cs     kubernetes.Interface
	dyn    dynamic.Interface
	mapper meta.RESTMapper
	dir    string
}

func newCapturer(t *testing.T) *capturer {
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	cfg := cluster.Config()
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := &capturer{
		ctx:    testContext(t),
		cs:     clientset(t),
		dyn:    dyn,
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(dc)),
		dir:    filepath.Join(root, "testdata", "managedfields"),
	}
	// A fixed namespace keeps the captures comparable between runs; it
	// cannot be deleted (no namespace controller), hence one run per cluster.
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: captureNamespace}}
	if _, err := c.cs.CoreV1().Namespaces().Create(c.ctx, ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Namespace/%s: %v (the captures need a fresh cluster: use -count=1)", captureNamespace, err)
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return c
}

func (c *capturer) parse(y string) (*unstructured.Unstructured, dynamic.ResourceInterface, error) {
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(y), &u.Object); err != nil {
		return nil, nil, fmt.Errorf("scenario YAML: %w", err)
	}
	gvk := u.GroupVersionKind()
	m, err := c.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, nil, err
	}
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		u.SetNamespace(captureNamespace)
		return u, c.dyn.Resource(m.Resource).Namespace(captureNamespace), nil
	}
	return u, c.dyn.Resource(m.Resource), nil
}

func (c *capturer) object(t *testing.T, y string) (*unstructured.Unstructured, dynamic.ResourceInterface) {
	t.Helper()
	u, ri, err := c.parse(y)
	if err != nil {
		t.Fatal(err)
	}
	return u, ri
}

func (c *capturer) try(y, manager string, opts metav1.ApplyOptions) (*unstructured.Unstructured, error) {
	u, ri, err := c.parse(y)
	if err != nil {
		return nil, err
	}
	opts.FieldManager = manager
	return ri.Apply(c.ctx, u.GetName(), u, opts)
}

// apply is a forced apply, as a deploy tool with force=true does.
func (c *capturer) apply(t *testing.T, y, manager string) *unstructured.Unstructured {
	t.Helper()
	u, err := c.try(y, manager, metav1.ApplyOptions{Force: true})
	if err != nil {
		t.Fatalf("apply as %s: %v", manager, err)
	}
	return u
}

// predict is the cluster engine's prediction: a forced dry-run apply.
func (c *capturer) predict(t *testing.T, y, manager string) *unstructured.Unstructured {
	t.Helper()
	u, err := c.try(y, manager, metav1.ApplyOptions{Force: true, DryRun: []string{metav1.DryRunAll}})
	if err != nil {
		t.Fatalf("force dry-run as %s: %v", manager, err)
	}
	return u
}

func (c *capturer) get(t *testing.T, y string) *unstructured.Unstructured {
	t.Helper()
	u, ri := c.object(t, y)
	live, err := ri.Get(c.ctx, u.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return live
}

func (c *capturer) create(t *testing.T, y, manager string) {
	t.Helper()
	u, ri := c.object(t, y)
	if _, err := ri.Create(c.ctx, u, metav1.CreateOptions{FieldManager: manager}); err != nil {
		t.Fatalf("create as %s: %v", manager, err)
	}
}

func (c *capturer) update(t *testing.T, y, manager string, edit func(*unstructured.Unstructured)) {
	t.Helper()
	live := c.get(t, y)
	edit(live)
	_, ri := c.object(t, y)
	if _, err := ri.Update(c.ctx, live, metav1.UpdateOptions{FieldManager: manager}); err != nil {
		t.Fatalf("update as %s: %v", manager, err)
	}
}

func (c *capturer) patch(t *testing.T, y string, pt types.PatchType, patch, manager string) {
	t.Helper()
	u, ri := c.object(t, y)
	if _, err := ri.Patch(c.ctx, u.GetName(), pt, []byte(patch), metav1.PatchOptions{FieldManager: manager}); err != nil {
		t.Fatalf("patch as %s: %v", manager, err)
	}
}

// scale goes through the scale subresource, as kubectl scale does.
func (c *capturer) scale(t *testing.T, name string, replicas int32, manager string) {
	t.Helper()
	deployments := c.cs.AppsV1().Deployments(captureNamespace)
	s, err := deployments.GetScale(c.ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s.Spec.Replicas = replicas
	if _, err := deployments.UpdateScale(c.ctx, name, s, metav1.UpdateOptions{FieldManager: manager}); err != nil {
		t.Fatalf("scale as %s: %v", manager, err)
	}
}

func (c *capturer) save(t *testing.T, name string, u *unstructured.Unstructured) {
	t.Helper()
	c.write(t, name, u.Object)
}

// saveError applies a step that must fail and stores the API server's
// Status, which carries the HTTP code, reason and causes a prediction has to
// classify.
func (c *capturer) saveError(t *testing.T, name, y, manager string, opts metav1.ApplyOptions) {
	t.Helper()
	_, err := c.try(y, manager, opts)
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		t.Fatalf("%s: want an API error, got %v", name, err)
	}
	s := status.Status()
	s.APIVersion, s.Kind = "v1", "Status"
	c.write(t, name, s)
}

func (c *capturer) write(t *testing.T, name string, v any) {
	t.Helper()
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(c.dir, name+".json")
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", path)
}
