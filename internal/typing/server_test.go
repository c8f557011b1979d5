package typing_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// An API server that accepts connections and never answers OpenAPI v3
// holds the cluster's cache no longer than the run's deadline, and the
// read leaves nothing running once Document returned.
func TestServerDocumentHungServerReturnsByDeadlineAndLeavesNothing(t *testing.T) {
	released := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-released:
		}
	}))
	t.Cleanup(func() { close(released); srv.Close() })
	transport := &http.Transport{}
	// client-go's own timeout stays far past the deadline: only the run's
	// context can end the read in time.
	c, err := kube.New(&rest.Config{Host: srv.URL, Timeout: time.Minute, Transport: transport}, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	const deadline = 200 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	start := time.Now()
	_, err = typing.ForCluster(ctx, c.OpenAPIV3(ctx), c).Document(schema.GroupVersion{Version: "v1"})
	if took := time.Since(start); took > deadline+2*time.Second {
		t.Fatalf("Document returned after %s, deadline %s", took, deadline)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the deadline's", err)
	}
	var now int
	for range 100 {
		transport.CloseIdleConnections()
		if now = runtime.NumGoroutine(); now <= before {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	buf := make([]byte, 1<<20)
	t.Fatalf("%d goroutines before Document, %d after it returned:\n%s", before, now, buf[:runtime.Stack(buf, true)])
}
