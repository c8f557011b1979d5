package kube

import (
	"context"
	"net/http"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// legacyDiscovery serves one kind, ConfigMap, as a server without
// aggregated discovery does.
func legacyDiscovery(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/api":
		_, _ = w.Write([]byte(`{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[]}`))
	case "/apis":
		_, _ = w.Write([]byte(`{"kind":"APIGroupList","apiVersion":"v1","groups":[]}`))
	case "/api/v1":
		_, _ = w.Write([]byte(`{"kind":"APIResourceList","groupVersion":"v1","resources":[{"name":"configmaps","singularName":"configmap","namespaced":true,"kind":"ConfigMap","verbs":["get","list"]}]}`))
	default:
		http.NotFound(w, r)
	}
}

var configMap = schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}

// The answer Discover waited for is the one the REST mapper answers from:
// discovery is read once per run.
func TestDiscoverFillsTheMappersCacheOnce(t *testing.T) {
	var requests atomic.Int32
	c := hangingServer(t, func(*http.Request) bool { return false }, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		legacyDiscovery(w, r)
	})
	ctx := context.Background()
	failed, err := c.Discover(ctx)
	if err != nil || len(failed) != 0 {
		t.Fatalf("Discover: %v, failed groups %v", err, failed)
	}
	read := requests.Load()
	if _, err := c.Discover(ctx); err != nil {
		t.Fatal(err)
	}
	if err := c.Reach(ctx); err != nil {
		t.Fatal(err)
	}
	// A caller whose context has ended asks nothing and drops nothing.
	done, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := c.Discover(done); err == nil {
		t.Fatal("Discover with an ended context: no error")
	}
	namespaced, err := c.IsNamespaced(configMap)
	if err != nil || !namespaced {
		t.Fatalf("IsNamespaced(ConfigMap) = %v, %v", namespaced, err)
	}
	if n := requests.Load(); n != read {
		t.Fatalf("%d requests after discovery was read (%d for it): the cache was not filled", n-read, read)
	}
}

// A caller that gives up cancels the discovery in flight; another caller,
// whose context is live, still gets the answer, and neither leaves
// anything running.
func TestDiscoverOneCallerGivingUpLeavesTheOtherItsAnswer(t *testing.T) {
	first := make(chan struct{})
	var once sync.Once
	c := hangingServer(t, func(r *http.Request) bool {
		hang := false
		once.Do(func() { hang = true; close(first) })
		return hang
	}, legacyDiscovery)
	before := runtime.NumGoroutine()
	short, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	var shortErr, longErr error
	wg.Add(2)
	go func() {
		defer wg.Done()
		_, shortErr = c.Discover(short)
	}()
	<-first
	go func() {
		defer wg.Done()
		long, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_, longErr = c.Discover(long)
	}()
	wg.Wait()
	if shortErr == nil {
		t.Error("the caller whose deadline passed got an answer from a server that hung")
	}
	if longErr != nil {
		t.Errorf("the caller with a live context: %v", longErr)
	}
	if _, err := c.Mapping(configMap); err != nil {
		t.Errorf("Mapping after discovery: %v", err)
	}
	noGoroutineLeft(t, c, before)
}

// The list of OpenAPI documents is read once per client, whichever call's
// context reads it; a document is read at each ask, its bytes not kept
// (typing keeps what it parsed).
func TestOpenAPIV3PathsReadOncePerClient(t *testing.T) {
	var requests atomic.Int32
	c := hangingServer(t, func(*http.Request) bool { return false }, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		openAPIPaths(w, r)
	})
	for range 2 {
		ctx, cancel := context.WithCancel(context.Background())
		if err := readDocument(c.OpenAPIV3(ctx), "api/v1"); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
	if n := requests.Load(); n != 3 {
		t.Fatalf("%d requests for the paths and one document, twice; want 3: the paths once, the document twice", n)
	}
	c.ResetDiscovery()
	if err := readDocument(c.OpenAPIV3(context.Background()), "api/v1"); err != nil {
		t.Fatal(err)
	}
	if n := requests.Load(); n != 5 {
		t.Fatalf("%d requests after ResetDiscovery; want 5: the paths are read again", n)
	}
}
