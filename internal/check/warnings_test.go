package check_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/report"
)

// TestScenarioDryRunWarningsAreNotes: what the API server warns of on a
// dry-run becomes a note on that object, once, and never fails the check:
// a custom resource in a version its CustomResourceDefinition deprecates,
// and a Deployment whose pod template carries an annotation the server
// calls non-functional. The render interleaves the deprecated and the
// current version, dry-run concurrently, so that a warning on the wrong
// object shows. Both when the objects are new (the dry-run creates) and
// once deployed (it updates); the report tells one warning of many
// objects once.
func TestScenarioDryRunWarningsAreNotes(t *testing.T) {
	s := newScenario(t, "warnings")
	s.deploy("crd", "")
	for _, v := range []string{"v1", "v2"} {
		waitForSchema(t, s, schema.GroupVersionKind{Group: "s37w.example.com", Version: v, Kind: "Gizmo"})
	}
	const deprecated = "the API server warns: s37w.example.com/v1 Gizmo is deprecated and removed in the next release; use s37w.example.com/v2 Gizmo"
	const seccomp = "the API server warns: spec.template.metadata.annotations[seccomp.security.alpha.kubernetes.io/pod]: non-functional"

	expect := func(t *testing.T, rep *report.Report, templateWarns bool) {
		t.Helper()
		if rep.Failed {
			t.Errorf("the report fails on warnings\n%s", dump(rep))
		}
		gizmos := 0
		for _, o := range rep.Objects {
			warned := []string{}
			for _, n := range o.Notes {
				if strings.HasPrefix(n, "the API server warns: ") {
					warned = append(warned, n)
				}
			}
			var want []string
			switch {
			case o.Kind == "Gizmo" && strings.HasPrefix(o.APIVersion, "s37w.example.com/v1"):
				gizmos++
				want = []string{deprecated}
			case o.Kind == "Gizmo":
				gizmos++
			case o.Kind == "Deployment" && templateWarns:
				want = []string{seccomp}
			}
			if len(warned) != len(want) || (len(want) == 1 && !strings.HasPrefix(warned[0], want[0])) {
				t.Errorf("%s %s/%s: warnings %q, want %q", o.APIVersion, o.Kind, o.Name, warned, want)
			}
		}
		if gizmos != 12 {
			t.Errorf("%d Gizmos in the report, want 12", gizmos)
		}
	}

	t.Run("new objects", func(t *testing.T) {
		code, rep, stderr := s.check("pr")
		if code != 0 {
			t.Fatalf("exit %d, want 0 (warnings are notes); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		expect(t, rep, true)
	})
	t.Run("deployed objects", func(t *testing.T) {
		s.deploy("pr", "")
		s.snapshot("pr", "")
		code, rep, stderr := s.check("pr")
		if code != 0 {
			t.Fatalf("exit %d, want 0 (warnings are notes); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
		}
		// The server warns of a pod template only when it changes.
		expect(t, rep, false)
		_, out, _ := s.run("check", s.path("pr"), "--field-manager", deployer,
			"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", "markdown")
		if n := strings.Count(out, "is deprecated and removed in the next release"); n != 1 || !strings.Contains(out, "and 3 more: "+deprecated) {
			t.Errorf("the markdown report tells the deprecation %d times, want once for the 6 objects:\n%s", n, out)
		}
	})
}
