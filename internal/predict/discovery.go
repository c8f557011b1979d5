package predict

import (
	"context"
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// discover reads the cluster's kinds, once per run (the mapper caches
// them), within ctx (kube.Client.Discover).
func (c *Cluster) discover(ctx context.Context) (map[schema.GroupVersion]error, error) {
	return c.kube.Discover(ctx)
}

// kindAnswer is what the cluster says about one kind of the render: its REST
// mapping, or why objects of it cannot be dry-run.
type kindAnswer struct {
	mapping *meta.RESTMapping
	blocked string
	err     error
	reason  string
	// unserved names what the cluster does not serve, for ReasonNoMatch.
	unserved string
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
	a.unserved = gk.String()
	if ms, kerr := c.kube.Mapper.RESTMappings(gk); kerr == nil && len(ms) > 0 {
		// The kind is there in other versions: naming the kind alone
		// would send the reader to reinstall what is installed.
		var served []string
		for _, m := range ms {
			served = append(served, m.GroupVersionKind.Version)
		}
		a.err = fmt.Errorf("%w: the cluster serves %s only in %s (check apiVersion)", err, gk, strings.Join(served, ", "))
		a.unserved = fmt.Sprintf("%s in version %s", gk, gvk.Version)
	}
}
