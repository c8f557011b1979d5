package argocd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// argoManifestFile is the repo server's manifestFile: the files a directory
// source reads.
var argoManifestFile = regexp.MustCompile(`^.*\.(yaml|yml|json|jsonnet)$`)

// directory is Argo CD's directory source (findManifests): the YAML and
// JSON files of the source's directory, and of its subdirectories only
// with directory.recurse, less those directory.exclude matches and, when
// directory.include is set, those it does not, both globs on the path
// relative to the directory. A YAML file that is not a manifest is
// skipped, unless it reads partly as one or looks like one; a jsonnet file
// is evaluated with directory.jsonnet's arguments (argojsonnet.go).
func (s *Source) directory(ctx context.Context, p source.Path, src argoAppSource, env *buildEnv) (source.Build, error) {
	var o argoDirectory
	if present(src.Directory) {
		if err := json.Unmarshal(src.Directory, &o); err != nil {
			return nil, fmt.Errorf("%s: source.directory: %w", s.where(), err)
		}
	}
	var b argoDirBuild
	err := s.In.Fs.Boundary.Walk(p.Real, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if info.IsDir() {
			if path != p.Real && !o.Recurse {
				return filepath.SkipDir
			}
			s.In.ReadDir(path)
			return nil
		}
		if !argoManifestFile.MatchString(info.Name()) {
			return nil
		}
		rel, err := filepath.Rel(p.Real, path)
		if err != nil {
			return err
		}
		real, err := s.In.Fs.Resolve(path)
		if err != nil {
			return err
		}
		if !s.In.Fs.Boundary.IsRegular(real) {
			return nil // Argo CD skips a link to a missing or non-regular file
		}
		relSlash := filepath.ToSlash(rel)
		if o.Exclude != "" && globMatch(o.Exclude, relSlash) {
			return nil
		}
		if o.Include != "" && !globMatch(o.Include, relSlash) {
			return nil
		}
		display := s.In.Rel(filepath.Join(p.Abs, rel))
		if strings.HasSuffix(info.Name(), ".jsonnet") {
			objs, err := s.jsonnet(path, p.Real, display, o.Jsonnet, env)
			if err != nil {
				return err
			}
			b.objects = append(b.objects, objs...)
			return nil
		}
		s.In.ReadFile(real)
		data, err := s.In.Fs.ReadBounded(path)
		if err != nil {
			return err
		}
		objs, err := argoManifests(display, data)
		if err != nil {
			return err
		}
		b.objects = append(b.objects, objs...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// argoDirBuild is a directory source already read.
type argoDirBuild struct {
	objects []source.RawObject
}

func (b argoDirBuild) Size() int { return 0 }

func (b argoDirBuild) Run(context.Context) (source.Output, error) {
	return source.Output{Objects: source.ObjectsOf(b.objects)}, nil
}

// argoManifests reads one file as getObjsFromYAMLOrJSON does.
func argoManifests(display string, data []byte) ([]source.RawObject, error) {
	if err := source.CheckAliasBombs(display, data); err != nil {
		return nil, err
	}
	if strings.HasSuffix(display, ".json") {
		dec := json.NewDecoder(bytes.NewReader(data))
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, fmt.Errorf("%s: failed to unmarshal: %w", display, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("%s: found multiple objects; only single objects are allowed in JSON files", display)
		}
		obj, err := argoObject(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: failed to unmarshal: %w", display, err)
		}
		return []source.RawObject{{Obj: obj, Source: display, Line: 1}}, nil
	}
	var out []source.RawObject
	for _, c := range yamldoc.Split(data) {
		if c.Line == 0 {
			continue
		}
		j, err := yaml.YAMLToJSON(c.Text)
		if err == nil && bytes.Equal(bytes.TrimSpace(j), []byte("null")) {
			continue
		}
		var obj map[string]any
		if err == nil {
			obj, err = argoObject(j)
		}
		if err != nil {
			// The first document that is not an object ends the file:
			// an error when objects came before it or the file looks
			// like a manifest, else the file is not one and is skipped.
			looksLikeManifest := bytes.Contains(data, []byte("apiVersion:")) && bytes.Contains(data, []byte("kind:")) && bytes.Contains(data, []byte("metadata:"))
			if len(out) > 0 || looksLikeManifest {
				return nil, fmt.Errorf("%s:%d: failed to unmarshal manifest: %w", display, c.Line, err)
			}
			return nil, nil
		}
		out = append(out, source.RawObject{Obj: obj, Source: display, Line: c.Line})
	}
	return out, nil
}

// argoObject decodes a JSON document as an unstructured object: a mapping
// with a kind.
func argoObject(j []byte) (map[string]any, error) {
	var v any
	if err := utiljson.Unmarshal(j, &v); err != nil {
		return nil, err
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("the document is a %s, not an object", source.KindOfValue(v))
	}
	if kind, _ := obj["kind"].(string); kind == "" {
		return nil, errors.New("object 'Kind' is missing")
	}
	return obj, nil
}
