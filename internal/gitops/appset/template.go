package appset

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

// renderer substitutes generator parameters into strings as the
// ApplicationSet controller does: Go's text/template with Sprig when the
// ApplicationSet says goTemplate, else fasttemplate's `{{param}}` that
// leaves an unknown parameter as it was.
type renderer struct {
	goTemplate bool
	options    []string
	// parsed keeps each template string parsed once: the controller parses
	// it again for every parameter set, to the same template.
	parsed map[string]*template.Template
}

// appSetFuncs is the function set the controller gives templates: Sprig's,
// without what reads the controller's environment or the network, plus its
// own.
var appSetFuncs = func() template.FuncMap {
	m := sprig.TxtFuncMap()
	delete(m, "env")
	delete(m, "expandenv")
	delete(m, "getHostByName")
	m["normalize"] = sanitizeName
	m["slugify"] = slugifyName
	m["toYaml"] = toYAML
	m["fromYaml"] = fromYAML
	m["fromYamlArray"] = fromYAMLArray
	return m
}()

var goTemplateOptions = map[string]bool{
	"missingkey=default": true, "missingkey=invalid": true,
	"missingkey=zero": true, "missingkey=error": true,
}

// isTemplated is the controller's test for a string fasttemplate renders:
// a `{{` and a `}}` on one line.
var isTemplated = regexp.MustCompile("{{.*}}")

// replace renders one string with params.
func (r *renderer) replace(s string, params map[string]any) (string, error) {
	if !strings.Contains(s, "{{") {
		// Both engines print text without an action as it is.
		return s, nil
	}
	if r.goTemplate {
		return r.goReplace(s, params, r.options)
	}
	if !isTemplated.MatchString(s) {
		return s, nil
	}
	return fastReplace(s, params)
}

func (r *renderer) goReplace(s string, params map[string]any, options []string) (string, error) {
	key := s
	if len(options) != len(r.options) {
		key = strings.Join(options, ",") + "\x00" + s
	}
	t, ok := r.parsed[key]
	if !ok {
		var err error
		// "base" is the controller's template name, which its errors show.
		t, err = template.New("base").Funcs(appSetFuncs).Option(options...).Parse(s)
		if err != nil {
			return "", fmt.Errorf("failed to parse template %s: %w", s, err)
		}
		if r.parsed == nil {
			r.parsed = map[string]*template.Template{}
		}
		r.parsed[key] = t
	}
	var b bytes.Buffer
	if err := t.Execute(&b, params); err != nil {
		return "", fmt.Errorf("failed to execute go template %s: %w", s, err)
	}
	return b.String(), nil
}

// fastReplace is fasttemplate with `{{` `}}` tags as the controller calls
// it: the tag trimmed of spaces names a string parameter; any other tag is
// written back untouched; a start tag without an end tag is an error.
func fastReplace(s string, params map[string]any) (string, error) {
	var b strings.Builder
	rest := s
	for {
		n := strings.Index(rest, "{{")
		if n < 0 {
			b.WriteString(rest)
			return b.String(), nil
		}
		b.WriteString(rest[:n])
		rest = rest[n+2:]
		n = strings.Index(rest, "}}")
		if n < 0 {
			return "", fmt.Errorf("invalid template: cannot find end tag=\"}}\" in the template=%q starting from %q", s, rest)
		}
		tag := rest[:n]
		rest = rest[n+2:]
		trimmed := strings.TrimSpace(tag)
		v, ok := params[trimmed].(string)
		if trimmed == "" || !ok {
			b.WriteString("{{" + tag + "}}")
			continue
		}
		b.WriteString(v)
	}
}

// replaceTree renders every string of v, map keys included (the controller
// templates keys too, for annotations), into a new tree. A nil map value is
// dropped, as the controller's typed copy drops it. field names v in
// errors.
func (r *renderer) replaceTree(v any, params map[string]any, field string) (any, error) {
	switch v := v.(type) {
	case string:
		s, err := r.replace(v, params)
		if err != nil {
			return nil, fieldErr(field, err)
		}
		return s, nil
	case map[string]any:
		out := make(map[string]any, len(v))
		for _, k := range sortedKeys(v) {
			e := v[k]
			if e == nil {
				continue
			}
			sub := joinField(field, k)
			ne, err := r.replaceTree(e, params, sub)
			if err != nil {
				return nil, err
			}
			nk, err := r.replace(k, params)
			if err != nil {
				return nil, fieldErr(sub, err)
			}
			out[nk] = ne
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			ne, err := r.replaceTree(e, params, fmt.Sprintf("%s[%d]", field, i))
			if err != nil {
				return nil, err
			}
			out[i] = ne
		}
		return out, nil
	default:
		return v, nil
	}
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func joinField(field, key string) string {
	if field == "" {
		return key
	}
	return field + "." + key
}

var invalidDNSNameChars = regexp.MustCompile("[^-a-z0-9.]")

// sanitizeName is the controller's `normalize` and `basenameNormalized`: a
// DNS subdomain name of at most 253 lowercase alphanumerics, '-' and '.',
// starting and ending with an alphanumeric.
func sanitizeName(name string) string {
	name = strings.ToLower(name)
	name = invalidDNSNameChars.ReplaceAllString(name, "-")
	if len(name) > 253 {
		name = name[:253]
	}
	return strings.Trim(name, "-.")
}

var (
	slugUnauthorized   = regexp.MustCompile("[^a-zA-Z0-9-_]")
	slugMultipleDashes = regexp.MustCompile("-+")
)

// slugifyName is the controller's `slugify [maxSize [smartTruncate]] NAME`:
// the sanitized name made a URL slug as gosimple/slug makes one, of at
// most maxSize (50) bytes, cut at the last dash before it when
// smartTruncate (true).
func slugifyName(args ...any) string {
	maxSize, smart, name := 50, true, ""
	for i, a := range args {
		switch i {
		case len(args) - 1:
			name, _ = a.(string)
		case 0:
			if n, ok := a.(int); ok {
				maxSize = n
			}
		case 1:
			if b, ok := a.(bool); ok {
				smart = b
			}
		}
	}
	s := sanitizeName(name)
	if !smart && len(s) >= maxSize {
		s = s[:maxSize]
	}
	s = slugUnauthorized.ReplaceAllString(s, "-")
	s = slugMultipleDashes.ReplaceAllString(s, "-")
	s = strings.Trim(s, "-_")
	if maxSize > 0 && smart && len(s) > maxSize {
		cut := maxSize
		for i := maxSize; i >= 0; i-- {
			if s[i] == '-' {
				cut = i
				break
			}
		}
		s = s[:cut]
	}
	return s
}

func toYAML(v any) (string, error) {
	data, err := yaml.Marshal(v)
	if err != nil {
		return "", err
	}
	return strings.TrimSuffix(string(data), "\n"), nil
}

func fromYAML(s string) (map[string]any, error) {
	m := map[string]any{}
	if err := yaml.Unmarshal([]byte(s), &m); err != nil {
		return nil, err
	}
	return m, nil
}

func fromYAMLArray(s string) ([]any, error) {
	var a []any
	if err := yaml.Unmarshal([]byte(s), &a); err != nil {
		return nil, err
	}
	return a, nil
}
