package appset

import (
	"fmt"
	"slices"
)

// selectParams keeps the parameter sets a generator's label selector
// matches, on their flattened (dotted, string) form, as the controller
// does; unlike a label selector it puts no limit on values, so that a
// cluster URL can match.
func selectParams(sel any, params []map[string]any, field string) ([]map[string]any, error) {
	if sel == nil {
		return params, nil
	}
	s, ok := sel.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: error parsing label selector: not an object", field)
	}
	match, err := labelMatcher(s, field)
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, p := range params {
		if match(flattenParams(p)) {
			out = append(out, p)
		}
	}
	return out, nil
}

func labelMatcher(s map[string]any, field string) (func(map[string]string) bool, error) {
	type req struct {
		key, op string
		values  []string
	}
	var reqs []req
	labels, _ := s["matchLabels"].(map[string]any)
	for _, k := range sortedKeys(labels) {
		v, ok := labels[k].(string)
		if !ok {
			return nil, fmt.Errorf("%s.matchLabels.%s: error parsing label selector: not a string", field, k)
		}
		reqs = append(reqs, req{k, "In", []string{v}})
	}
	exprs, _ := s["matchExpressions"].([]any)
	for i, x := range exprs {
		f := fmt.Sprintf("%s.matchExpressions[%d]", field, i)
		m, _ := x.(map[string]any)
		key, _ := m["key"].(string)
		op, _ := m["operator"].(string)
		var values []string
		raw, _ := m["values"].([]any)
		for _, v := range raw {
			sv, _ := v.(string)
			values = append(values, sv)
		}
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				return nil, fmt.Errorf("%s: error parsing label selector: for 'in', 'notin' operators, values set can't be empty", f)
			}
		case "Exists", "DoesNotExist":
			if len(values) != 0 {
				return nil, fmt.Errorf("%s: error parsing label selector: values set must be empty for exists and does not exist", f)
			}
		default:
			return nil, fmt.Errorf("%s: error parsing label selector: %q is not a valid label selector operator", f, op)
		}
		reqs = append(reqs, req{key, op, values})
	}
	return func(set map[string]string) bool {
		for _, r := range reqs {
			v, has := set[r.key]
			var ok bool
			switch r.op {
			case "In":
				ok = has && slices.Contains(r.values, v)
			case "NotIn":
				ok = !has || !slices.Contains(r.values, v)
			case "Exists":
				ok = has
			case "DoesNotExist":
				ok = !has
			}
			if !ok {
				return false
			}
		}
		return true
	}, nil
}

// flattenParams is the controller's flattenParameters: nested objects
// (a generator's `values` too) and lists as dotted keys (`a.b`, `a.0`),
// values printed with %v; an empty object or list leaves no key.
func flattenParams(p map[string]any) map[string]string {
	out := make(map[string]string, len(p))
	flattenInto(out, "", p)
	return out
}

func flattenInto(out map[string]string, prefix string, v any) {
	key := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if m, ok := e.(map[string]string); ok {
				for mk, mv := range m {
					out[key(k)+"."+mk] = mv
				}
				continue
			}
			flattenValue(out, key(k), e)
		}
	case []any:
		for i, e := range v {
			flattenValue(out, key(fmt.Sprint(i)), e)
		}
	}
}

func flattenValue(out map[string]string, k string, v any) {
	switch v.(type) {
	case map[string]any, []any:
		flattenInto(out, k, v)
	default:
		out[k] = fmt.Sprintf("%v", v)
	}
}
