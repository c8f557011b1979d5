// Package values reads the ConfigMaps and Secrets a GitOps controller takes
// values from outside a target's paths (Flux's postBuild.substituteFrom):
// the repository's objects as written, else the cluster's, read-only. It is
// render's ValueReader, and it keeps every value read from a Secret so that
// the check hides it from everything it prints.
package values

import (
	"context"
	"encoding/base64"
	"fmt"
	"path/filepath"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// Reader answers a controller's reads of ConfigMaps and Secrets that
// are not in the target's paths (Flux's postBuild.substituteFrom): the
// repository's objects first, as plain YAML under the given directories
// (no render: the objects as written), else the cluster, read-only (GET);
// offline, the cluster has none, and a render that needs one is not
// rendered, with the reason. Every value read from a Secret is kept, so
// that the check hides it from everything it prints.
type Reader struct {
	dirs   []string
	client *kube.Client // nil: no cluster to read

	once    sync.Once
	repo    map[valueKey][]repoValue
	repoErr error

	// hidden is every value read from a Secret: the run's set of hidden
	// values (Hidden).
	hidden model.Hidden
}

type valueKey struct{ kind, name string }

// repoValue is a ConfigMap or Secret written in the repository.
type repoValue struct {
	namespace string // "" when the file sets none
	file      string
	data      map[string]string
	encrypted bool // SOPS: its values are never decrypted here
	// keys are an encrypted one's keys, which SOPS leaves in the clear.
	keys []string
}

// New reads the YAML under dirs and, when client is set, its cluster.
func New(dirs []string, client *kube.Client) *Reader {
	return &Reader{dirs: dirs, client: client}
}

// Values is render's ValueReader: the object's data, where it was read.
// With stand-ins, a Secret of the cluster or one encrypted with SOPS
// answers with its keys' placeholders: the render never sees a value.
func (v *Reader) Values(ctx context.Context, kind, namespace, name string, standIns *model.StandIns) (map[string]string, string, bool, error) {
	if kind != "ConfigMap" && kind != "Secret" {
		return nil, "", false, fmt.Errorf("%s %s/%s: values are read from ConfigMaps and Secrets only", kind, namespace, name)
	}
	v.once.Do(func() { v.repo, v.repoErr = readRepoValues(v.dirs) })
	if v.repoErr != nil {
		return nil, "", false, v.repoErr
	}
	if rv, ok := pickRepoValue(v.repo[valueKey{kind, name}], namespace); ok {
		switch {
		case rv.encrypted && standIns != nil:
			return standIns.Data(namespace, name, rv.keys), rv.file, true, nil
		case rv.encrypted:
			return nil, rv.file, true, &delivery.ValuesWithheld{Reason: fmt.Sprintf("%s is encrypted with SOPS (%s): its values are never decrypted here, so what it substitutes is not checked", name, filepath.Base(rv.file))}
		}
		v.keep(kind, rv.data)
		return rv.data, rv.file, true, nil
	}
	if v.client == nil {
		return nil, delivery.ValuesRepositoryOnly, false, nil
	}
	res, err := v.client.Resource(schema.GroupVersionKind{Version: "v1", Kind: kind}, namespace)
	if err != nil {
		return nil, "", false, err
	}
	obj, err := res.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, "", false, nil
	}
	if err != nil {
		return nil, "", false, fmt.Errorf("reading %s %s/%s from the cluster: %w", kind, namespace, name, err)
	}
	data, err := dataOf(kind, obj.Object)
	if err != nil {
		return nil, "", false, fmt.Errorf("%s %s/%s in the cluster: %w", kind, namespace, name, err)
	}
	// Kept even when they stand in: a live object may still hold them.
	v.keep(kind, data)
	if kind == "Secret" && standIns != nil {
		keys := make([]string, 0, len(data))
		for k := range data {
			keys = append(keys, k)
		}
		return standIns.Data(namespace, name, keys), "cluster", true, nil
	}
	return data, "cluster", true, nil
}

// keep remembers a Secret's values, to be hidden.
func (v *Reader) keep(kind string, data map[string]string) {
	if kind != "Secret" {
		return
	}
	for _, s := range data {
		v.hidden.Add(s)
	}
}

// Hidden is the set of the Secret values read, in every form, which goes on
// growing while renders read: a check makes it its run's set.
func (v *Reader) Hidden() *model.Hidden {
	if v == nil {
		return nil
	}
	return &v.hidden
}

// pickRepoValue is the object of namespace, else the one object of that
// name that sets no namespace (the Kustomization that applies it gives
// it one).
func pickRepoValue(cands []repoValue, namespace string) (repoValue, bool) {
	return model.PickNamespaced(cands, func(c repoValue) string { return c.namespace }, namespace)
}

// dataOf is a ConfigMap's data, or a Secret's data decoded over its
// stringData, as the API server stores them.
func dataOf(kind string, obj map[string]any) (map[string]string, error) {
	data := map[string]string{}
	raw, _ := obj["data"].(map[string]any)
	for k, val := range raw {
		s := fmt.Sprint(val)
		if kind == "Secret" {
			b, err := base64.StdEncoding.DecodeString(s)
			if err != nil {
				return nil, fmt.Errorf("data.%s: not base64", k)
			}
			s = string(b)
		}
		data[k] = s
	}
	if kind == "Secret" {
		sd, _ := obj["stringData"].(map[string]any)
		for k, val := range sd {
			data[k] = fmt.Sprint(val)
		}
	}
	return data, nil
}
