package helm

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// capabilities are .Capabilities for r's deployer, and lookup's reader of
// the cluster (none: lookup finds nothing, as `helm template` does):
//   - ClusterLive: the cluster's version and API versions, lookup
//     live; without a cluster, Helm's defaults and an empty lookup;
//   - ClusterArgoCD: Helm's built-in API versions plus the cluster's,
//     the cluster's version, lookup empty (Argo CD runs `helm template`
//     with --api-versions and --kube-version);
//   - ClusterNone: Helm's defaults (`helm template`).
//
// The deployer's own APIVersions are added, its KubeVersion replaces the
// cluster's.
func capabilities(ctx context.Context, in *source.Input, r Release, secrets *model.Hidden) (Capabilities, error) {
	caps := Capabilities{BuiltIn: true}
	if cl := in.ChartCluster; cl != nil && r.Cluster != ClusterNone {
		v, err := cl.ServerVersion(ctx)
		if err != nil {
			return Capabilities{}, fmt.Errorf("the cluster's version, for .Capabilities: %w", err)
		}
		if v != nil {
			versions, err := cl.APIVersions(ctx)
			if err != nil {
				return Capabilities{}, fmt.Errorf("the cluster's API versions, for .Capabilities: %w", err)
			}
			caps.KubeVersion = &KubeVersion{Version: v.GitVersion, Major: v.Major, Minor: v.Minor}
			caps.APIVersions = versions
			if r.Cluster == ClusterLive {
				caps.BuiltIn = false
				caps.Lookup = lookupProvider{ctx: ctx, cl: cl, secrets: secrets, standIns: in.StandIns}
			}
		}
	}
	caps.APIVersions = append(append([]string(nil), caps.APIVersions...), r.APIVersions...)
	caps.KubeVersionFlag = r.KubeVersion
	return caps, nil
}

// lookupProvider answers Helm's lookup from a ChartCluster: Helm asks a
// dynamic client for Get and List, and nothing else.
type lookupProvider struct {
	ctx context.Context
	cl  source.ChartCluster
	// secrets keeps what lookup read of Secrets: a pull request's chart
	// may copy it into any object (a ConfigMap, an annotation), so every
	// object of the release carries the set, as for values Flux
	// substitutes from Secrets.
	secrets *model.Hidden
	// standIns, when set, stand for every value of a Secret lookup finds:
	// the chart sees placeholders, never a value (docs/security.md).
	standIns *model.StandIns
}

func (p lookupProvider) GetClientFor(apiVersion, kind string) (dynamic.NamespaceableResourceInterface, bool, error) {
	return &lookupClient{p: p, apiVersion: apiVersion, kind: kind}, true, nil
}

// lookupClient is the part of a dynamic client lookup uses; every other
// method is the nil interface's, which a template cannot reach.
type lookupClient struct {
	dynamic.NamespaceableResourceInterface
	p                           lookupProvider
	apiVersion, kind, namespace string
}

func (c *lookupClient) Namespace(ns string) dynamic.ResourceInterface {
	n := *c
	n.namespace = ns
	return &n
}

func (c *lookupClient) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*unstructured.Unstructured, error) {
	obj, found, err := c.p.cl.Lookup(c.p.ctx, c.apiVersion, c.kind, c.namespace, name)
	if err != nil {
		return nil, err
	}
	if !found {
		gv, _ := schema.ParseGroupVersion(c.apiVersion)
		return nil, apierrors.NewNotFound(gv.WithResource(c.kind).GroupResource(), name)
	}
	obj = c.secretView(obj)
	c.p.secrets.AddSecret(obj)
	return &unstructured.Unstructured{Object: obj}, nil
}

func (c *lookupClient) List(_ context.Context, _ metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	obj, found, err := c.p.cl.Lookup(c.p.ctx, c.apiVersion, c.kind, c.namespace, "")
	if err != nil {
		return nil, err
	}
	if !found {
		gv, _ := schema.ParseGroupVersion(c.apiVersion)
		return nil, apierrors.NewNotFound(gv.WithResource(c.kind).GroupResource(), "")
	}
	list := &unstructured.UnstructuredList{Object: map[string]any{}}
	for k, v := range obj {
		if k != "items" {
			list.Object[k] = v
		}
	}
	items, _ := obj["items"].([]any)
	for _, it := range items {
		if m, ok := it.(map[string]any); ok {
			m = c.secretView(m)
			c.p.secrets.AddSecret(m)
			list.Items = append(list.Items, unstructured.Unstructured{Object: m})
		}
	}
	return list, nil
}

// secretView is a Secret as the chart may see it: its values stood in for
// when the render has stand-ins. An item of a list of Secrets may come
// without its kind; the kind asked for says what it is.
func (c *lookupClient) secretView(obj map[string]any) map[string]any {
	if c.p.standIns == nil || (c.kind != "Secret" && obj["kind"] != "Secret") {
		return obj
	}
	if obj["kind"] != "Secret" {
		withKind := make(map[string]any, len(obj)+1)
		for k, v := range obj {
			withKind[k] = v
		}
		withKind["kind"] = "Secret"
		obj = withKind
	}
	return c.p.standIns.Secret(obj)
}
