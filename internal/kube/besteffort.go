package kube

import (
	"context"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/version"
)

// BestEffort asks discovery, and after the first failure to reach the
// cluster answers "unknown kind" so that a render falls back to its
// built-in list: rendering works without a cluster, and Err says why it
// went without. Not safe for concurrent use.
type BestEffort struct {
	Client *Client
	Err    error
}

// ServerVersion, APIVersions and Lookup are a chart's reads of the
// cluster (a render's ChartCluster), best effort too: once the cluster cannot
// be reached, a chart renders as without one (Helm's defaults, lookup
// empty).
func (s *BestEffort) ServerVersion(ctx context.Context) (*version.Info, error) {
	if s.Err == nil {
		v, err := s.Client.ServerVersion(ctx)
		if err == nil {
			return v, nil
		}
		s.Err = err
	}
	return nil, nil
}

func (s *BestEffort) APIVersions(ctx context.Context) ([]string, error) {
	if s.Err == nil {
		v, err := s.Client.APIVersions(ctx)
		if err == nil {
			return v, nil
		}
		s.Err = err
	}
	return nil, nil
}

func (s *BestEffort) Lookup(ctx context.Context, apiVersion, kind, namespace, name string) (map[string]any, bool, error) {
	if s.Err == nil {
		return s.Client.Lookup(ctx, apiVersion, kind, namespace, name)
	}
	return nil, false, nil
}

func (s *BestEffort) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	if s.Err == nil {
		namespaced, err := s.Client.IsNamespaced(gvk)
		if err == nil || meta.IsNoMatchError(err) {
			return namespaced, err
		}
		s.Err = err
	}
	return false, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}
