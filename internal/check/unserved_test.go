package check_test

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestScenarioKindNoLongerServed: the last deploy applied a custom
// resource whose CustomResourceDefinition was uninstalled since. The
// cluster cannot say whether the object exists, so the check neither
// counts it to create nor says the deploy creates it again: its change
// is unknown, a note says the kind is not served, and the dry-run error
// fails the check. The ConfigMap beside it is checked as ever. Once the
// render drops it too, it is not counted to delete.
func TestScenarioKindNoLongerServed(t *testing.T) {
	s := newScenario(t, "unserved-kind")
	s.deploy("crd", "")
	gvk := schema.GroupVersionKind{Group: "s37u.example.com", Version: "v1", Kind: "Gadget"}
	waitForSchema(t, s, gvk)
	s.deploy("deployed", "")
	s.snapshot("deployed", "")

	ctx := ctxTimeout(t)
	crds, err := s.client.Resource(schema.GroupVersionKind{Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := crds.Delete(ctx, "gadgets.s37u.example.com", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForNoKind(t, s, gvk)

	code, rep, stderr := s.check("deployed")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an object not checked fails the check); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	var gadget *report.Object
	for i, o := range rep.Objects {
		if o.Kind == "Gadget" {
			gadget = &rep.Objects[i]
		}
	}
	if gadget == nil {
		t.Fatalf("no Gadget in the report\n%s", dump(rep))
	}
	if gadget.Change == model.ChangeCreate || gadget.Change != "" {
		t.Errorf("Gadget: change %q, want none stated (the cluster cannot tell)", gadget.Change)
	}
	if len(gadget.Findings) != 1 || gadget.Findings[0].Category != model.DryRunError || gadget.Findings[0].Reason != "NoMatch" {
		t.Errorf("Gadget: findings %+v, want the dry-run error alone", gadget.Findings)
	}
	want := "not checked: the cluster does not serve Gadget.s37u.example.com"
	if !containsPrefix(gadget.Notes, want) {
		t.Errorf("Gadget: notes %q, want %q", gadget.Notes, want)
	}
	if c := rep.Summary.Changes; c.Create != 0 {
		t.Errorf("summary.changes %+v, want nothing to create", c)
	}
	for _, format := range []string{"markdown", "text"} {
		_, out, _ := s.run("check", s.path("deployed"), "--field-manager", deployer,
			"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", format)
		if strings.Contains(out, "creates it again") || strings.Contains(out, "1 to create") {
			t.Errorf("--output %s counts the Gadget to create:\n%s", format, out)
		}
		if !strings.Contains(out, want) {
			t.Errorf("--output %s does not say the kind is not served:\n%s", format, out)
		}
	}
	for _, o := range rep.Objects {
		if o.Kind == "ConfigMap" && (o.Change != model.ChangeNone || len(o.Findings) != 0) {
			t.Errorf("ConfigMap: change %q findings %+v, want it checked clean", o.Change, o.Findings)
		}
	}

	// Gone from the render as well, it is not counted to delete either.
	_, rep, stderr = s.check("removed", "--fail-on", "none")
	if rep == nil {
		t.Fatalf("no report: %s", stderr)
	}
	removed := 0
	for _, o := range rep.Objects {
		if o.Kind != "Gadget" {
			continue
		}
		removed++
		if o.Change != "" || findings(rep, "Gadget", "g1", model.Delete) != nil {
			t.Errorf("removed Gadget: change %q findings %+v, want no change stated and no delete", o.Change, o.Findings)
		}
		if !containsPrefix(o.Notes, want+" in version v1") {
			t.Errorf("removed Gadget: notes %q, want %q", o.Notes, want+" in version v1")
		}
	}
	if removed != 1 {
		t.Errorf("%d Gadgets in the report of the render without it, want the one the snapshot has", removed)
	}
	if c := rep.Summary.Changes; c.Delete != 0 {
		t.Errorf("summary.changes %+v, want nothing to delete", c)
	}
}

// waitForNoKind waits until discovery no longer maps gvk.
func waitForNoKind(t *testing.T, s *scenario, gvk schema.GroupVersionKind) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.client.ResetDiscovery()
		if _, err := s.client.Mapping(gvk); err != nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still served", gvk)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
