package kube

import (
	"context"
	"path"
	"sort"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/discovery"
)

// What a chart's render reads of the cluster, as `helm upgrade` reads it
// (render.ChartCluster): the server's version and API versions for
// .Capabilities, and lookup's reads. Only reads.

// ServerVersion is the API server's version.
func (c *Client) ServerVersion(ctx context.Context) (*version.Info, error) {
	var v *version.Info
	err := c.binder.hold(ctx, func() error {
		var err error
		v, err = c.Discovery.ServerVersion()
		return err
	}, nil)
	if err != nil {
		return nil, c.unreachable(err)
	}
	return v, nil
}

// APIVersions lists every group version the server serves and each
// group/version/Kind, as Helm's discovery (action.GetVersionSet) does; a
// group whose discovery failed alone is left out, as Helm leaves it.
func (c *Client) APIVersions(ctx context.Context) ([]string, error) {
	var groups []*metav1.APIGroup
	var resources []*metav1.APIResourceList
	err := c.binder.hold(ctx, func() error {
		var err error
		groups, resources, err = c.Discovery.ServerGroupsAndResources()
		if discovery.IsGroupDiscoveryFailedError(err) {
			return nil
		}
		return err
	}, c.Mapper.Reset)
	if err != nil {
		return nil, c.unreachable(err)
	}
	seen := map[string]bool{}
	for _, g := range groups {
		for _, gv := range g.Versions {
			seen[gv.GroupVersion] = true
		}
	}
	for _, r := range resources {
		for _, res := range r.APIResources {
			seen[path.Join(r.GroupVersion, res.Kind)] = true
		}
	}
	out := make([]string, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Strings(out)
	return out, nil
}

// Lookup reads what Helm's lookup asks for: the object named (name set)
// or the list of the kind's objects in namespace (all namespaces for ""),
// found false for none and for a kind the cluster does not serve.
func (c *Client) Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, bool, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, false, err
	}
	r, err := c.Resource(gv.WithKind(kind), namespace)
	if meta.IsNoMatchError(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if name != "" {
		u, err := r.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		return u.Object, true, nil
	}
	l, err := r.List(ctx, metav1.ListOptions{})
	if apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return l.UnstructuredContent(), true, nil
}
