package reliability_test

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/chartserver"
)

// schemaCanary is in the file outside the repository that a schema
// names: no output may show it.
const schemaCanary = "schema-canary-7c2e"

// schemaTree is a repository whose helm target's chart has a
// values.schema.json that $refs ref, with the trusted config's charts
// section (YAML under "charts:", "" for none).
func schemaTree(t *testing.T, ref, charts string) string {
	t.Helper()
	files := map[string]string{}
	for k, v := range chart {
		files[k] = v
	}
	files["chart/values.schema.json"] = `{"$ref": "` + ref + `"}`
	if charts != "" {
		files[".ownership-check.yaml"] = helmTarget + "charts:\n" + charts
	}
	root := writeTree(t, files)
	t.Chdir(root)
	return root
}

// loopbackListener counts the connections offered to it: an address the
// rules refuse must get none.
func loopbackListener(t *testing.T) (addr string, accepted *atomic.Int32) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted = &atomic.Int32{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			_ = c.Close()
		}
	}()
	t.Cleanup(func() { _ = l.Close(); <-done })
	return l.Addr().String(), accepted
}

// notChecked runs render --target web and wants it not checked (exit 2)
// with a reason naming the chart's schema, the $ref and every one of
// words.
func notChecked(t *testing.T, cache, ref string, words ...string) result {
	t.Helper()
	r := run(t, "render", "--target", "web", "--chart-cache", cache)
	if r.code != 2 || r.stdout != "" {
		t.Fatalf("want exit 2 and nothing rendered, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	t.Logf("%s", r.stderr)
	for _, w := range append([]string{"chart chart: values.schema.json: $ref " + ref + " is not read"}, words...) {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("the reason does not say %q:\n%s", w, r.stderr)
		}
	}
	return r
}

// TestSchemaRefOutsideTheChart: a values.schema.json $ref to a file of
// the runner outside the chart is not read: the target is not checked,
// with the same output byte for byte whether the file exists or not, and
// nothing of the file in it.
func TestSchemaRefOutsideTheChart(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "outside.json")
	for name, ref := range map[string]string{"absolute": "file://" + outside, "relative": strings.Repeat("../", 16) + strings.TrimPrefix(outside, "/")} {
		t.Run(name, func(t *testing.T) {
			cache := t.TempDir()
			schemaTree(t, ref, "")
			if err := os.WriteFile(outside, []byte(`{"type": "object", "required": ["`+schemaCanary+`"]}`), 0o644); err != nil {
				t.Fatal(err)
			}
			exists := notChecked(t, cache, "file://"+outside, "not a file of the chart")
			if err := os.Remove(outside); err != nil {
				t.Fatal(err)
			}
			missing := notChecked(t, cache, "file://"+outside, "not a file of the chart")
			if exists.stdout+exists.stderr != missing.stdout+missing.stderr {
				t.Errorf("the output differs whether the file exists:\n%s\n%s", exists.stderr, missing.stderr)
			}
			if strings.Contains(exists.stdout+exists.stderr, schemaCanary) {
				t.Errorf("content from outside the repository is in the output:\n%s", exists.stderr)
			}
		})
	}
}

// TestSchemaRefAddresses: a $ref is fetched only through the chart
// fetcher, within its address rules: a loopback address is refused and
// its listener receives nothing; a private one is refused before it is
// dialled; a mirror the trusted config names (so a loopback address it
// may be) that redirects to another loopback port is refused there too.
func TestSchemaRefAddresses(t *testing.T) {
	addr, accepted := loopbackListener(t)
	mirror := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	mirror.Redirect("/schema.json", "http://"+addr+"/x")
	mirrors := "  mirrors:\n    schemas.example: " + mirror.URL() + "\n"
	for _, tc := range []struct {
		name, ref, charts string
		words             []string
	}{
		{"loopback", "http://" + addr + "/x", "", []string{"resolves to 127.0.0.1"}},
		{"private", "https://10.0.0.1/schema.json", "", []string{"resolves to 10.0.0.1"}},
		{"mirror redirects to loopback", "https://schemas.example/schema.json", mirrors, []string{addr + " resolves to 127.0.0.1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			schemaTree(t, tc.ref, tc.charts)
			notChecked(t, t.TempDir(), tc.ref, tc.words...)
		})
	}
	if mirror.Count("/schema.json") == 0 {
		t.Error("the mirror was not asked")
	}
	if n := accepted.Load(); n != 0 {
		t.Errorf("the loopback listener got %d connections", n)
	}
}

// TestSchemaRefThroughMirror: a chart whose schema $refs the common
// library's on raw.githubusercontent.com (as app-template 3.x does), and
// that schema a file beside it, renders from the trusted config's mirror;
// its values are validated against it; a second run revalidates the
// cached copies (304, nothing downloaded) and an --offline run reads them
// from the cache alone.
func TestSchemaRefThroughMirror(t *testing.T) {
	const dir = "/bjw-s/helm-charts/common-3.7.3/charts/library/common/"
	mirror := chartserver.NewHTTPRepo(t, chartserver.HTTPOptions{})
	mirror.Serve(dir+"values.schema.json", []byte(`{"type": "object", "properties": {"v": {"$ref": "schemas/v.json"}}}`))
	mirror.Serve(dir+"schemas/v.json", []byte(`{"type": "string", "enum": ["prod", "dev"]}`))
	ref := "https://raw.githubusercontent.com" + dir + "values.schema.json"
	root := schemaTree(t, ref, "  mirrors:\n    raw.githubusercontent.com: "+mirror.URL()+"\n")
	cache := t.TempDir()

	rendered := func(args ...string) {
		t.Helper()
		r := run(t, append([]string{"render", "--target", "web", "--chart-cache", cache}, args...)...)
		if r.code != 0 || !strings.Contains(r.stdout, "v: prod") {
			t.Fatalf("want the chart rendered, got %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
		}
	}
	rendered()
	for _, p := range []string{"values.schema.json", "schemas/v.json"} {
		if n := mirror.Count(dir + p); n != 1 {
			t.Errorf("%s: %d requests in the first run, want 1", p, n)
		}
	}
	rendered()
	for _, p := range []string{"values.schema.json", "schemas/v.json"} {
		if n := mirror.NotModified(dir + p); n != 1 {
			t.Errorf("%s: %d answers 304 in the second run, want 1: the cached copy revalidated", p, n)
		}
	}
	mirror.FailNext(-1, 500, "")
	seen := mirror.Counts()
	rendered("--offline")
	if got := mirror.Counts(); len(got) != len(seen) || got[dir+"values.schema.json"] != seen[dir+"values.schema.json"] || got[dir+"schemas/v.json"] != seen[dir+"schemas/v.json"] {
		t.Errorf("--offline reached the mirror: %v, before %v", got, seen)
	}

	// The fetched schema holds: a value it does not allow fails as Helm's
	// validation fails.
	if err := os.WriteFile(filepath.Join(root, "values/prod.yaml"), []byte("v: stage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run(t, "render", "--target", "web", "--chart-cache", cache, "--offline")
	if r.code != 2 || !strings.Contains(r.stderr, "values don't meet the specifications of the schema(s)") || !strings.Contains(r.stderr, "/v") {
		t.Errorf("want exit 2 with Helm's validation error, got %d:\n%s", r.code, r.stderr)
	}
}
