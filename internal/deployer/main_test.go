package deployer

import (
	"os"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var cluster *testcluster.Cluster

func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }
