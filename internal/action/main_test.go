package action

import (
	"os"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// cluster is the real API server of the action's end-to-end tests; nil in
// -short mode, where those tests skip.
var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }
