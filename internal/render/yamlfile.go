package render

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"
)

// rawObject is a manifest before identity, scope and ignore rules.
type rawObject struct {
	obj    map[string]any
	source string // as users see it (relative to the working directory)
	line   int
	notes  []string // model.Object.Notes
	hidden []string // model.Object.HiddenValues
}

func (r rawObject) where() string {
	if r.line > 0 {
		return fmt.Sprintf("%s:%d", r.source, r.line)
	}
	return r.source
}

// chunk is one YAML document of a stream and the line its content starts on.
type chunk struct {
	text []byte
	line int // first line with content; 0 for an empty document
	from int // first line of the document, separator excluded
}

// splitDocuments splits a YAML stream at "---" lines as kubectl does
// (k8s.io/apimachinery's YAMLReader), remembering where each document
// starts so that errors and annotations can point at it.
func splitDocuments(data []byte) []chunk {
	var out []chunk
	cur := chunk{from: 1}
	var buf bytes.Buffer
	flush := func() {
		cur.text = append([]byte(nil), buf.Bytes()...)
		out = append(out, cur)
		buf.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64*1024), MaxFileSize+1)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if isSeparator(line) {
			flush()
			cur = chunk{from: n + 1}
			continue
		}
		if cur.line == 0 && hasContent(line) {
			cur.line = n
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	flush()
	return out
}

func isSeparator(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false
	}
	rest := strings.TrimSpace(string(line[3:]))
	return rest == "" || rest[0] == '#'
}

func hasContent(line []byte) bool {
	t := bytes.TrimSpace(line)
	return len(t) > 0 && t[0] != '#' && !bytes.Equal(t, []byte("..."))
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// parseManifests reads the Kubernetes objects of one YAML (or JSON) file,
// as kubectl apply -f would: multi-document, List kinds flattened. Errors
// name the file and line.
func parseManifests(file string, data []byte) ([]rawObject, error) {
	if err := checkAliasBombs(file, data); err != nil {
		return nil, err
	}
	objs, err := parseChecked(file, data)
	if err != nil {
		// The strict parser refuses a duplicate key without saying
		// where the first one is; checkYAML says both.
		if cerr := checkYAML(file, data); cerr != nil {
			return nil, cerr
		}
		return nil, err
	}
	return objs, nil
}

// parseChecked is parseManifests for data that checkYAML has already
// passed (read through guardFS).
func parseChecked(file string, data []byte) ([]rawObject, error) {
	var out []rawObject
	for _, c := range splitDocuments(data) {
		if c.line == 0 {
			continue
		}
		j, err := yaml.YAMLToJSONStrict(c.text)
		if err != nil {
			return nil, yamlError(file, c, err)
		}
		var v any
		if err := utiljson.Unmarshal(j, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, c.line, err)
		}
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s:%d: not a Kubernetes object: the document is a %s, not a mapping with apiVersion and kind", file, c.line, kindOfValue(v))
		}
		objs, err := flattenList(rawObject{obj: m, source: file, line: c.line})
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// yamlError rewrites the parser's document-relative line numbers into the
// file's.
func yamlError(file string, c chunk, err error) error {
	msg := strings.TrimPrefix(err.Error(), "error converting YAML to JSON: ")
	line := c.line
	found := false
	msg = yamlLine.ReplaceAllStringFunc(msg, func(s string) string {
		n, _ := strconv.Atoi(yamlLine.FindStringSubmatch(s)[1])
		abs := c.from + n - 1
		if !found {
			line, found = abs, true
		}
		return fmt.Sprintf("line %d", abs)
	})
	return fmt.Errorf("%s:%d: malformed YAML: %s", file, line, msg)
}

func kindOfValue(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case string:
		return "string"
	case bool:
		return "boolean"
	default:
		return "number"
	}
}

// flattenList expands a List (kind v1/List, or any *List with items) into
// its items, as kubectl does.
func flattenList(r rawObject) ([]rawObject, error) {
	kind, _ := r.obj["kind"].(string)
	items, isList := r.obj["items"].([]any)
	if !strings.HasSuffix(kind, "List") || !isList {
		return []rawObject{r}, nil
	}
	out := make([]rawObject, 0, len(items))
	for i, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: items[%d] of the %s is not an object", r.where(), i, kind)
		}
		out = append(out, rawObject{obj: m, source: r.source, line: r.line})
	}
	return out, nil
}
