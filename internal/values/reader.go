// Package values reads the ConfigMaps and Secrets a GitOps controller takes
// values from outside a target's paths (Flux's postBuild.substituteFrom):
// the repository's objects as written, else the cluster's, read-only. It is
// render's ValueReader, and it keeps every value read from a Secret so that
// the check hides it from everything it prints.
package values

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
)

// maxValueFile bounds a YAML file read for a controller's values: a
// manifest, never megabytes.
const maxValueFile = 4 << 20

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
}

// New reads the YAML under dirs and, when client is set, its cluster.
func New(dirs []string, client *kube.Client) *Reader {
	return &Reader{dirs: dirs, client: client}
}

// Values is render's ValueReader: the object's data, where it was read.
func (v *Reader) Values(ctx context.Context, kind, namespace, name string) (map[string]string, string, bool, error) {
	if kind != "ConfigMap" && kind != "Secret" {
		return nil, "", false, fmt.Errorf("%s %s/%s: values are read from ConfigMaps and Secrets only", kind, namespace, name)
	}
	v.once.Do(func() { v.repo, v.repoErr = readRepoValues(v.dirs) })
	if v.repoErr != nil {
		return nil, "", false, v.repoErr
	}
	if rv, ok := pickRepoValue(v.repo[valueKey{kind, name}], namespace); ok {
		if rv.encrypted {
			return nil, rv.file, true, &model.ValuesWithheld{Reason: fmt.Sprintf("%s is encrypted with SOPS (%s): its values are never decrypted here, so what it substitutes is not checked", name, filepath.Base(rv.file))}
		}
		v.keep(kind, rv.data)
		return rv.data, rv.file, true, nil
	}
	if v.client == nil {
		return nil, "", false, nil
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
	v.keep(kind, data)
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
	var bare []repoValue
	for _, c := range cands {
		if c.namespace == namespace {
			return c, true
		}
		if c.namespace == "" {
			bare = append(bare, c)
		}
	}
	if len(bare) == 1 {
		return bare[0], true
	}
	return repoValue{}, false
}

// readRepoValues reads every ConfigMap and Secret written in YAML under
// dirs; a file that is no Kubernetes YAML is passed over.
func readRepoValues(dirs []string) (map[valueKey][]repoValue, error) {
	out := map[valueKey][]repoValue{}
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return nil
				}
				return err
			}
			if d.IsDir() {
				if p != dir && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
				return nil
			}
			return readValueFile(p, out)
		})
		if err != nil {
			return nil, fmt.Errorf("reading ConfigMaps and Secrets under %s: %w", dir, err)
		}
	}
	return out, nil
}

func readValueFile(p string, out map[valueKey][]repoValue) error {
	info, err := os.Stat(p)
	if err != nil || info.Size() > maxValueFile {
		return err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !bytes.Contains(data, []byte("ConfigMap")) && !bytes.Contains(data, []byte("Secret")) {
		return nil
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	for {
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			if err == io.EOF {
				return nil
			}
			// Not YAML the way a manifest is: nothing a controller reads.
			return nil
		}
		kind, _ := obj["kind"].(string)
		if obj["apiVersion"] != "v1" || kind != "ConfigMap" && kind != "Secret" {
			continue
		}
		meta, _ := obj["metadata"].(map[string]any)
		name, _ := meta["name"].(string)
		ns, _ := meta["namespace"].(string)
		if name == "" {
			continue
		}
		rv := repoValue{namespace: ns, file: p}
		if _, sops := obj["sops"]; sops {
			rv.encrypted = true
		} else if rv.data, err = dataOf(kind, obj); err != nil {
			return fmt.Errorf("%s: %s %s: %w", p, kind, name, err)
		}
		out[valueKey{kind, name}] = append(out[valueKey{kind, name}], rv)
	}
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
