package config

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v4/value"
)

// Path is a rule's path: model's string form of a field path
// (".spec.template.spec.containers[name=\"app\"].resources"), with its two
// wildcards, ".*" for every key of a map and "[*]" for every item of a
// list (model.ParsePathPattern). This file is the matcher over that
// grammar, not a second grammar.
//
// Matching joins consecutive field steps, because the string form does not
// quote field names: ".spec.nodeSelector.kubernetes.io/os" reads as three
// fields but matches the one key "kubernetes.io/os".
type Path struct {
	text  string
	steps []model.PathStep
}

// String gives the path as written.
func (p Path) String() string { return p.text }

// Steps gives the parsed steps.
func (p Path) Steps() []model.PathStep { return p.steps }

// ParsePath parses a rule's path; it must start with a field.
func ParsePath(s string) (Path, error) {
	if s == "" {
		return Path{}, fmt.Errorf("empty path")
	}
	if s[0] != '.' {
		return Path{}, fmt.Errorf("path %q must start with a field, e.g. \".spec.replicas\"", s)
	}
	steps, err := model.ParsePathPattern(s)
	if err != nil {
		return Path{}, err
	}
	return Path{text: s, steps: splitDots(steps)}, nil
}

// splitDots splits every field name at its dots. The grammar reads the key
// of a known string map whole; a field of that name is a struct in some
// kinds (a CRD's .spec.data), and matching joins steps again anyway, so
// split steps match both.
func splitDots(steps []model.PathStep) []model.PathStep {
	out := make([]model.PathStep, 0, len(steps))
	for _, st := range steps {
		if st.FieldName == nil || !strings.Contains(*st.FieldName, ".") {
			out = append(out, st)
			continue
		}
		for _, name := range strings.Split(*st.FieldName, ".") {
			out = append(out, model.PathStep{PathElement: fieldpath.PathElement{FieldName: &name}})
		}
	}
	return out
}

// PathOf is the path that selects fp and nothing else: a finding's path,
// to look up in an object without reading its string form again.
func PathOf(fp fieldpath.Path) Path {
	steps := make([]model.PathStep, len(fp))
	for i, pe := range fp {
		steps[i] = model.PathStep{PathElement: pe}
	}
	return Path{text: fp.String(), steps: steps}
}

// MustParsePath is ParsePath for constants; it panics on a bad path.
func MustParsePath(s string) Path {
	p, err := ParsePath(s)
	if err != nil {
		panic(err)
	}
	return p
}

// isField tells whether a step selects a map key, wildcard included.
func isField(s model.PathStep) bool { return s.FieldName != nil }

func isAnyKey(s model.PathStep) bool { return s.FieldName != nil && *s.FieldName == model.AnyKey }

// FieldSpan tells how many consecutive field steps from i, joined with
// dots, spell name; 0 when they do not. A wildcard step matches one whole
// name.
func FieldSpan(steps []model.PathStep, i int, name string) int {
	if i >= len(steps) || !isField(steps[i]) {
		return 0
	}
	if isAnyKey(steps[i]) {
		return 1
	}
	joined := ""
	for j := i; j < len(steps) && isField(steps[j]) && !isAnyKey(steps[j]); j++ {
		if j > i {
			joined += "."
		}
		joined += *steps[j].FieldName
		if joined == name {
			return j - i + 1
		}
		if len(joined) >= len(name) || !strings.HasPrefix(name, joined+".") {
			return 0
		}
	}
	return 0
}

// MatchItem tells whether a list item (as decoded JSON) at position index
// is selected by a key, value, index or "[*]" step.
func MatchItem(s model.PathStep, item any, index int) bool {
	switch {
	case s.AnyItem:
		return true
	case s.Index != nil:
		return *s.Index == index
	case s.Value != nil:
		return model.EqualValues((*s.Value).Unstructured(), item)
	case s.Key != nil:
		m, ok := item.(map[string]any)
		if !ok {
			return false
		}
		for _, k := range *s.Key {
			v, found := m[k.Name]
			if !found || !model.EqualValues(k.Value.Unstructured(), v) {
				return false
			}
		}
		return true
	}
	return false
}

// Covers tells whether fp is at or below a location the path selects: an
// ignored subtree hides all its leaves.
func (p Path) Covers(fp fieldpath.Path) bool {
	return coversFrom(p.steps, 0, fp)
}

func coversFrom(steps []model.PathStep, i int, fp fieldpath.Path) bool {
	if i == len(steps) {
		return true
	}
	if len(fp) == 0 {
		return false
	}
	pe, s := fp[0], steps[i]
	switch {
	case pe.FieldName != nil:
		n := FieldSpan(steps, i, *pe.FieldName)
		return n > 0 && coversFrom(steps, i+n, fp[1:])
	case s.AnyItem:
		return coversFrom(steps, i+1, fp[1:])
	case pe.Key != nil:
		if s.Key == nil || len(*s.Key) != len(*pe.Key) {
			return false
		}
		for _, k := range *s.Key {
			v, ok := fieldValue(*pe.Key, k.Name)
			if !ok || !model.EqualValues(k.Value.Unstructured(), v.Unstructured()) {
				return false
			}
		}
		return coversFrom(steps, i+1, fp[1:])
	case pe.Value != nil:
		return s.Value != nil && model.EqualValues((*s.Value).Unstructured(), (*pe.Value).Unstructured()) && coversFrom(steps, i+1, fp[1:])
	case pe.Index != nil:
		return s.Index != nil && *s.Index == *pe.Index && coversFrom(steps, i+1, fp[1:])
	}
	return false
}

func fieldValue(fl value.FieldList, name string) (value.Value, bool) {
	for _, f := range fl {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}
