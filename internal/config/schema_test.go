package config

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// TestSchemaMatchesConfig: docs/ownership-check.schema.json, which editors
// complete and check the config with, has every key the config reads,
// and no other: each struct's json tags are its object's properties, and
// a key without omitempty is required.
func TestSchemaMatchesConfig(t *testing.T) {
	b, err := os.ReadFile("../../docs/ownership-check.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	defs, _ := schema["definitions"].(map[string]any)
	resolve := func(s map[string]any) map[string]any {
		if ref, ok := s["$ref"].(string); ok {
			d, _ := defs[strings.TrimPrefix(ref, "#/definitions/")].(map[string]any)
			return d
		}
		return s
	}
	var check func(at string, typ reflect.Type, s map[string]any)
	check = func(at string, typ reflect.Type, s map[string]any) {
		s = resolve(s)
		// A key written in either of two forms (discover's clusters: a
		// map, or a list the config reads into another field) is checked
		// on its branch of the struct's kind.
		if alts, ok := s["anyOf"].([]any); ok {
			for _, a := range alts {
				if b, _ := a.(map[string]any); b != nil && (b["type"] == "object") == (typ.Kind() == reflect.Map || typ.Kind() == reflect.Struct) {
					s = b
					break
				}
			}
		}
		switch typ.Kind() {
		case reflect.Pointer:
			check(at, typ.Elem(), s)
			return
		case reflect.Slice:
			if s["type"] != "array" {
				t.Errorf("%s: schema type %v, want array", at, s["type"])
				return
			}
			items, _ := s["items"].(map[string]any)
			check(at+"[]", typ.Elem(), items)
			return
		case reflect.Map:
			if s["type"] != "object" {
				t.Errorf("%s: schema type %v, want object", at, s["type"])
			}
			return
		case reflect.String:
			if s["type"] != "string" {
				t.Errorf("%s: schema type %v, want string", at, s["type"])
			}
			return
		case reflect.Bool:
			if s["type"] != "boolean" {
				t.Errorf("%s: schema type %v, want boolean", at, s["type"])
			}
			return
		case reflect.Int:
			if s["type"] != "integer" {
				t.Errorf("%s: schema type %v, want integer", at, s["type"])
			}
			return
		case reflect.Struct:
		default:
			t.Errorf("%s: %s has no schema check", at, typ)
			return
		}
		if s["type"] != "object" || s["additionalProperties"] != false {
			t.Errorf("%s: want an object without additional properties", at)
		}
		props, _ := s["properties"].(map[string]any)
		var tags, required []string
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || name == "" {
				continue
			}
			tags = append(tags, name)
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
			p, ok := props[name].(map[string]any)
			if !ok {
				t.Errorf("%s.%s: not in the schema", at, name)
				continue
			}
			if p["description"] == nil && p["$ref"] == nil {
				t.Errorf("%s.%s: no description in the schema", at, name)
			}
			check(at+"."+name, f.Type, p)
		}
		for name := range props {
			if !slices.Contains(tags, name) {
				t.Errorf("%s.%s: in the schema, not read by the config", at, name)
			}
		}
		var req []string
		if r, ok := s["required"].([]any); ok {
			for _, x := range r {
				req = append(req, x.(string))
			}
		}
		sort.Strings(req)
		sort.Strings(required)
		if !slices.Equal(req, required) {
			t.Errorf("%s: schema requires %v, the config %v", at, req, required)
		}
	}
	check("", reflect.TypeOf(Config{}), schema)
}

// TestConfigPageNamesEveryKey: docs/config.md, the reference of the file,
// names every key the config reads.
func TestConfigPageNamesEveryKey(t *testing.T) {
	b, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	var walk func(typ reflect.Type)
	walk = func(typ reflect.Type) {
		for typ.Kind() == reflect.Pointer || typ.Kind() == reflect.Slice {
			typ = typ.Elem()
		}
		if typ.Kind() != reflect.Struct {
			return
		}
		for i := range typ.NumField() {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" || name == "" {
				continue
			}
			if !strings.Contains(page, "`"+name+"`") {
				t.Errorf("docs/config.md does not name %s.%s", typ.Name(), name)
			}
			walk(f.Type)
		}
	}
	walk(reflect.TypeOf(Config{}))
}

// TestConfigPageExampleParses: the page's example of every key is a
// config the check reads.
func TestConfigPageExampleParses(t *testing.T) {
	b, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "```yaml\n")
	if !ok {
		t.Fatal("docs/config.md has no yaml example")
	}
	example, _, _ := strings.Cut(rest, "```")
	if _, err := Parse("docs/config.md", []byte(example)); err != nil {
		t.Errorf("the example does not parse: %v", err)
	}
}
