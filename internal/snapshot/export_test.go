package snapshot

import "github.com/ownership-check/ownership-check/internal/testkit/testcluster"

// For the command's end-to-end tests in package snapshot_test, which cannot
// live in package snapshot: they import the cli, which imports snapshot.
var (
	Git            = git
	NewRemote      = newRemote
	AssertNoCanary = assertNoCanary
	AssertEqual    = assertEqual
)

const Canary = canary

func SharedCluster() *testcluster.Cluster { return cluster }
