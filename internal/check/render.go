package check

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/values"
)

// discoveryTimeout bounds each request Render makes to a cluster: it only
// asks discovery which kinds are namespaced, and must not hang on an
// unreachable one.
const discoveryTimeout = 10 * time.Second

// Render returns the objects as check and snapshot see them, with a
// cluster when there is one: the kubeconfig's context gives the default
// namespace and discovery tells which kinds are namespaced; otherwise the
// target's namespace or "default" and the built-in list of cluster-scoped
// kinds are used. A kubeconfig or context named explicitly must load. The
// warnings (discovery that failed midway) come back with an error too.
func Render(ctx context.Context, t Target, paths []string) ([]model.Object, []error, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	defer t.ownRun(ctx)()
	cfg, _, err := t.State.Config(t)
	if err != nil {
		return nil, nil, err
	}
	opts := render.Options{Config: cfg, Deployer: t.Deployer}
	var scope *bestEffortScope
	var warnings []error
	opts.Namespace, scope, err = renderTarget(t)
	if err != nil && t.ClusterOptional {
		warnings = append(warnings, fmt.Errorf("render: the target's cluster is not available here (%w); rendering without it", err))
		t.Kubeconfig, t.Context = "", ""
		opts.Namespace, scope, err = t.Namespace, nil, nil
		if opts.Namespace == "" {
			opts.Namespace = "default"
		}
	}
	if err != nil {
		return nil, nil, err
	}
	var client *kube.Client
	if scope != nil {
		opts.Scope = scope
		opts.ChartCluster = scope
		client = scope.client
	}
	vr := values.New(t.ValueDirs, client)
	opts.Values = vr
	objs, unrendered, err := renderChecked(ctx, paths, opts)
	for _, n := range unrendered {
		warnings = append(warnings, errors.New(n))
	}
	if err == nil && !t.ShowSecrets {
		hideInObjects(objs, vr.Hidden())
	}
	if scope != nil && scope.err != nil {
		warnings = append(warnings, fmt.Errorf("render: cluster discovery unavailable (%w); telling namespaced kinds from the built-in list", scope.err))
	}
	return objs, warnings, err
}

// renderTarget gives the default namespace and the scope resolver: from
// the kubeconfig when one loads, else the namespace or "default" and the
// built-in list (a nil resolver).
func renderTarget(t Target) (string, *bestEffortScope, error) {
	restCfg, ns, err := kube.LoadConfig(kube.LoadOptions{Kubeconfig: t.Kubeconfig, Context: t.Context, Namespace: t.Namespace})
	if err != nil {
		if t.Kubeconfig != "" || t.Context != "" {
			return "", nil, err
		}
		if t.Namespace != "" {
			return t.Namespace, nil, nil
		}
		return "default", nil, nil
	}
	restCfg.Timeout = discoveryTimeout
	client, err := kube.New(restCfg, ns, 1)
	if err != nil {
		return "", nil, err
	}
	return ns, &bestEffortScope{client: client}, nil
}

// bestEffortScope asks discovery, and after the first failure to reach the
// cluster answers "unknown kind" so that render falls back to the built-in
// list: rendering works without a cluster, and err says why it went
// without.
type bestEffortScope struct {
	client *kube.Client
	err    error
}

// ServerVersion, APIVersions and Lookup are a chart's reads of the
// cluster (render.ChartCluster), best effort too: once the cluster cannot
// be reached, a chart renders as without one (Helm's defaults, lookup
// empty).
func (s *bestEffortScope) ServerVersion(ctx context.Context) (*version.Info, error) {
	if s.err == nil {
		v, err := s.client.ServerVersion(ctx)
		if err == nil {
			return v, nil
		}
		s.err = err
	}
	return nil, nil
}

func (s *bestEffortScope) APIVersions(ctx context.Context) ([]string, error) {
	if s.err == nil {
		v, err := s.client.APIVersions(ctx)
		if err == nil {
			return v, nil
		}
		s.err = err
	}
	return nil, nil
}

func (s *bestEffortScope) Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, bool, error) {
	if s.err == nil {
		return s.client.Lookup(ctx, apiVersion, kind, namespace, name)
	}
	return nil, false, nil
}

func (s *bestEffortScope) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	if s.err == nil {
		namespaced, err := s.client.IsNamespaced(gvk)
		if err == nil || meta.IsNoMatchError(err) {
			return namespaced, err
		}
		s.err = err
	}
	return false, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}
