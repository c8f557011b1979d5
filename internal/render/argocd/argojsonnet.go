package argocd

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/go-jsonnet"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// argoJsonnet is source.directory.jsonnet (ApplicationSourceJsonnet).
type argoJsonnet struct {
	ExtVars []argoJsonnetVar `json:"extVars"`
	TLAs    []argoJsonnetVar `json:"tlas"`
	Libs    []string         `json:"libs"`
}

// argoJsonnetVar is a JsonnetVar: a string, or with code jsonnet code.
type argoJsonnetVar struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Code  bool   `json:"code"`
}

// jsonnetMaxStack is the VM's bound on nested calls: go-jsonnet's
// default, which Argo CD's repo server keeps (makeJsonnetVM sets none).
const jsonnetMaxStack = 500

// jsonnet evaluates one .jsonnet file of a directory source as the repo
// server does (findManifests, makeJsonnetVM): with go-jsonnet, the TLAs and
// external variables substituted from Argo CD's build environment, and
// imports found beside the importing file, else in the library paths
// (libs, relative to the repository's top; the last first), else in the
// source's directory. Every import is read through the guarded file
// system (jsonnetImporter): a file outside the repository, or through a
// link out of it, is refused by name, where Argo CD would read it from the
// repo server's own files. The output is an array of objects or one
// object, as Argo CD unmarshals it; its Lists are taken apart by argoBuild.
func (s *Source) jsonnet(file, appDir, display string, j argoJsonnet, env *buildEnv) ([]source.RawObject, error) {
	top := s.In.Fs.Boundary.Top()
	rel := func(abs string) (string, error) {
		r, err := filepath.Rel(top, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Errorf("%s: outside the repository", s.In.Rel(abs))
		}
		return filepath.ToSlash(r), nil
	}
	main, err := rel(file)
	if err != nil {
		return nil, err
	}
	app, err := rel(appDir)
	if err != nil {
		return nil, err
	}
	imp := &jsonnetImporter{fs: s.In.Fs, top: top, main: main, jpaths: []string{app}, cache: map[string]*jsonnetFile{}}
	for i, lib := range j.Libs {
		p, err := imp.libPath(lib)
		if err != nil {
			return nil, fmt.Errorf("%s: source.directory.jsonnet.libs[%d]: %w", s.where(), i, err)
		}
		imp.jpaths = append(imp.jpaths, p)
	}
	vm := jsonnet.MakeVM()
	vm.MaxStack = jsonnetMaxStack
	vm.Importer(imp)
	for _, vars := range []struct {
		field      string
		list       []argoJsonnetVar
		code, text func(name, value string)
	}{{"tlas", j.TLAs, vm.TLACode, vm.TLAVar}, {"extVars", j.ExtVars, vm.ExtCode, vm.ExtVar}} {
		for i, v := range vars.list {
			if !v.Code {
				vars.text(v.Name, env.Subst(v.Value))
				continue
			}
			if err := checkJsonnetBrackets(fmt.Sprintf("%s: source.directory.jsonnet.%s[%d]", s.where(), vars.field, i), v.Value); err != nil {
				return nil, err
			}
			vars.code(v.Name, env.Subst(v.Value))
		}
	}
	out, err := vm.EvaluateFile(main)
	if err != nil {
		if imp.refused != nil {
			// It names the file that imports, which may be another.
			return nil, imp.refused
		}
		return nil, fmt.Errorf("%s: failed to evaluate jsonnet: %w", display, err)
	}
	return jsonnetObjects(display, []byte(out))
}

// jsonnetObjects reads the evaluated JSON as the repo server does (into
// a list of unstructured objects, else into one): an array of objects, a
// null among them skipped, or one object; each must have a kind. What
// does not read so is an error that names the file, never its values.
func jsonnetObjects(display string, out []byte) ([]source.RawObject, error) {
	var v any
	if err := utiljson.Unmarshal(out, &v); err != nil {
		return nil, fmt.Errorf("%s: failed to unmarshal generated json: %w", display, err)
	}
	items, isArray := v.([]any)
	if !isArray && v != nil {
		items = []any{v}
	}
	if len(items) > source.MaxObjects {
		return nil, fmt.Errorf("%s: jsonnet made %d objects, more than the limit of %d", display, len(items), source.MaxObjects)
	}
	raws := make([]source.RawObject, 0, len(items))
	for i, it := range items {
		if it == nil && isArray {
			continue
		}
		obj, _ := it.(map[string]any)
		if kind, _ := obj["kind"].(string); kind == "" {
			what := "the output"
			if isArray {
				what = fmt.Sprintf("item %d of the output", i)
			}
			if obj == nil {
				return nil, fmt.Errorf("%s: failed to unmarshal generated json: %s is a %s, not an object", display, what, source.KindOfValue(it))
			}
			return nil, fmt.Errorf("%s: failed to unmarshal generated json: %s: object 'Kind' is missing", display, what)
		}
		raws = append(raws, source.RawObject{Obj: obj, Source: display})
	}
	return raws, nil
}

// jsonnetImporter is go-jsonnet's FileImporter over the guarded file
// system: paths are relative to the repository's top (with "/"), which
// is also what errors name. What it reads is bounded (8 MiB a file) and
// recorded; an import it cannot find is recorded by its directory, whose
// new file would change the render.
type jsonnetImporter struct {
	fs     *source.GuardFS
	top    string // the repository's top, resolved
	main   string // the file evaluated
	jpaths []string
	cache  map[string]*jsonnetFile
	// refused is the first import refused: the evaluation's error names
	// the file that asked for it, this names why.
	refused error
}

// jsonnetFile is one path tried: its contents, or that it is absent.
type jsonnetFile struct {
	contents jsonnet.Contents
	exists   bool
}

// libPath is a library path as the repo server resolves it
// (ResolveFileOrDirectoryPath): relative to the repository's top whether
// or not it begins with "/", links followed, and refused when it ends up
// outside the repository.
func (im *jsonnetImporter) libPath(lib string) (string, error) {
	clean := path.Join(".", strings.TrimLeft(lib, "/"))
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return "", fmt.Errorf("%q resolved to outside the repository", lib)
	}
	abs := filepath.Join(im.top, filepath.FromSlash(clean))
	real, err := im.fs.Resolve(abs)
	switch {
	case errors.Is(err, repofs.ErrOutside):
		return "", fmt.Errorf("%q resolved to outside the repository: %w", lib, err)
	case err != nil:
		return clean, nil // a library path that is not there finds nothing
	}
	r, err := filepath.Rel(im.top, real)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%q resolved to outside the repository", lib)
	}
	return filepath.ToSlash(r), nil
}

// Import is FileImporter.Import: beside the importing file, then each
// library path from the last. A snippet (a TLA or an external variable
// given as code) has no directory of its own: the repo server looks in
// its working directory, which holds nothing of the repository, so only
// the library paths are tried.
func (im *jsonnetImporter) Import(importedFrom, importedPath string) (jsonnet.Contents, string, error) {
	if importedFrom == "" && importedPath == im.main {
		return im.try(".", importedPath, importedFrom)
	}
	if path.IsAbs(importedPath) || filepath.IsAbs(importedPath) {
		return im.refuse(importedFrom, importedPath, errors.New("an absolute path, which Argo CD would read from its repo server's own files; ownership-check reads only the repository's"))
	}
	if importedFrom != "" {
		c, at, err := im.try(path.Dir(importedFrom), importedPath, importedFrom)
		if err != nil || at != "" {
			return c, at, err
		}
	}
	for i := len(im.jpaths) - 1; i >= 0; i-- {
		c, at, err := im.try(im.jpaths[i], importedPath, importedFrom)
		if err != nil || at != "" {
			return c, at, err
		}
	}
	return jsonnet.Contents{}, "", fmt.Errorf("couldn't open import %q: no match locally or in the Jsonnet library paths", importedPath)
}

// try reads dir/p; found at "" when it is not there.
func (im *jsonnetImporter) try(dir, p, from string) (jsonnet.Contents, string, error) {
	at := path.Join(dir, p)
	if at == ".." || strings.HasPrefix(at, "../") {
		return im.refuse(from, p, errors.New("outside the repository; ownership-check does not read it"))
	}
	if f, ok := im.cache[at]; ok {
		if !f.exists {
			return jsonnet.Contents{}, "", nil
		}
		return f.contents, at, nil
	}
	abs := filepath.Join(im.top, filepath.FromSlash(at))
	real, err := im.fs.Resolve(abs)
	switch {
	case errors.Is(err, repofs.ErrOutside):
		return im.refuse(from, p, err)
	case errors.Is(err, fs.ErrNotExist):
		// Its creation would change what is imported.
		im.fs.Reads.Dir(im.fs.RealOrSelf(filepath.Dir(abs)))
		im.cache[at] = &jsonnetFile{}
		return jsonnet.Contents{}, "", nil
	case err != nil:
		return jsonnet.Contents{}, "", err
	}
	im.fs.Reads.File(real)
	data, err := im.fs.ReadBounded(real)
	if err != nil {
		return jsonnet.Contents{}, "", err // it names the file
	}
	if err := checkJsonnetBrackets(at, string(data)); err != nil {
		if im.refused == nil {
			im.refused = err
		}
		return jsonnet.Contents{}, "", err
	}
	f := &jsonnetFile{contents: jsonnet.MakeContentsRaw(data), exists: true}
	im.cache[at] = f
	return f.contents, at, nil
}

// refuse is an import that is never read, for why.
func (im *jsonnetImporter) refuse(from, p string, why error) (jsonnet.Contents, string, error) {
	where := from
	if where == "" {
		where = im.main + ": a top-level argument or external variable"
	}
	err := fmt.Errorf("%s imports %q: %w", where, p, why)
	if im.refused == nil {
		im.refused = err
	}
	return jsonnet.Contents{}, "", err
}

// checkJsonnetBrackets refuses a source whose brackets nest deeper than
// go-jsonnet's parser can take (maxJsonnetBrackets).
func checkJsonnetBrackets(what, src string) error {
	if d := jsonnetBrackets(src); d > maxJsonnetBrackets {
		return fmt.Errorf("%s: brackets nested %d deep, more than the limit of %d: go-jsonnet's parser would exhaust the stack", what, d, maxJsonnetBrackets)
	}
	return nil
}
