package check

import (
	"context"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// A deployer that decides how it applies at deploy time (Helm 4's
// --server-side=auto, helm-controller's serverSideApply: auto) decides from
// what its release last did, which the release's objects show in their
// managedFields; the check reads the same before it predicts, never the
// release's Secrets (docs/deployers-apply.md "The deployers").

// resolveApply is the target's method as its deployer will apply: a
// method with Resolve set is decided from the rendered objects as they
// are in the cluster, read with a GET each, and from helm-controller's
// version where the checker may read its Deployment.
func resolveApply(ctx context.Context, t Target, client *kube.Client, opts predict.ClusterOptions, objs []model.Object) (delivery.ApplyMethod, error) {
	m := t.Apply
	if !m.NeedsResolve() {
		return m, nil
	}
	if opts.Deadline > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, opts.Deadline)
		defer cancel()
	}
	if m.Resolve == delivery.ResolveHelmController && m.ControllerVersion == "" {
		m.ControllerVersion = deployer.HelmControllerVersion(ctx, client)
	}
	entries, err := predict.NewCluster(client, opts).ManagedFieldsOf(ctx, objs)
	if err != nil {
		return m, err
	}
	return delivery.ResolveApply(m, entries, t.FieldManager), nil
}

// resolveApplyOffline decides as resolveApply from the snapshot's
// deployed objects: the cluster as the last deploy left it. Each record is
// decoded for its managedFields and let go.
func resolveApplyOffline(t Target, snap *snapshot.Snapshot, objs []model.Object) delivery.ApplyMethod {
	if !t.Apply.NeedsResolve() {
		return t.Apply
	}
	var entries [][]metav1.ManagedFieldsEntry
	for _, o := range objs {
		if e, err := snap.Entry(o.ID); err == nil && e != nil && e.Deployed != nil {
			entries = append(entries, e.Deployed.GetManagedFields())
		}
	}
	return delivery.ResolveApply(t.Apply, entries, t.FieldManager)
}

// previousManifest gives a client-side apply's merge what the deploy
// applied before, where m merges from Helm's previous release manifest:
// the snapshot's applied config, read once the snapshot is (the dry-runs
// go out while git is still read), nil without one. Nil for any other m.
func previousManifest(m delivery.ApplyMethod, snap func() *snapshot.Snapshot) func(model.ID) *unstructured.Unstructured {
	if m.Method != delivery.ApplyClientSide || m.Original != delivery.OriginalPreviousManifest {
		return nil
	}
	return func(id model.ID) *unstructured.Unstructured {
		s := snap()
		if s == nil {
			return nil
		}
		e, err := s.Entry(id)
		if err != nil || e == nil {
			return nil
		}
		return e.Applied
	}
}

// snapshotOnce is the snapshot read's one result, for each of its
// readers: the engine's previous manifests and the analysis.
func snapshotOnce(ch <-chan snapshotResult) func() snapshotResult {
	return sync.OnceValue(func() snapshotResult { return <-ch })
}
