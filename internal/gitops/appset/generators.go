package appset

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"dario.cat/mergo"
)

// generatorKinds are a generator's fields in the order of the
// controller's ApplicationSetGenerator struct, the order it runs them in
// when one entry sets several.
var generatorKinds = []string{"list", "clusters", "git", "scmProvider", "clusterDecisionResource", "pullRequest", "matrix", "merge", "plugin"}

// serviceGenerators need what a repository does not hold.
var serviceGenerators = map[string]string{
	"clusters":                "reads the clusters registered in Argo CD",
	"clusterDecisionResource": "reads a decision resource in the cluster",
	"scmProvider":             "asks an SCM provider's API for repositories",
	"pullRequest":             "asks an SCM provider's API for pull requests",
	"plugin":                  "asks a plugin service for parameters",
}

// transformed is what one generator of an entry makes: its parameter sets
// and the template they render.
type transformed struct {
	params   []map[string]any
	template map[string]any
}

// transform is the controller's generators.Transform: every generator the
// entry sets, each with its template merged over base, its fields
// rendered with genParams first when there are any (a matrix's second
// generator), its parameter sets filtered by the entry's selector.
func (e *expander) transform(entry map[string]any, field string, base map[string]any, genParams map[string]any) ([]transformed, error) {
	interpolated := entry
	if len(genParams) != 0 {
		var err error
		if interpolated, err = e.interpolate(entry, genParams, field); err != nil {
			return nil, err
		}
	}
	var out []transformed
	for _, kind := range generatorKinds {
		own, ok := entry[kind].(map[string]any)
		if !ok {
			continue
		}
		if why := e.repo.serviceReason(kind, field); why != "" {
			return nil, &notExpandable{why}
		}
		if (kind == "matrix" || kind == "merge") && strings.Count(field, "generators[") > 2 {
			// The controller's types end there: a third level's generators
			// are dropped, and the generator makes nothing.
			return nil, fmt.Errorf("%s.%s: a matrix or merge generator in a nested one: Argo CD nests them one level deep", field, kind)
		}
		tmpl, err := mergeTemplate(own["template"], base)
		if err != nil {
			return nil, fmt.Errorf("%s.%s.template: %w", field, kind, err)
		}
		g, _ := interpolated[kind].(map[string]any)
		var params []map[string]any
		switch kind {
		case "list":
			params, err = e.listParams(g, field+".list")
		case "clusters":
			params, err = e.clusterParams(g, field+".clusters")
		case "git":
			params, err = e.gitParams(g, field+".git")
		case "matrix":
			params, err = e.matrixParams(g, field+".matrix")
		case "merge":
			params, err = e.mergeParams(g, field+".merge")
		}
		if err != nil {
			return nil, err
		}
		params, err = selectParams(interpolated["selector"], params, field+".selector")
		if err != nil {
			return nil, err
		}
		out = append(out, transformed{params: params, template: tmpl})
	}
	return out, nil
}

// interpolate renders a generator's fields with another generator's
// parameters (a matrix's first). A generator's `values` are rendered with
// missingkey=error, and one that names a key the parameters lack stays as
// it is: the generator's own parameters render it later.
func (e *expander) interpolate(entry, params map[string]any, field string) (map[string]any, error) {
	var values map[string]any
	if g, ok := entry["git"].(map[string]any); ok {
		values, _ = g["values"].(map[string]any)
	}
	if values != nil {
		entry = maps.Clone(entry)
		g := maps.Clone(entry["git"].(map[string]any))
		delete(g, "values")
		entry["git"] = g
	}
	r, err := e.render.replaceTree(entry, params, field)
	if err != nil {
		return nil, err
	}
	out := r.(map[string]any)
	if values == nil {
		return out, nil
	}
	options := e.render.options
	if e.render.goTemplate {
		options = nil
		for _, o := range e.render.options {
			if !strings.HasPrefix(o, "missingkey=") {
				options = append(options, o)
			}
		}
		options = append(options, "missingkey=error")
	}
	resolved := make(map[string]any, len(values))
	for k, v := range values {
		s, ok := v.(string)
		if !ok {
			resolved[k] = v
			continue
		}
		var err error
		if e.render.goTemplate && strings.Contains(s, "{{") {
			var r string
			r, err = e.render.goReplace(s, params, options)
			if err != nil && isMissingKey(err) {
				r, err = s, nil
			}
			s = r
		} else {
			s, err = e.render.replace(s, params)
		}
		if err != nil {
			return nil, fmt.Errorf("%s.git.values.%s: failed to pre-resolve Values key %q: %w", field, k, k, err)
		}
		resolved[k] = s
	}
	out["git"].(map[string]any)["values"] = resolved
	return out, nil
}

func isMissingKey(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "map has no entry for key") || strings.Contains(msg, "can't evaluate field")
}

// mergeTemplate is the controller's mergeGeneratorTemplate: the
// generator's own template, with what it leaves empty taken from base.
func mergeTemplate(own any, base map[string]any) (map[string]any, error) {
	dest := map[string]any{}
	if own != nil {
		m, ok := own.(map[string]any)
		if !ok {
			return nil, errors.New("not an object")
		}
		dest = deepCopyMap(m)
	}
	fillEmpty(dest, base)
	return dest, nil
}

// fillEmpty sets each field of dest that is missing or empty to src's, and
// merges objects field by field: mergo.Merge without override, over the
// template's struct.
func fillEmpty(dest, src map[string]any) {
	for k, sv := range src {
		dv, ok := dest[k]
		dm, dIsMap := dv.(map[string]any)
		sm, sIsMap := sv.(map[string]any)
		switch {
		case !ok || isEmpty(dv):
			dest[k] = deepCopy(sv)
		case dIsMap && sIsMap:
			fillEmpty(dm, sm)
		}
	}
}

func isEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case string:
		return v == ""
	case bool:
		return !v
	case float64:
		return v == 0
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// listParams is the list generator: each element a parameter set. Without
// goTemplate, an element's values are strings, its `values` object's too
// (as `values.KEY`); elementsYaml's elements follow as they are.
func (e *expander) listParams(g map[string]any, field string) ([]map[string]any, error) {
	elements, _ := g["elements"].([]any)
	var out []map[string]any
	for i, el := range elements {
		f := fmt.Sprintf("%s.elements[%d]", field, i)
		m, ok := el.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: error unmarshling list element: not an object", f)
		}
		if e.render.goTemplate {
			out = append(out, deepCopyMap(m))
			continue
		}
		params := map[string]any{}
		for k, v := range m {
			if k == "values" {
				values, ok := v.(map[string]any)
				if !ok {
					return nil, fmt.Errorf("%s.values: error parsing values map", f)
				}
				for vk, vv := range values {
					s, ok := vv.(string)
					if !ok {
						return nil, fmt.Errorf("%s.values.%s: error parsing value as string", f, vk)
					}
					params["values."+vk] = s
				}
				continue
			}
			s, ok := v.(string)
			if !ok {
				return nil, fmt.Errorf("%s.%s: error parsing value as string", f, k)
			}
			params[k] = s
		}
		out = append(out, params)
	}
	if y, ok := g["elementsYaml"].(string); ok && y != "" {
		var more []map[string]any
		if err := yamlUnmarshal([]byte(y), &more); err != nil {
			return nil, fmt.Errorf("%s.elementsYaml: error unmarshling decoded ElementsYaml %w", field, err)
		}
		out = append(out, more...)
	}
	return out, nil
}

// childParams is the controller's matrix and merge getParams: the child's
// one generator's parameter sets, its own template ignored.
func (e *expander) childParams(child any, field string, params map[string]any) ([]map[string]any, error) {
	m, ok := child.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: not an object", field)
	}
	t, err := e.transform(m, field, map[string]any{}, params)
	if err != nil {
		return nil, err
	}
	switch {
	case len(t) == 0:
		return nil, fmt.Errorf("%s: child generator generated no parameters", field)
	case len(t) > 1:
		return nil, fmt.Errorf("%s: only one generator per child generator is supported", field)
	}
	return t[0].params, nil
}

// matrixParams is the matrix generator: every parameter set of the first
// generator with every one of the second, which is rendered with the
// first's parameters. goTemplate merges the two (the first wins); without
// it a key both have with different values is an error.
func (e *expander) matrixParams(g map[string]any, field string) ([]map[string]any, error) {
	children, _ := g["generators"].([]any)
	switch {
	case len(children) < 2:
		return nil, fmt.Errorf("%s.generators: found less than two generators, Matrix support only two", field)
	case len(children) > 2:
		return nil, fmt.Errorf("%s.generators: found more than two generators, Matrix support only two", field)
	}
	first, err := e.childParams(children[0], field+".generators[0]", nil)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, a := range first {
		second, err := e.childParams(children[1], field+".generators[1]", a)
		if err != nil {
			return nil, err
		}
		for _, b := range second {
			if e.render.goTemplate {
				tmp := map[string]any{}
				if err := mergo.Merge(&tmp, deepCopyMap(b), mergo.WithOverride); err != nil {
					return nil, fmt.Errorf("%s: failed to merge params from the second generator in the matrix generator with temp map: %w", field, err)
				}
				if err := mergo.Merge(&tmp, deepCopyMap(a), mergo.WithOverride); err != nil {
					return nil, fmt.Errorf("%s: failed to merge params from the second generator in the matrix generator with the first: %w", field, err)
				}
				out = append(out, tmp)
				continue
			}
			c, err := combineStringMaps(a, b)
			if err != nil {
				return nil, fmt.Errorf("%s: failed to combine string maps with merging params for the matrix generator: %w", field, err)
			}
			out = append(out, c)
		}
	}
	return out, nil
}

// mergeParams is the merge generator: the first generator's parameter
// sets, each overridden by the later generators' set with the same values
// of mergeKeys. They keep the first generator's order (the controller's
// order is its map's, which is random).
func (e *expander) mergeParams(g map[string]any, field string) ([]map[string]any, error) {
	children, _ := g["generators"].([]any)
	if len(children) < 2 {
		return nil, fmt.Errorf("%s.generators: found less than two generators, Merge requires two or more", field)
	}
	var keys []string
	rawKeys, _ := g["mergeKeys"].([]any)
	for _, k := range rawKeys {
		if s, ok := k.(string); ok && !slices.Contains(keys, s) {
			keys = append(keys, s)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s.mergeKeys: no merge keys were specified", field)
	}
	var sets [][]map[string]any
	for i, c := range children {
		p, err := e.childParams(c, fmt.Sprintf("%s.generators[%d]", field, i), nil)
		if err != nil {
			return nil, err
		}
		sets = append(sets, p)
	}
	baseOrder, base, err := paramsByMergeKey(keys, sets[0])
	if err != nil {
		return nil, fmt.Errorf("%s.generators[0]: %w", field, err)
	}
	for i, s := range sets[1:] {
		_, by, err := paramsByMergeKey(keys, s)
		if err != nil {
			return nil, fmt.Errorf("%s.generators[%d]: %w", field, i+1, err)
		}
		for key, b := range base {
			o, ok := by[key]
			if !ok {
				continue
			}
			if e.render.goTemplate {
				if err := mergo.Merge(&b, deepCopyMap(o), mergo.WithOverride); err != nil {
					return nil, fmt.Errorf("%s: error merging base param set with override param set: %w", field, err)
				}
				base[key] = b
				continue
			}
			maps.Copy(b, o)
		}
	}
	out := make([]map[string]any, 0, len(baseOrder))
	for _, k := range baseOrder {
		out = append(out, base[k])
	}
	return out, nil
}

func paramsByMergeKey(keys []string, sets []map[string]any) ([]string, map[string]map[string]any, error) {
	var order []string
	by := make(map[string]map[string]any, len(sets))
	for _, p := range sets {
		k := make(map[string]any, len(keys))
		for _, key := range keys {
			k[key] = p[key]
		}
		j, err := json.Marshal(k)
		if err != nil {
			return nil, nil, fmt.Errorf("error marshalling param set key json: %w", err)
		}
		if _, dup := by[string(j)]; dup {
			return nil, nil, fmt.Errorf("the parameters from a generator were not unique by the given mergeKeys, Merge requires all param sets to be unique. Duplicate key was %s", j)
		}
		by[string(j)] = deepCopyMap(p)
		order = append(order, string(j))
	}
	return order, by, nil
}

// combineStringMaps is the controller's CombineStringMaps: values become
// strings, a key in both with different values is an error.
func combineStringMaps(a, b map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = fmt.Sprintf("%v", v)
	}
	for k, v := range b {
		s := fmt.Sprintf("%v", v)
		if cur, ok := out[k]; ok && cur != s {
			return nil, fmt.Errorf("found duplicate key %s with different value, a: %s ,b: %s", k, cur, s)
		}
		out[k] = s
	}
	return out, nil
}

func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		return deepCopyMap(v)
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = deepCopy(e)
		}
		return out
	case []string:
		return slices.Clone(v)
	case map[string]string:
		return maps.Clone(v)
	}
	return v
}

func deepCopyMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = deepCopy(v)
	}
	return out
}
