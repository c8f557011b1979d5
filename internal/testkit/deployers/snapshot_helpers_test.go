package deployers_test

import (
	"context"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/command"
	"github.com/ownership-check/ownership-check/internal/runstate"
)

// snapshot records the deploy of path under fieldManager into the
// scenario's snapshot repository, as the pipeline does after each deploy:
// the checks after it compare with what it applied and left.
func (e *env) snapshot(path, fieldManager string) {
	e.t.Helper()
	_, err := command.Snapshot(context.Background(), check.SnapshotOptions{
		Target: check.Target{FieldManager: fieldManager, Environment: e.ns, Cluster: check.Cluster{Kubeconfig: e.kubeconfig, Namespace: e.ns},
			Snapshot: runstate.Branch{Repo: e.repo}},
		Paths: []string{path},
	}, check.RunOptions{}, io.Discard, io.Discard)
	if err != nil {
		e.t.Fatalf("snapshot: %v", err)
	}
}
