package render

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
)

// recordingEngine is the second Helm engine of the suite: it records what
// a family asks of the engine, and answers a render with its own files
// (when set) instead of Helm's.
type recordingEngine struct {
	helm.Helm3
	rendered map[string]string

	mu       sync.Mutex
	calls    []string
	requests []helm.Request
	caps     []helm.Capabilities
}

var _ helm.Engine = (*recordingEngine)(nil)

func (e *recordingEngine) record(call string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.calls = append(e.calls, call)
}

func (e *recordingEngine) Ignore(data []byte) (helm.Ignorer, error) {
	e.record("Ignore")
	return e.Helm3.Ignore(data)
}

func (e *recordingEngine) LoadFiles(files []helm.File) (helm.Chart, error) {
	e.record("LoadFiles")
	return e.Helm3.LoadFiles(files)
}

func (e *recordingEngine) LoadArchive(data []byte, take func(string, []byte) error) (source.LoadedChart, error) {
	e.record("LoadArchive")
	return e.Helm3.LoadArchive(data, take)
}

func (e *recordingEngine) ReadValues(data []byte) (map[string]any, error) {
	e.record("ReadValues")
	return e.Helm3.ReadValues(data)
}

func (e *recordingEngine) Render(c helm.Chart, req helm.Request) (map[string]string, error) {
	e.record("Render")
	caps, err := req.Capabilities()
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.requests = append(e.requests, req)
	e.caps = append(e.caps, caps)
	e.mu.Unlock()
	if e.rendered != nil {
		return e.rendered, nil
	}
	return e.Helm3.Render(c, req)
}

func (e *recordingEngine) Sort(files map[string]string) ([]helm.Hook, []helm.Manifest, error) {
	e.record("Sort")
	return e.Helm3.Sort(files)
}

// TestHelmEngineIsPicked: a kustomization's helmCharts render through
// the engine Options names, never Helm's packages directly: the chart is
// loaded, its values read and its templates rendered by that engine, with
// `helm template`'s release and capabilities, and what the engine
// renders is what the family's objects are.
func TestHelmEngineIsPicked(t *testing.T) {
	inRepoRoot(t)
	t.Setenv("PATH", "")
	const plain = "internal/render/testdata/helm/kustomize/plain"
	want, err := RenderAll(context.Background(), []string{plain}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingEngine{}
	got, err := RenderAll(context.Background(), []string{plain}, Options{HelmEngine: rec})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Objects) == 0 || len(got.Objects) != len(want.Objects) {
		t.Fatalf("%d objects through the recording engine, %d through Helm 3", len(got.Objects), len(want.Objects))
	}
	for _, call := range []string{"Ignore", "LoadFiles", "ReadValues", "Render", "Sort"} {
		if !slices.Contains(rec.calls, call) {
			t.Errorf("the engine was not asked to %s: %v", call, rec.calls)
		}
	}
	if len(rec.requests) != 1 {
		t.Fatalf("%d renders, want 1", len(rec.requests))
	}
	req, caps := rec.requests[0], rec.caps[0]
	if want := (helm.ReleaseOptions{Name: "web", Namespace: "shop", Revision: 1, IsInstall: true}); req.Release != want {
		t.Errorf("release %+v, want %+v", req.Release, want)
	}
	if req.Values["replicas"] != 5 || caps.KubeVersion != nil || !caps.BuiltIn || caps.Lookup != nil {
		t.Errorf("values %v, capabilities %+v: want kustomize's values and `helm template`'s defaults", req.Values, caps)
	}

	other := &recordingEngine{rendered: map[string]string{
		"app/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-the-engine\n",
	}}
	got, err = RenderAll(context.Background(), []string{plain}, Options{HelmEngine: other})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, o := range got.Objects {
		if o.Object.GetKind() != "CustomResourceDefinition" {
			names = append(names, o.Object.GetName())
		}
	}
	if !slices.Equal(names, []string{"from-the-engine"}) {
		t.Errorf("objects %v, want the engine's own", names)
	}
}
