package predict

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestPredictOverallDeadline(t *testing.T) {
	testcluster.Require(t, cluster)
	cfg := cluster.Config()
	// An API server that answers discovery and reads but never a PATCH.
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodPatch {
				<-r.Context().Done()
				return nil, r.Context().Err()
			}
			return rt.RoundTrip(r)
		})
	}
	e, _ := engine(t, cfg, ClusterOptions{Deadline: time.Second})
	r := predict(t, e, obj(t, `{apiVersion: v1, kind: ConfigMap, metadata: {name: c, namespace: default}}`))[0]
	if r.Err == nil || r.Err.Reason != ReasonTimeout || !strings.Contains(r.Err.Message, "not answered within the overall deadline of 1s") {
		t.Fatalf("err %+v; want a Timeout naming the deadline", r.Err)
	}
	t.Log(r.Err)
}
