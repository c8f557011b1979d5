package cli

import (
	"os"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// cluster is the real API server of the end-to-end tests of the gitlab
// command; nil in -short mode, where those tests skip.
var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }
