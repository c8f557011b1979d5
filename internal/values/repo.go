package values

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// readRepoValues reads every ConfigMap and Secret written in YAML under
// dirs, through the reader of the repository that holds each. A file that
// cannot be read (a link out of the repository, over the bound) is an
// error naming it, as is a ConfigMap or Secret that does not parse: a
// controller would read it, so the check cannot pass it over.
func readRepoValues(dirs []string) (map[valueKey][]repoValue, error) {
	out := map[valueKey][]repoValue{}
	if len(dirs) == 0 {
		return out, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	for _, dir := range dirs {
		if err := readDir(cwd, dir, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readDir reads the ConfigMaps and Secrets under dir; a dir that is not
// there has none.
func readDir(cwd, dir string, out map[valueKey][]repoValue) error {
	files, err := repofs.Open(cwd, repofs.RepositoryRoot(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("reading ConfigMaps and Secrets under %s: %w", dir, err)
	}
	defer files.Close()
	err = files.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext != ".yaml" && ext != ".yml" {
			return nil
		}
		data, err := files.ReadFile(p, repofs.GitOpsFile)
		if err != nil {
			return err
		}
		return readValueFile(p, files.Rel(p), data, out)
	})
	if err != nil {
		return fmt.Errorf("reading ConfigMaps and Secrets under %s: %w", files.Rel(dir), err)
	}
	return nil
}

// valuesKind finds, before any parse, a document that says it is a
// ConfigMap or a Secret; a template ({{ }}) is not one until rendered.
var valuesKind = regexp.MustCompile(`(?m)^kind:\s*["']?(ConfigMap|Secret)["']?\s*$`)

func readValueFile(p, display string, data []byte, out map[valueKey][]repoValue) error {
	if !bytes.Contains(data, []byte("ConfigMap")) && !bytes.Contains(data, []byte("Secret")) {
		return nil
	}
	for _, c := range yamldoc.Split(data) {
		if c.Line == 0 {
			continue
		}
		var obj map[string]any
		if err := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(c.Text), 4096).Decode(&obj); err != nil {
			if valuesKind.Match(c.Text) && !bytes.Contains(c.Text, []byte("{{")) {
				return yamldoc.Error(display, c, err)
			}
			// Not a manifest (a chart's template, another tool's YAML):
			// nothing a controller reads values from.
			continue
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
		var err error
		if _, sops := obj["sops"]; sops {
			rv.encrypted, rv.keys = true, encryptedKeys(obj)
		} else if rv.data, err = dataOf(kind, obj); err != nil {
			return fmt.Errorf("%s: %s %s: %w", display, kind, name, err)
		}
		out[valueKey{kind, name}] = append(out[valueKey{kind, name}], rv)
	}
	return nil
}

// encryptedKeys are the keys of a SOPS-encrypted Secret's data and
// stringData, sorted: SOPS encrypts the values only.
func encryptedKeys(obj map[string]any) []string {
	var keys []string
	for _, field := range []string{"data", "stringData"} {
		m, _ := obj[field].(map[string]any)
		for k := range m {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}
