package config

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Changes says, one phrase each, how config to differs from config from
// in what they do (comments and key order do not count): "adds to
// ignore: path .spec.replicas, kind Deployment", "turns on
// kustomize.allowExecPlugins". nil stands for no file, the defaults.
//
// A pull request that changes the repository config is checked with the
// base branch's; these phrases tell its author what the change will do
// once merged.
func Changes(from, to *Config) []string {
	var out []string
	diffValues("", plain(from), plain(to), &out)
	return out
}

// plain is the config as decoded JSON: the one form every setting, present
// or future, is compared in.
func plain(c *Config) map[string]any {
	if c == nil {
		c = Default()
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil
	}
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

func diffValues(key string, a, b any, out *[]string) {
	am, aIsMap := a.(map[string]any)
	bm, bIsMap := b.(map[string]any)
	if (aIsMap || a == nil) && (bIsMap || b == nil) && (aIsMap || bIsMap) {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			sub := k
			if key != "" {
				sub = key + "." + k
			}
			diffValues(sub, am[k], bm[k], out)
		}
		return
	}
	al, aIsList := a.([]any)
	bl, bIsList := b.([]any)
	if (aIsList || a == nil) && (bIsList || b == nil) && (aIsList || bIsList) {
		for _, x := range missingFrom(bl, al) {
			*out = append(*out, "adds to "+key+": "+describe(x))
		}
		for _, x := range missingFrom(al, bl) {
			*out = append(*out, "removes from "+key+": "+describe(x))
		}
		return
	}
	if canonical(a) == canonical(b) {
		return
	}
	switch {
	case b == true && (a == nil || a == false):
		*out = append(*out, "turns on "+key)
	case a == true && (b == nil || b == false):
		*out = append(*out, "turns off "+key)
	case a == nil:
		*out = append(*out, "sets "+key+" to "+describe(b))
	case b == nil:
		*out = append(*out, "removes "+key+" (was "+describe(a)+")")
	default:
		*out = append(*out, "changes "+key+" from "+describe(a)+" to "+describe(b))
	}
}

// missingFrom lists the items of l that have no equal in other, in l's order.
func missingFrom(l, other []any) []any {
	have := map[string]int{}
	for _, x := range other {
		have[canonical(x)]++
	}
	var out []any
	for _, x := range l {
		k := canonical(x)
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, x)
	}
	return out
}

func canonical(v any) string {
	b, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(b)
}

// describe writes a setting's value for people: a rule as "path .x, kind
// Y", path first, the rest in key order.
func describe(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		if s, isString := v.(string); isString {
			return s
		}
		return canonical(v)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		if k != "path" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	if _, ok := m["path"]; ok {
		keys = append([]string{"path"}, keys...)
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %s", k, describe(m[k])))
	}
	return strings.Join(parts, ", ")
}
