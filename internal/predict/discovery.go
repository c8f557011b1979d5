package predict

import (
	"context"
	"errors"
	"fmt"

	"github.com/ownership-check/ownership-check/internal/model"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
)

// discover reads the cluster's kinds, once per run (the mapper caches them).
// It fails only when the API server gives no usable answer; groups that
// failed alone (an aggregated API that is down) are returned, so that their
// kinds can be explained instead of being called unknown.
func (c *Cluster) discover(ctx context.Context) (map[schema.GroupVersion]error, error) {
	type answer struct {
		failed map[schema.GroupVersion]error
		err    error
	}
	done := make(chan answer, 1)
	// Discovery takes no context: waiting on it in a goroutine keeps a server
	// that accepts connections but never answers within the deadline.
	go func() {
		_, _, err := c.kube.Discovery.ServerGroupsAndResources()
		var partial *discovery.ErrGroupDiscoveryFailed
		if errors.As(err, &partial) {
			done <- answer{failed: partial.Groups}
			return
		}
		done <- answer{err: err}
	}()
	select {
	case a := <-done:
		if a.err != nil {
			return nil, c.unreachable(a.err)
		}
		return a.failed, nil
	case <-ctx.Done():
		return nil, c.unreachable(fmt.Errorf("no answer to discovery: %w", ctx.Err()))
	}
}

func (c *Cluster) unreachable(err error) error {
	host := c.kube.Config.Host
	if apierrors.IsUnauthorized(err) {
		return fmt.Errorf("the API server at %s rejected the credentials: %w (check the kubeconfig's user, or use --offline)", host, err)
	}
	return fmt.Errorf("cannot reach the API server at %s: %w (check --kubeconfig and --context, or use --offline)", host, err)
}

// kindAnswer is what the cluster says about one kind of the render: its REST
// mapping, or why objects of it cannot be dry-run.
type kindAnswer struct {
	mapping *meta.RESTMapping
	blocked string
	err     error
	reason  string
}

// mapKinds maps every kind of the render, from discovery read once. A kind
// the cluster does not serve gets one fresh look at discovery (it may have
// been installed since), then is explained: blocked on a
// CustomResourceDefinition of the same render, or unknown.
func (c *Cluster) mapKinds(ctx context.Context, objs []model.Object, deps renderDeps) (map[schema.GroupVersionKind]*kindAnswer, error) {
	kinds := map[schema.GroupVersionKind]*kindAnswer{}
	var missing []schema.GroupVersionKind
	for _, o := range objs {
		gvk := o.Object.GroupVersionKind()
		if _, ok := kinds[gvk]; ok {
			continue
		}
		a := &kindAnswer{}
		kinds[gvk] = a
		m, err := c.kube.Mapping(gvk)
		switch {
		case err == nil:
			a.mapping = m
		case meta.IsNoMatchError(err):
			a.err = err
			missing = append(missing, gvk)
		default:
			a.err = err
		}
	}
	if len(missing) == 0 {
		return kinds, nil
	}
	c.kube.ResetDiscovery()
	failed, err := c.discover(ctx)
	if err != nil {
		return nil, err
	}
	for _, gvk := range missing {
		a := kinds[gvk]
		m, err := c.kube.Mapping(gvk)
		if err == nil {
			*a = kindAnswer{mapping: m}
			continue
		}
		c.explainNoMatch(a, gvk, err, deps, failed)
	}
	return kinds, nil
}

func (c *Cluster) explainNoMatch(a *kindAnswer, gvk schema.GroupVersionKind, err error, deps renderDeps, failed map[schema.GroupVersion]error) {
	gk := gvk.GroupKind()
	if crd, ok := deps.crds[gk]; ok && crd.versions[gvk.Version] {
		if _, kerr := c.kube.Mapper.RESTMappings(gk); kerr == nil {
			a.blocked = crdVersionBlocked(crd.name, gvk.GroupVersion().String())
		} else {
			a.blocked = crdBlocked(crd.name)
		}
		return
	}
	if gerr, ok := failed[gvk.GroupVersion()]; ok {
		a.err = fmt.Errorf("discovery of %s failed, so %s cannot be mapped: %w", gvk.GroupVersion(), gvk.Kind, gerr)
		a.reason = ReasonUnreachable
		return
	}
	a.err = fmt.Errorf("%w: the cluster does not serve this kind (install its CustomResourceDefinition first, or check apiVersion and kind)", err)
	a.reason = ReasonNoMatch
}
