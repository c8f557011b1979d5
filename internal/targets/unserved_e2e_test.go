package targets_test

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// otherControllersKinds are objects of controllers the test cluster does
// not run: their CustomResourceDefinitions are not installed.
const otherControllersKinds = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata:
  name: guestbook-tls
spec:
  secretName: guestbook-tls
  dnsNames: [guestbook.example.com]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
---
apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata:
  name: guestbook-db
spec:
  secretStoreRef: {name: vault, kind: ClusterSecretStore}
  target: {name: guestbook-db}
  data:
  - secretKey: password
    remoteRef: {key: guestbook/db, property: password}
`

// TestFirstCheckOfKindsTheClusterDoesNotServe: the first check (no
// snapshot) of an Argo CD Application whose render holds other
// controllers' kinds the cluster does not serve, at the base as at the
// head: their dry-run errors are the cluster's and fail nothing, even
// where the pull request edits one of them, while the pull request's own
// change is checked. A kind the pull request brings, whose
// CustomResourceDefinition is not installed either, fails it as its own.
func TestFirstCheckOfKindsTheClusterDoesNotServe(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	newGitOpsCluster(t)
	const (
		app     = "guestbook-staging"
		overlay = "apps/guestbook/overlays/staging/"
	)
	r.Write(overlay+"others.yaml", otherControllersKinds)
	r.Write(overlay+"kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - ../../base\n  - others.yaml\nlabels:\n  - pairs:\n      environment: staging\n")
	base := r.Commit("guestbook's certificate and database password, from other controllers")
	r.edit("argocd/guestbook-staging.yaml", "count: 2", "count: 3")
	r.edit(overlay+"others.yaml", "dnsNames: [guestbook.example.com]", "dnsNames: [guestbook.example.com, www.guestbook.example.com]")

	unserved := func(t *testing.T, rep report.Report, kind string, cause model.Cause) {
		t.Helper()
		for _, o := range rep.Objects {
			if o.Kind != kind {
				continue
			}
			if len(o.Findings) != 1 || o.Findings[0].Category != model.DryRunError || o.Findings[0].Reason != "NoMatch" || o.Findings[0].Cause != cause {
				t.Errorf("%s: %+v, want the kind not served, cause %s", o.Display(), o.Findings, cause)
			}
			return
		}
		t.Errorf("no %s in the report", kind)
	}
	t.Run("kinds at the base too", func(t *testing.T) {
		code, reps, out := checkTargets(t, r.snapshots, "--base", base, "--target", app)
		if code != 0 {
			t.Fatalf("exit %d, want 0: the kinds the cluster lacks are not the pull request's\n%s", code, out)
		}
		rep := reps[app]
		if rep.Snapshot.Found || rep.Failed || rep.Unchanged {
			t.Fatalf("%s: snapshot %v, failed %v, unchanged %v: want a first check of the pull request's change, passing", app, rep.Snapshot.Found, rep.Failed, rep.Unchanged)
		}
		unserved(t, rep, "Certificate", model.CauseCluster)
		unserved(t, rep, "ExternalSecret", model.CauseCluster)
		for _, o := range rep.Objects {
			for _, f := range o.Findings {
				if f.Category == model.DryRunError && f.Cause != model.CauseCluster {
					t.Errorf("%s: %+v, want every refusal the cluster's", o.Display(), f)
				}
			}
		}
	})
	t.Run("a kind the pull request brings", func(t *testing.T) {
		r.Write(overlay+"others.yaml", otherControllersKinds+`---
apiVersion: monitoring.coreos.com/v1
kind: PodMonitor
metadata:
  name: guestbook
spec:
  selector: {matchLabels: {app: guestbook-ui}}
  podMetricsEndpoints: [{port: http}]
`)
		code, reps, out := checkTargets(t, r.snapshots, "--base", base, "--target", app)
		if code != 1 {
			t.Fatalf("exit %d, want 1: the pull request brings a kind the cluster does not serve\n%s", code, out)
		}
		rep := reps[app]
		unserved(t, rep, "PodMonitor", model.CausePullRequest)
		unserved(t, rep, "Certificate", model.CauseCluster)
	})
}
