package predict

import (
	"strings"
	"testing"
	"time"
)

// TestEnvLimits: the overrides read once apply as the engine reads them
// (0 retries is none), and one that does not read is the error of every
// check that talks to a cluster.
func TestEnvLimits(t *testing.T) {
	t.Setenv(envRequestTimeout, "2s")
	t.Setenv(envDeadline, "")
	t.Setenv(envMaxRetries, "0")
	o, err := EnvLimits().Apply(ClusterOptions{Deadline: time.Minute})
	if err != nil || o.RequestTimeout != 2*time.Second || o.Deadline != time.Minute || o.MaxRetries != -1 {
		t.Errorf("got %+v, %v", o, err)
	}
	t.Setenv(envDeadline, "soon")
	if _, err := EnvLimits().Apply(ClusterOptions{}); err == nil || !strings.Contains(err.Error(), envDeadline) {
		t.Errorf("a deadline that does not read: %v", err)
	}
}
