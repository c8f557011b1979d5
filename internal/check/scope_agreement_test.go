package check_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/report"
)

// A cluster-scoped custom kind whose CRD the pull request does not render:
// the cluster engine asks discovery, the offline engine learns the scope
// from the snapshot (its recorded schema, or failing that its record of
// the object, which has no namespace). Both give the object the same
// identity, so it is compared with its snapshot record: the label the
// pull request drops is released, nothing is new or removed, and no scope
// is guessed.
func TestOfflineAgreesClusterScopedCustomKind(t *testing.T) {
	s := agreementScenarioAt(t, filepath.Join("testdata", "agreement", "cluster-kind"), "cs-unused", "cs.example.com")
	s.deploy("crd", "")
	waitForKind(t, s, schema.GroupVersionKind{Group: "ag-cs.example.com", Version: "v1", Kind: "ClusterRuntime"})
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	failOn := []string{"--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error"}
	check := func(t *testing.T) {
		rep := s.agree("pr", 0, failOn...)
		checkClusterScoped(t, rep)
		_, online, _ := s.check("pr", failOn...)
		checkClusterScoped(t, online)
	}
	t.Run("schema in the snapshot", check)

	// A snapshot taken without permission to read CRDs has no schema of
	// the kind; its record of the object still has no namespace.
	clone := t.TempDir()
	for _, args := range [][]string{
		{"clone", "-q", "--branch", "ownership-snapshots", s.repo, clone},
		{"-C", clone, "rm", "-q", "-r", "default/schemas"},
		{"-C", clone, "-c", "user.name=test", "-c", "user.email=test@example.com", "commit", "-q", "-m", "drop the schemas"},
		{"-C", clone, "push", "-q", "origin", "HEAD:ownership-snapshots"},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	t.Run("no schema in the snapshot", check)
}

func checkClusterScoped(t *testing.T, rep *report.Report) {
	t.Helper()
	var found bool
	for _, o := range rep.Objects {
		if o.Kind != "ClusterRuntime" {
			continue
		}
		found = true
		if o.Namespace != "" || o.Baseline != "snapshot" || scopeGuessed(o.Notes) {
			t.Errorf("%s engine: ClusterRuntime namespace %q, baseline %s, notes %q; want cluster-scoped, compared with its snapshot record, no guess",
				rep.Engine, o.Namespace, o.Baseline, o.Notes)
		}
	}
	if !found {
		t.Fatalf("%s engine: no ClusterRuntime in the report\n%s", rep.Engine, dump(rep))
	}
	if rep.Summary.Count(model.New) != 0 || rep.Summary.Count(model.Removed) != 0 {
		t.Errorf("%s engine: %d new, %d removed, want none\n%s", rep.Engine, rep.Summary.Count(model.New), rep.Summary.Count(model.Removed), dump(rep))
	}
	onlyFinding(t, rep, "ClusterRuntime", "torch", model.Release, ".metadata.labels.team")
	for _, n := range rep.Notes {
		if strings.Contains(n, "scope guessed") {
			t.Errorf("%s engine: %s", rep.Engine, n)
		}
	}
}

// scopeGuessed tells whether a note says the kind's scope was guessed; a
// note that its structure was deduced (no schema anywhere) is expected when
// the snapshot recorded none.
func scopeGuessed(notes []string) bool {
	for _, n := range notes {
		if strings.HasPrefix(n, "scope guessed") {
			return true
		}
	}
	return false
}
