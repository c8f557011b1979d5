package predict

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// TestWarningsGoToTheirOwnRequest: many dry-runs in flight on one client
// each collect the warnings of their own answers only, each once, and a
// request without a collector drops them. The fake server names the
// object in its warning; the real one's warnings are tested in check.
func TestWarningsGoToTheirOwnRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := path.Base(r.URL.Path)
		w.Header().Add("Warning", fmt.Sprintf(`299 - "about %s"`, name))
		w.Header().Add("Warning", fmt.Sprintf(`299 - "about %s"`, name))
		w.Header().Add("Warning", `199 - "not the server's"`)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"default"}}`, name)
	}))
	t.Cleanup(srv.Close)
	dyn, err := newDynamic(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	ri := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	apply := func(ctx context.Context, name string) error {
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name, "namespace": "default"}}}
		_, err := ri.Apply(ctx, name, obj, metav1.ApplyOptions{FieldManager: "deployer", Force: true, DryRun: []string{metav1.DryRunAll}})
		return err
	}

	const n = 32
	got := make([][]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &warnings{}
			ctx := collectWarnings(context.Background(), w)
			// Twice, as a retried dry-run is: the same warning stays one.
			for range 2 {
				if err := apply(ctx, fmt.Sprintf("cm-%d", i)); err != nil {
					t.Error(err)
				}
			}
			got[i] = w.texts()
		}()
	}
	wg.Wait()
	for i, ws := range got {
		if want := fmt.Sprintf("about cm-%d", i); len(ws) != 1 || ws[0] != want {
			t.Errorf("cm-%d: warnings %q, want [%q]", i, ws, want)
		}
	}
	if err := apply(context.Background(), "uncollected"); err != nil {
		t.Errorf("a request without a collector: %v", err)
	}
}
