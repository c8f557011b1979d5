package render

import (
	"bytes"
	"context"
	"encoding/base32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
)

// standInChart reads Secret shop/app-db with lookup (fakeChartCluster's
// hunter2), puts a transform of the password into one ConfigMap's name
// and into another's data, and leaves a third alone.
var standInChart = map[string]string{
	"chart/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
	"chart/templates/cms.yaml": `{{- $s := lookup "v1" "Secret" "shop" "app-db" }}
{{- $pw := $s.data.password | b64dec }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: x-{{ $pw | b32enc | lower | trimSuffix "=" | trunc 40 }}
data:
  a: b
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: derived
  annotations:
    checksum: {{ $pw | sha256sum }}
data:
  upper: {{ $pw | upper }}
  plain: {{ $pw }}
  fixed: "1"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: plain
data:
  mode: fast
`,
}

// TestRenderStandsInForSecrets: with StandInSecrets the chart sees
// placeholders only: no output holds hunter2 in any form; the object whose
// name is made from it is not rendered, naming the Secret's key; the
// fields made from it are marked, and only those.
func TestRenderStandsInForSecrets(t *testing.T) {
	dir := t.TempDir()
	for name, text := range standInChart {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	d := &delivery.Deployer{Controller: delivery.ControllerHelm, File: ".ownership-check.yaml", Object: map[string]any{"chart": "chart", "release": "app", "namespace": "shop"}}
	opts := Options{Deployer: d, ChartCluster: fakeChartCluster{}, StandInSecrets: true}
	r, err := RenderAll(context.Background(), []string{"chart"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, o := range r.Objects {
		buf.WriteString(o.ID.String() + "\n")
	}
	if err := Encode(&buf, r.Objects); err != nil {
		t.Fatal(err)
	}
	for _, n := range r.NotRendered {
		buf.WriteString(n.String() + "\n")
	}
	out := strings.ToLower(buf.String())
	b32 := strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte("hunter2")), "="))
	for _, form := range []string{"hunter2", b32, "aHVudGVyMg==", "f52fbd32b2b3b86ff88ef6c490628285f482af15ddcb29541f94bcf526a3f6c7"} {
		if strings.Contains(out, strings.ToLower(form)) {
			t.Errorf("the render shows the Secret's value as %q:\n%s", form, buf.String())
		}
	}
	if len(r.NotRendered) != 1 || !strings.Contains(r.NotRendered[0].Reason, "Secret shop/app-db key password") || !strings.Contains(r.NotRendered[0].Reason, "a ConfigMap whose name") {
		t.Errorf("not rendered: %v", r.NotRendered)
	}
	got := map[string][]string{}
	for _, o := range r.Objects {
		for _, f := range o.FromSecret {
			if model.SecretKeys(f.Keys) != "Secret shop/app-db key password" {
				t.Errorf("%s %s: keys %v", o.ID, f.Path, f.Keys)
			}
			got[o.ID.Name] = append(got[o.ID.Name], f.Path.String())
		}
	}
	want := ".data.plain .data.upper .metadata.annotations.checksum"
	if len(got) != 1 || strings.Join(got["derived"], " ") != want {
		t.Errorf("fields from the Secret: %v, want derived: %s", got, want)
	}

	// Without stand-ins (snapshot, after the deploy) the chart reads the
	// value, and both ConfigMaps render.
	opts.StandInSecrets = false
	r, err = RenderAll(context.Background(), []string{"chart"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Objects) != 3 || len(r.NotRendered) != 0 {
		t.Errorf("without stand-ins: %d objects, not rendered %v", len(r.Objects), r.NotRendered)
	}
}
