package predict

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/model"
)

// The reads ReadAllAs starts run in the caller's group: cancelling the
// context and waiting for the group ends them, even on a server that
// never answers them, and the analysis then gets the cancellation.
func TestReadAllAsReadsEndWithTheirGroup(t *testing.T) {
	released := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api":
			w.Write([]byte(`{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}`))
		case "/apis":
			w.Write([]byte(`{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`))
		case "/api/v1":
			w.Write([]byte(`{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["get"]}]}`))
		default:
			// The object's read hangs.
			select {
			case <-r.Context().Done():
			case <-released:
			}
		}
	}))
	t.Cleanup(func() { close(released); srv.Close() })
	transport := &http.Transport{}
	e, kc := engine(t, &rest.Config{Host: srv.URL, Timeout: time.Minute, Transport: transport}, ClusterOptions{})
	if _, err := kc.Discover(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Recorded in a version the deploy no longer sends: it is read in v1.
	o := obj(t, `{apiVersion: v0, kind: ConfigMap, metadata: {name: c, namespace: default}}`)
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	var g errgroup.Group
	readAs := e.ReadAllAs(ctx, &g, []model.Object{o}, func(model.Object) string { return "v1" })
	time.Sleep(50 * time.Millisecond)
	cancel()
	waited := make(chan struct{})
	go func() { g.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(5 * time.Second):
		t.Fatal("the group still waits for a read after its context was cancelled")
	}
	if _, err := readAs(o, "v1"); err == nil {
		t.Fatal("a cancelled read gave an object")
	}
	var now int
	for range 100 {
		transport.CloseIdleConnections()
		if now = runtime.NumGoroutine(); now <= before {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%d goroutines before ReadAllAs, %d after its group was waited for", before, now)
}
