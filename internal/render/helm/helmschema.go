package helm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/ownership-check/ownership-check/internal/render/source"
)

// schemaBase is where Helm puts a chart's values.schema.json, so that a
// relative $ref is a file:// URL resolved against the chart's top.
const schemaBase = "file:///values.schema.json"

// maxSchemaFetches bounds the schemas one release's validation reads by
// URL (the chart's and its subcharts' together): each is small, but a
// chart could chain them without end.
const maxSchemaFetches = 64

// validateValues is Helm's chartutil.ValidateAgainstSchema, as install,
// upgrade and template call it through ToRenderValues: the values
// against the chart's values.schema.json and each subchart's against its
// own, with the same library, base URL and error text. Only what a
// schema may read differs (docs/security.md): a file: URL is a file of
// the chart itself, never one of the runner's, and an http or https URL
// is fetched through the chart locator, never by Helm's own client. A
// schema that cannot be read is a *schemaRefusal: the release is not
// rendered, rather than validated in part.
func validateValues(ctx context.Context, in *source.Input, c Chart, values map[string]any) error {
	v := &schemaValidation{ctx: ctx, in: in, fetched: map[string][]byte{}}
	err := v.chart(c, values, "")
	switch {
	case err == nil:
		return nil
	case v.operator != nil:
		return v.operator
	case v.refused != nil:
		return v.refused
	}
	return fmt.Errorf("values don't meet the specifications of the schema(s) in the following chart(s):\n%s", err.Error())
}

// schemaRefusal is a schema a chart's values schema names that was not
// read: the reason names the schema's chart and the URL it resolved to,
// and never shows what is at a path outside the chart.
type schemaRefusal struct {
	// chart is "" for the released chart, "subchart a/b: " for one below.
	chart, url, reason string
}

func (e *schemaRefusal) Error() string {
	return fmt.Sprintf("%svalues.schema.json: $ref %s is not read: %s", e.chart, e.url, e.reason)
}

// errNotChartFile is every file: URL that is not a file of the chart:
// one answer whether the path exists on the runner or not.
const errNotChartFile = "not a file of the chart (a schema reads only the chart's own files, and http or https URLs)"

// schemaValidation is one release's validation: what it fetched (each
// URL once, at most maxSchemaFetches), and the first schema refused.
type schemaValidation struct {
	ctx     context.Context
	in      *source.Input
	fetched map[string][]byte
	fetches int
	// refused is the first schema not read; operator the locator's own
	// error (its cache cannot be written).
	refused  *schemaRefusal
	operator error
}

// chart is ValidateAgainstSchema for c, named by prefix.
func (v *schemaValidation) chart(c Chart, values map[string]any, prefix string) error {
	var sb strings.Builder
	if c.Schema() != nil {
		if err := v.single(c, values, prefix); err != nil {
			if v.stopped() {
				return err
			}
			sb.WriteString(fmt.Sprintf("%s:\n", c.Name()))
			sb.WriteString(err.Error())
		}
	}
	for _, sub := range c.Subcharts() {
		// Coalescing made every enabled subchart's values a map.
		subValues, _ := values[sub.Name()].(map[string]any)
		subPrefix := "subchart " + sub.Name() + ": "
		if prefix != "" {
			subPrefix = strings.TrimSuffix(prefix, ": ") + "/" + sub.Name() + ": "
		}
		if err := v.chart(sub, subValues, subPrefix); err != nil {
			if v.stopped() {
				return err
			}
			sb.WriteString(err.Error())
		}
	}
	if sb.Len() > 0 {
		return errors.New(sb.String())
	}
	return nil
}

func (v *schemaValidation) stopped() bool { return v.refused != nil || v.operator != nil }

// single is ValidateAgainstSingleSchema with the chart's loaders.
func (v *schemaValidation) single(c Chart, values map[string]any, prefix string) (reterr error) {
	defer func() {
		if r := recover(); r != nil {
			reterr = fmt.Errorf("unable to validate schema: %s", r)
		}
	}()
	schema, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.Schema()))
	if err != nil {
		return err
	}
	remote := remoteSchemas{v: v, prefix: prefix}
	compiler := jsonschema.NewCompiler()
	compiler.UseLoader(jsonschema.SchemeURLLoader{
		"file":  chartSchemas{v: v, c: c, prefix: prefix},
		"http":  remote,
		"https": remote,
	})
	if err := compiler.AddResource(schemaBase, schema); err != nil {
		return err
	}
	validator, err := compiler.Compile(schemaBase)
	if err != nil {
		return err
	}
	if err := validator.Validate(asMap(values)); err != nil {
		return schemaValidationError{err}
	}
	return nil
}

// refuse records the first schema not read and is the loader's error.
func (v *schemaValidation) refuse(prefix, u, reason string) error {
	r := &schemaRefusal{chart: prefix, url: u, reason: reason}
	if v.refused == nil {
		v.refused = r
	}
	return r
}

// chartSchemas loads a file: URL from the chart's own files, by its path
// from the chart's top.
type chartSchemas struct {
	v      *schemaValidation
	c      Chart
	prefix string
}

func (l chartSchemas) Load(u string) (any, error) {
	data, ok := chartFileOf(l.c, u)
	if !ok {
		return nil, l.v.refuse(l.prefix, u, errNotChartFile)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// chartFileOf is the file of c that the file: URL u names, and whether
// there is one. The path is taken from the chart's top, so that no
// "../" leaves it; a URL naming a host is no file of it.
func chartFileOf(c Chart, u string) ([]byte, bool) {
	parsed, err := url.Parse(u)
	if err != nil || parsed.Scheme != "file" || parsed.Host != "" || parsed.Path == "" {
		return nil, false
	}
	name := strings.TrimPrefix(path.Clean("/"+parsed.Path), "/")
	if name == "" {
		return nil, false
	}
	if data, ok := c.File(name); ok {
		return data, true
	}
	if name == "values.schema.json" && c.Schema() != nil {
		return c.Schema(), true
	}
	return nil, false
}

// remoteSchemas loads an http or https URL through the chart locator.
type remoteSchemas struct {
	v      *schemaValidation
	prefix string
}

func (l remoteSchemas) Load(u string) (any, error) {
	v := l.v
	data, ok := v.fetched[u]
	if !ok {
		if v.fetches >= maxSchemaFetches {
			return nil, v.refuse(l.prefix, u, fmt.Sprintf("the chart's schemas name more than %d schemas by URL", maxSchemaFetches))
		}
		v.fetches++
		got, err := v.in.FetchSchema(v.ctx, u)
		if err != nil {
			if v.operator == nil {
				v.operator = err
			}
			return nil, err
		}
		if got.NotRendered != "" {
			return nil, v.refuse(l.prefix, u, strings.TrimPrefix(got.NotRendered, u+": "))
		}
		data = got.Data
		v.fetched[u] = data
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(data))
}

// asMap is Helm's Values.AsMap: a subchart's values left nil by
// coalescing validate as an empty map.
func asMap(values map[string]any) map[string]any {
	if len(values) == 0 {
		return map[string]any{}
	}
	return values
}

// schemaValidationError is chartutil.JSONSchemaValidationError's text.
type schemaValidationError struct{ err error }

func (e schemaValidationError) Error() string {
	s := strings.TrimPrefix(e.err.Error(), "jsonschema validation failed with '"+schemaBase+"#'\n")
	return s + "\n"
}
