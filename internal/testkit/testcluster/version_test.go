package testcluster_test

import (
	"os"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The second run of the e2e packages is only worth something if it really
// talks to the release OWNERSHIP_CHECK_KUBE_VERSION names.
func TestServerIsTheRequestedVersion(t *testing.T) {
	testcluster.Require(t, cluster)
	want := os.Getenv("OWNERSHIP_CHECK_KUBE_VERSION")
	if want == "" {
		want = "1.33"
	}
	v, err := clientset(t).Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Major + "." + v.Minor; got != want {
		t.Errorf("server is %s (%s), want %s", got, v.GitVersion, want)
	}
}
