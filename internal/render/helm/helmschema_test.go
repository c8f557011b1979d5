package helm

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	chartloader "helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// schemaChart writes a chart (path → content) in a new directory, makes
// it the working directory and returns it, resolved.
func schemaChart(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files["Chart.yaml"] = "apiVersion: v2\nname: c\nversion: 1.0.0\n"
	files["templates/cm.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"
	for name, data := range files {
		writeFile(t, filepath.Join(dir, name), data)
	}
	t.Chdir(dir)
	return realPath(t, ".")
}

// schemaDocs is a chart locator that serves schemas by URL, as the
// fetching one would, and records what it is asked.
type schemaDocs struct {
	source.RepositoryCharts
	docs  map[string]string
	asked []string
}

func (s *schemaDocs) FetchSchema(_ context.Context, url string) (delivery.FetchedSchema, error) {
	s.asked = append(s.asked, url)
	if d, ok := s.docs[url]; ok {
		return delivery.FetchedSchema{Data: []byte(d)}, nil
	}
	return delivery.FetchedSchema{NotRendered: url + ": refused by the test's locator"}, nil
}

// renderSchemaChart renders the chart in dir with values, through charts
// (nil: the default locator).
func renderSchemaChart(t *testing.T, dir string, charts delivery.ChartLocator, values map[string]any) (source.Output, error) {
	t.Helper()
	in := chartInput(t, nil, nil, ".")
	in.Charts = charts
	return RenderChart(context.Background(), in, Release{Chart: source.Chart{Dir: dir}, Name: "c", Namespace: "x", Values: values, Source: "cfg"})
}

// refusedReason is the one reason the chart in dir is not rendered
// for, without values, or fails the test.
func refusedReason(t *testing.T, dir string, charts delivery.ChartLocator) string {
	t.Helper()
	out, err := renderSchemaChart(t, dir, charts, nil)
	if err != nil || len(out.NotRendered) != 1 || len(out.Objects) != 0 {
		t.Fatalf("want the release not rendered, got %d objects, %v, error %v", len(out.Objects), out.NotRendered, err)
	}
	return out.NotRendered[0].Reason
}

const (
	replicasSchema = `{"type": "object", "properties": {"replicas": {"type": "integer"}}}`
	portSchema     = `{"type": "object", "required": ["port"], "properties": {"port": {"type": "integer"}}}`
)

// TestValuesSchemaIsHelms: values that break the chart's schema and a
// subchart's fail with the words Helm's own validation gives; a draft's
// meta-schema named by $schema needs no fetch.
func TestValuesSchemaIsHelms(t *testing.T) {
	dir := schemaChart(t, map[string]string{
		// A draft's meta-schema is the library's own: nothing fetched.
		"values.schema.json":            `{"$schema": "http://json-schema.org/draft-07/schema#", "allOf": [` + replicasSchema + `]}`,
		"charts/db/Chart.yaml":          "apiVersion: v2\nname: db\nversion: 0.1.0\n",
		"charts/db/values.schema.json":  portSchema,
		"charts/db/templates/none.yaml": "",
	})
	values := map[string]any{"replicas": "three", "db": map[string]any{"port": "x"}}
	_, err := renderSchemaChart(t, dir, nil, values)

	c, lerr := chartloader.LoadDir(dir)
	if lerr != nil {
		t.Fatal(lerr)
	}
	vals := chartutil.Values{"replicas": "three", "db": map[string]any{"port": "x"}}
	if err := chartutil.ProcessDependenciesWithMerge(c, vals); err != nil {
		t.Fatal(err)
	}
	_, helmErr := chartutil.ToRenderValues(c, vals, chartutil.ReleaseOptions{Name: "c", Namespace: "x"}, nil)
	if helmErr == nil || !strings.Contains(helmErr.Error(), "db:") {
		t.Fatalf("Helm's validation: %v", helmErr)
	}
	if err == nil || !strings.HasSuffix(err.Error(), ": "+helmErr.Error()) {
		t.Errorf("error\n%v\nwant it to end with Helm's\n%v", err, helmErr)
	}

	if out, err := renderSchemaChart(t, dir, nil, map[string]any{"replicas": 3, "db": map[string]any{"port": 5432}}); err != nil || len(out.Objects) != 1 {
		t.Errorf("valid values: %d objects, %v", len(out.Objects), err)
	}
}

// TestValuesSchemaRefsStayInTheChart: a file: $ref reads the chart's own
// file; one outside the chart, by an absolute URL or by "../", is not
// read, and the release is not rendered with one reason, byte for byte
// the same whether the path exists on the runner or not, which never
// shows what is there.
func TestValuesSchemaRefsStayInTheChart(t *testing.T) {
	const canary = "schema-canary-93b1"
	outside := filepath.Join(t.TempDir(), "outside.json")

	local := schemaChart(t, map[string]string{
		"values.schema.json":    `{"$ref": "defs/replicas.json"}`,
		"defs/replicas.json":    replicasSchema,
		"charts/db/Chart.yaml":  "apiVersion: v2\nname: db\nversion: 0.1.0\n",
		"charts/db/schema.json": portSchema,
		// A subchart's relative $ref is from its own top.
		"charts/db/values.schema.json": `{"$ref": "schema.json"}`,
	})
	if out, err := renderSchemaChart(t, local, nil, map[string]any{"replicas": 2, "db": map[string]any{"port": 1}}); err != nil || len(out.Objects) != 1 {
		t.Fatalf("a chart-local $ref: %d objects, %v, %v", len(out.Objects), out.NotRendered, err)
	}
	if _, err := renderSchemaChart(t, local, nil, map[string]any{"replicas": "two", "db": map[string]any{"port": 1}}); err == nil || !strings.Contains(err.Error(), "replicas") {
		t.Errorf("a chart-local $ref's schema is not applied: %v", err)
	}

	for _, ref := range []string{"file://" + outside, strings.Repeat("../", 12) + strings.TrimPrefix(outside, "/")} {
		dir := schemaChart(t, map[string]string{"values.schema.json": `{"$ref": "` + ref + `"}`})
		if err := os.WriteFile(outside, []byte(`{"type": "object", "required": ["`+canary+`"]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		exists := refusedReason(t, dir, nil)
		if err := os.Remove(outside); err != nil {
			t.Fatal(err)
		}
		missing := refusedReason(t, dir, nil)
		if exists != missing {
			t.Errorf("$ref %s: the reason differs whether the file exists:\n%s\n%s", ref, exists, missing)
		}
		want := "chart .: values.schema.json: $ref file://" + outside + " is not read: not a file of the chart"
		if !strings.Contains(exists, want) || strings.Contains(exists, canary) {
			t.Errorf("$ref %s: reason %q, want %q and nothing of the file", ref, exists, want)
		}
	}

	sub := schemaChart(t, map[string]string{
		"charts/db/Chart.yaml":         "apiVersion: v2\nname: db\nversion: 0.1.0\n",
		"charts/db/values.schema.json": `{"$ref": "file:///etc/hostname"}`,
	})
	if reason := refusedReason(t, sub, nil); !strings.Contains(reason, "subchart db: values.schema.json: $ref file:///etc/hostname is not read") {
		t.Errorf("a subchart's refused $ref: %q", reason)
	}
}

// TestValuesSchemaRemoteRefs: an http or https $ref (and a relative one
// below it) is asked of the chart locator, never fetched by Helm's
// client; one it refuses leaves the release not rendered, naming the
// chart, the $ref and the locator's reason; the default locator fetches
// none.
func TestValuesSchemaRemoteRefs(t *testing.T) {
	const base = "https://raw.githubusercontent.com/bjw-s/helm-charts/common-3.7.3/charts/library/common/"
	dir := schemaChart(t, map[string]string{"values.schema.json": `{"$ref": "` + base + `values.schema.json"}`})
	charts := &schemaDocs{docs: map[string]string{
		base + "values.schema.json":    `{"$ref": "schemas/replicas.json"}`,
		base + "schemas/replicas.json": replicasSchema,
	}}
	if out, err := renderSchemaChart(t, dir, charts, map[string]any{"replicas": 2}); err != nil || len(out.Objects) != 1 {
		t.Fatalf("fetched $refs: %d objects, %v, %v", len(out.Objects), out.NotRendered, err)
	}
	if len(charts.asked) != 2 {
		t.Errorf("the locator was asked %v", charts.asked)
	}
	if _, err := renderSchemaChart(t, dir, charts, map[string]any{"replicas": "two"}); err == nil || !strings.Contains(err.Error(), "replicas") {
		t.Errorf("a fetched schema is not applied: %v", err)
	}

	refused := &schemaDocs{docs: map[string]string{base + "values.schema.json": `{"$ref": "schemas/replicas.json"}`}}
	reason := refusedReason(t, dir, refused)
	if want := "chart .: values.schema.json: $ref " + base + "schemas/replicas.json is not read: refused by the test's locator"; !strings.Contains(reason, want) {
		t.Errorf("reason %q, want %q", reason, want)
	}

	reason = refusedReason(t, dir, nil)
	if !strings.Contains(reason, base+"values.schema.json is not read") || !strings.Contains(reason, "needs charts to be fetched") {
		t.Errorf("the default locator: %q", reason)
	}
}
