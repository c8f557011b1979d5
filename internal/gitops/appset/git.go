package appset

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// gitParams is the git generator over this repository's checkout: the
// generator's revision is taken to be the checkout, because the pull
// request's tree is what the check is about. A repoURL that names another
// repository is not expandable here.
func (e *expander) gitParams(g map[string]any, field string) ([]map[string]any, error) {
	repoURL, _ := g["repoURL"].(string)
	if repoURL == "" {
		return nil, fmt.Errorf("%s.repoURL: missing", field)
	}
	if !sameRepository(e.repo, repoURL) {
		return nil, &notExpandable{foreignGit(repoURL)}
	}
	prefix, _ := g["pathParamPrefix"].(string)
	values, err := stringMap(g["values"], field+".values")
	if err != nil {
		return nil, err
	}
	dirs, _ := g["directories"].([]any)
	files, _ := g["files"].([]any)
	var params []map[string]any
	switch {
	case len(dirs) != 0:
		params, err = e.gitDirectoryParams(dirs, prefix, field+".directories")
	case len(files) != 0:
		params, err = e.gitFileParams(files, prefix, field+".files")
	default:
		return nil, fmt.Errorf("%s: ApplicationSet is empty: a git generator needs directories or files", field)
	}
	if err != nil {
		return nil, err
	}
	for _, p := range params {
		if err := e.appendValues(values, p, field+".values"); err != nil {
			return nil, err
		}
	}
	return params, nil
}

func foreignGit(repoURL string) string {
	return fmt.Sprintf("git generator reads %s: another repository", repoURL)
}

type globItem struct {
	path    string
	exclude bool
}

func globItems(items []any, field string) ([]globItem, error) {
	out := make([]globItem, 0, len(items))
	for i, it := range items {
		m, _ := it.(map[string]any)
		p, ok := m["path"].(string)
		if !ok {
			return nil, fmt.Errorf("%s[%d].path: missing", field, i)
		}
		ex, _ := m["exclude"].(bool)
		out = append(out, globItem{p, ex})
	}
	return out, nil
}

// gitDirectoryParams is the directory generator: every directory of the
// tree (in the repo server's walk order, without those whose name starts
// with a dot) that an item's path.Match glob matches and no `exclude` item
// does.
func (e *expander) gitDirectoryParams(items []any, prefix, field string) ([]map[string]any, error) {
	globs, err := globItems(items, field)
	if err != nil {
		return nil, err
	}
	t, err := e.tree()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, dir := range t.dirs {
		if selected(globs, dir, func(pattern, name string) bool {
			ok, err := path.Match(pattern, name)
			return err == nil && ok
		}) {
			out = append(out, e.pathParams(dir, "", prefix))
		}
	}
	return out, nil
}

// selected: an include item's pattern matches name, and no exclude
// item's does, as both git generators decide.
func selected(globs []globItem, name string, match func(pattern, name string) bool) bool {
	include, exclude := false, false
	for _, g := range globs {
		if !match(g.path, name) {
			continue
		}
		if g.exclude {
			exclude = true
		} else {
			include = true
		}
	}
	return include && !exclude
}

// gitFileParams is the file generator: the files an include item matches
// (as `git ls-files -- PATTERN` does) and no exclude item does, in sorted
// order, each a JSON or YAML object (or a list of them) whose keys are the
// parameters, beside the `path` parameters of its directory.
func (e *expander) gitFileParams(items []any, prefix, field string) ([]map[string]any, error) {
	globs, err := globItems(items, field)
	if err != nil {
		return nil, err
	}
	t, err := e.tree()
	if err != nil {
		return nil, err
	}
	var matched []string
	for _, f := range t.files {
		if selected(globs, f, pathspecMatch) {
			matched = append(matched, f)
		}
	}
	slices.Sort(matched)
	read, err := e.files()
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, f := range matched {
		data, err := read.ReadFile(filepath.FromSlash(f), repofs.ManifestFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", field, err)
		}
		objects, err := parseGeneratorFile(data)
		if err != nil {
			return nil, fmt.Errorf("%s: unable to process file '%s': unable to parse file: %w", field, f, err)
		}
		for _, obj := range objects {
			params := map[string]any{}
			if e.render.goTemplate {
				for k, v := range obj {
					params[k] = v
				}
			} else {
				for k, v := range flattenParams(obj) {
					params[k] = v
				}
			}
			for k, v := range e.pathParams(path.Dir(f), path.Base(f), prefix) {
				params[k] = v
			}
			out = append(out, params)
		}
	}
	return out, nil
}

// parseGeneratorFile reads a file as one object, else as a list of them.
// An empty file is one object without keys.
func parseGeneratorFile(data []byte) ([]map[string]any, error) {
	single := map[string]any{}
	if err := yamlUnmarshal(data, &single); err == nil {
		return []map[string]any{single}, nil
	}
	var list []map[string]any
	if err := yamlUnmarshal(data, &list); err != nil {
		return nil, err
	}
	return list, nil
}

// pathParams are a directory's `path` parameters: nested under `path`
// (and under pathParamPrefix) for goTemplate, dotted with `path[N]`
// segments otherwise. file is the generator file's name, "" for the
// directory generator.
func (e *expander) pathParams(dir, file, prefix string) map[string]any {
	params := map[string]any{}
	if e.render.goTemplate {
		p := map[string]any{
			"path":               dir,
			"basename":           path.Base(dir),
			"basenameNormalized": sanitizeName(path.Base(dir)),
			"segments":           strings.Split(dir, "/"),
		}
		if file != "" {
			p["filename"] = file
			p["filenameNormalized"] = sanitizeName(file)
		}
		if prefix != "" {
			params[prefix] = map[string]any{"path": p}
		} else {
			params["path"] = p
		}
		return params
	}
	name := "path"
	if prefix != "" {
		name = prefix + ".path"
	}
	params[name] = dir
	params[name+".basename"] = path.Base(dir)
	params[name+".basenameNormalized"] = sanitizeName(path.Base(dir))
	if file != "" {
		params[name+".filename"] = file
		params[name+".filenameNormalized"] = sanitizeName(file)
	}
	for i, seg := range strings.Split(dir, "/") {
		if seg != "" {
			params[name+"["+strconv.Itoa(i)+"]"] = seg
		}
	}
	return params
}

// appendValues adds the generator's `values`, each rendered with the
// parameters so far: `values.KEY` or, for goTemplate, `values` as an
// object.
func (e *expander) appendValues(values map[string]string, params map[string]any, field string) error {
	if len(values) == 0 {
		return nil
	}
	rendered := make(map[string]string, len(values))
	for k, v := range values {
		r, err := e.render.replace(v, params)
		if err != nil {
			return fmt.Errorf("%s.%s: failed to append templated values: %w", field, k, err)
		}
		rendered[k] = r
	}
	if e.render.goTemplate {
		params["values"] = rendered
		return nil
	}
	for k, v := range rendered {
		params["values."+k] = v
	}
	return nil
}

func stringMap(v any, field string) (map[string]string, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", field)
	}
	out := make(map[string]string, len(m))
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("%s.%s: not a string", field, k)
		}
		out[k] = s
	}
	return out, nil
}
