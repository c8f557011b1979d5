package check_test

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Objects the last deploy created and someone deleted by hand since: the
// pull request does not touch them, and the deploy recreates them. Every
// path is row 13, so each is one drift on the whole object, and the
// objects nobody touched stay silent. The Secret's value appears nowhere.
func TestScenarioDeletedOutOfBand(t *testing.T) {
	s := newScenario(t, "deleted-out-of-band")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	ctx := ctxTimeout(t)
	for _, name := range []struct{ kind, name string }{{"ConfigMap", "settings"}, {"Secret", "credentials"}} {
		res, err := s.client.Resource(schema.GroupVersionKind{Version: "v1", Kind: name.kind}, "oob-deleted")
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Delete(ctx, name.name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}

	code, rep, stderr := s.check("deployed")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (a deletion the deploy undoes is drift); stderr: %s\n%s", code, stderr, dump(rep))
	}
	for _, kind := range []string{"ConfigMap", "Secret"} {
		name := map[string]string{"ConfigMap": "settings", "Secret": "credentials"}[kind]
		f := onlyFinding(t, rep, kind, name, model.Drift, model.WholeObject)
		if f.Transition == nil || f.Row != 13 {
			t.Errorf("%s: drift %+v, want row 13", kind, f)
		}
		if !strings.Contains(f.Message, "deleted since the last deploy") || !strings.Contains(f.Message, "creates it again") {
			t.Errorf("%s: message %q does not name the deletion and the recreation", kind, f.Message)
		}
		for _, o := range rep.Objects {
			if o.Kind == kind && len(o.Findings) != 1 {
				t.Errorf("%s: %d findings, want the drift alone\n%s", kind, len(o.Findings), dump(rep))
			}
		}
	}
	for _, o := range rep.Objects {
		if (o.Kind == "Namespace" || o.Kind == "Deployment") && len(o.Findings) != 0 {
			t.Errorf("%s/%s: findings %+v, want none (untouched)", o.Kind, o.Name, o.Findings)
		}
	}
	if rep.Summary.Count(model.New) != 0 || rep.Summary.Count(model.Drift) != 2 {
		t.Errorf("summary %+v, want 2 drift and no new", rep.Summary)
	}

	for _, format := range []string{"json", "markdown", "text"} {
		_, out, _ := s.run("check", s.path("deployed"), "--field-manager", deployer,
			"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", format)
		if strings.Contains(out, "canary-oob") || strings.Contains(out, "Y2FuYXJ5LW9vYi") {
			t.Errorf("--output %s shows the Secret's value:\n%s", format, out)
		}
		if !strings.Contains(out, "deleted since the last deploy") {
			t.Errorf("--output %s does not say the objects were deleted:\n%s", format, out)
		}
	}
}
