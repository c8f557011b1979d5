package targets_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/cli"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestGitOpsFixtureHelmEndToEnd: the fixture's HelmRelease runs the whole
// pipeline on a real API server under helm-controller. Released as
// helm-controller releases it, it checks clean; after `kubectl edit`
// takes the image, the check names the conflict helm-controller's next
// release meets.
func TestGitOpsFixtureHelmEndToEnd(t *testing.T) {
	testcluster.Require(t, cluster)
	r := newGitOpsRepo(t)
	c := newGitOpsCluster(t)
	const name = "HelmRelease/frontend.web"
	var s targets.Target
	for _, d := range r.list() {
		if d.Name == name {
			s = d
		}
	}
	if s.FieldManager != "helm-controller" || !s.Checked() {
		t.Fatalf("%s: manager %q, reason %q", name, s.FieldManager, s.Reason)
	}
	c.deploy(s)
	check := func(t *testing.T, wantCode int) report.Report {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := cli.Run("test", []string{"check", "--output", "json", "--target", name, "--snapshot-repo", r.snapshots}, &stdout, &stderr)
		if code != wantCode {
			t.Fatalf("check: exit %d, want %d\n%s\n%s", code, wantCode, stdout.String(), stderr.String())
		}
		var reps []report.Report
		if err := json.Unmarshal(stdout.Bytes(), &reps); err != nil || len(reps) != 1 {
			t.Fatalf("check: %v\n%s", err, stdout.String())
		}
		return reps[0]
	}

	t.Run("clean", func(t *testing.T) {
		rep := check(t, 0)
		if rep.FieldManager != "helm-controller" || rep.Summary.Objects != 3 {
			t.Fatalf("manager %s, %d objects, want helm-controller's release of 3", rep.FieldManager, rep.Summary.Objects)
		}
		for _, o := range rep.Objects {
			if len(o.Findings) > 0 {
				t.Errorf("%s %s: findings %+v after helm-controller's release", o.Kind, o.Name, o.Findings)
			}
		}
		if rep.Summary.Changes.Update != 0 || rep.Summary.Changes.Create != 0 {
			t.Errorf("%+v after helm-controller's release", rep.Summary)
		}
	})
	t.Run("another manager's edit conflicts", func(t *testing.T) {
		res, err := c.client.Resource(schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, "web")
		if err != nil {
			t.Fatal(err)
		}
		patch := `{"spec":{"template":{"spec":{"containers":[{"name":"frontend","image":"ghcr.io/example/frontend:hotfix"}]}}}}`
		if _, err := res.Patch(context.Background(), "frontend-frontend", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
			t.Fatal(err)
		}
		rep := check(t, 1)
		found := false
		for _, o := range rep.Objects {
			for _, f := range o.Findings {
				for _, m := range f.Managers {
					if o.Kind == "Deployment" && m.Manager == "kubectl-edit" && f.Category != model.New {
						found = true
					}
				}
			}
		}
		if !found {
			t.Errorf("no conflict with kubectl-edit over the image: %+v", rep.Objects)
		}
	})
}
