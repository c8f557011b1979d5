package predict

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// fakeAPI answers the dry-run PATCH of ConfigMap default/x with the given
// answers in turn, then with success. It stands in for the API server only
// to test our retry loop; what the API server does is tested against the
// real one.
type fakeAPI struct {
	answers  []func(w http.ResponseWriter)
	requests atomic.Int32
}

func (f *fakeAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	n := int(f.requests.Add(1))
	if n <= len(f.answers) {
		f.answers[n-1](w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write([]byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"x","namespace":"default"}}`))
}

func status(code int, headers map[string]string, body string) func(w http.ResponseWriter) {
	return func(w http.ResponseWriter) {
		for k, v := range headers {
			w.Header().Set(k, v)
		}
		if body != "" && body[0] == '{' {
			w.Header().Set("Content-Type", "application/json")
		} else {
			w.Header().Set("Content-Type", "text/plain")
		}
		w.WriteHeader(code)
		w.Write([]byte(body))
	}
}

// applyThroughFake runs one retried dry-run apply against the fake, as the
// engine does, and returns the attempts, the waits and the error.
func applyThroughFake(t *testing.T, maxRetries int, answers ...func(w http.ResponseWriter)) (*fakeAPI, int, []time.Duration, error) {
	t.Helper()
	api := &fakeAPI{answers: answers}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	dyn, err := newDynamic(&rest.Config{Host: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	r, rec := testRetrier(maxRetries)
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "x", "namespace": "default"},
	}}
	ri := dyn.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("default")
	attempts, err := r.do(context.Background(), func(ctx context.Context) error {
		_, err := ri.Apply(ctx, "x", obj, metav1.ApplyOptions{FieldManager: "deployer", Force: true, DryRun: []string{metav1.DryRunAll}})
		return err
	})
	return api, attempts, rec.waits, err
}

func TestRetryAfterFromPriorityAndFairness(t *testing.T) {
	// API Priority and Fairness rejects with a plain-text 429 and the header.
	api, attempts, waits, err := applyThroughFake(t, 5,
		status(429, map[string]string{"Retry-After": "1"}, "Too many requests, please try again later.\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Two requests in all: client-go's own Retry-After loop is off, so the
	// retrier's wait is the only one.
	if got := api.requests.Load(); got != 2 || attempts != 2 {
		t.Fatalf("%d requests, %d attempts; want 2 and 2", got, attempts)
	}
	if len(waits) != 1 || waits[0] < time.Second {
		t.Errorf("waits %v; want one of at least the server's 1s", waits)
	}
}

func TestRetryAfterFromStatus(t *testing.T) {
	body := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"too many requests","reason":"TooManyRequests","details":{"retryAfterSeconds":2},"code":429}`
	api, _, waits, err := applyThroughFake(t, 5, status(429, map[string]string{"Retry-After": "2"}, body))
	if err != nil {
		t.Fatal(err)
	}
	if got := api.requests.Load(); got != 2 {
		t.Fatalf("%d requests; want 2", got)
	}
	if len(waits) != 1 || waits[0] < 2*time.Second {
		t.Errorf("waits %v; want one of at least 2s", waits)
	}
}

func TestRetriesDoNotMultiply(t *testing.T) {
	// A 503 with Retry-After: client-go alone would try 11 times.
	unavailable := status(503, map[string]string{"Retry-After": "1"}, "unavailable")
	api, attempts, _, err := applyThroughFake(t, 2, unavailable, unavailable, unavailable, unavailable)
	if err == nil {
		t.Fatal("no error; want the 503")
	}
	if got := api.requests.Load(); got != 3 || attempts != 3 {
		t.Fatalf("%d requests, %d attempts; want 3 (1 + MaxRetries 2)", got, attempts)
	}
	e := newDryRunError(model.ID{Kind: "ConfigMap", Namespace: "default", Name: "x"}, OpDryRun, err, attempts)
	if e.Code != 503 || e.Reason != "ServiceUnavailable" {
		t.Errorf("code %d reason %q; want 503 ServiceUnavailable", e.Code, e.Reason)
	}
	want := "ConfigMap/default/x: dry-run failed: " + e.Message + " (gave up after 3 attempts)"
	if e.Error() != want {
		t.Errorf("Error() = %q; want %q", e.Error(), want)
	}
}

func TestFieldNotDeclaredInSchemaIsPermanent(t *testing.T) {
	body := `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"failed to create typed patch object (/v1, Kind=ConfigMap): .spec: field not declared in schema","reason":"InternalError","code":500}`
	api, attempts, _, err := applyThroughFake(t, 5, status(500, nil, body))
	if err == nil {
		t.Fatal("no error")
	}
	if got := api.requests.Load(); got != 1 || attempts != 1 {
		t.Fatalf("%d requests; want 1: the error is the config's", got)
	}
	e := newDryRunError(model.ID{Kind: "ConfigMap", Namespace: "default", Name: "x"}, OpDryRun, err, attempts)
	if e.Reason != "Invalid" || e.Code != 500 {
		t.Errorf("reason %q code %d; want Invalid 500", e.Reason, e.Code)
	}
}
