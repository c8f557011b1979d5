package render

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// Rendering a chart of 50 templates (a Deployment each, with helpers,
// range and tpl) as the config's helm target, the whole Render:
//
//	go test ./internal/render -short -run '^$' -bench RenderChart50 -benchmem
//
// The budget is 100 ms a render (docs/benchmarks.md).
func BenchmarkRenderChart50(b *testing.B) {
	benchChart50(b, Options{})
}

// The same render with each Helm engine, as each deployer's Helm renders
// (docs/helm.md): Helm 4 no slower than Helm 3 by more than 20%.
//
//	go test ./internal/render -short -run '^$' -bench RenderChart50Engines -benchmem -count 3
func BenchmarkRenderChart50Engines(b *testing.B) {
	for _, e := range []struct {
		name string
		helm delivery.HelmRender
	}{
		{"helm3", delivery.HelmRender{Version: delivery.Helm3}},
		{"helm4.1", delivery.HelmRender{Version: delivery.Helm41}},
		{"helm4.2", delivery.HelmRender{Version: delivery.Helm42}},
		{"helm4.2-post-rendered", delivery.HelmRender{Version: delivery.Helm42, PostRenders: true}},
		{"helm4.3", delivery.HelmRender{Version: delivery.Helm4Newest}},
		{"helm4.3-post-rendered", delivery.HelmRender{Version: delivery.Helm4Newest, PostRenders: true}},
	} {
		b.Run(e.name, func(b *testing.B) { benchChart50(b, Options{HelmEngine: HelmEngineFor(e.helm)}) })
	}
}

// benchChart50 renders the chart of 50 templates with opts.
func benchChart50(b *testing.B, opts Options) {
	dir := b.TempDir()
	chart := filepath.Join(dir, "chart")
	writeFile(b, filepath.Join(chart, "Chart.yaml"), "apiVersion: v2\nname: bench\nversion: 1.0.0\n")
	writeFile(b, filepath.Join(chart, "values.yaml"), "image: example.com/app:1\nports: [8080, 8081, 8082]\nenv:\n  MODE: bench\n  LEVEL: info\ngreeting: \"hello {{ .Release.Name }}\"\n")
	writeFile(b, filepath.Join(chart, "templates", "_helpers.tpl"), `{{- define "bench.labels" -}}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.Version | quote }}
{{- end -}}
`)
	for i := range 50 {
		writeFile(b, filepath.Join(chart, "templates", fmt.Sprintf("app-%02d.yaml", i)), fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}-app-%02d
  labels:
    {{- include "bench.labels" . | nindent 4 }}
spec:
  replicas: 2
  selector:
    matchLabels:
      app: app-%02d
  template:
    metadata:
      labels:
        app: app-%02d
    spec:
      containers:
        - name: app
          image: {{ .Values.image }}
          env:
            {{- range $k, $v := .Values.env }}
            - name: {{ $k }}
              value: {{ $v | quote }}
            {{- end }}
            - name: GREETING
              value: {{ tpl .Values.greeting . | quote }}
          ports:
            {{- range .Values.ports }}
            - containerPort: {{ . }}
            {{- end }}
`, i, i, i))
	}
	b.Chdir(dir)
	opts.Deployer = &delivery.Deployer{Controller: delivery.ControllerHelm, File: ".ownership-check.yaml", Object: map[string]any{"chart": "chart", "release": "bench", "namespace": "bench"}}
	objs, err := Render(context.Background(), []string{"chart"}, opts)
	if err != nil {
		b.Fatal(err)
	}
	if len(objs) != 50 {
		b.Fatalf("rendered %d objects, want 50", len(objs))
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	for range b.N {
		if _, err := Render(context.Background(), []string{"chart"}, opts); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, processCPU()-start)
}
