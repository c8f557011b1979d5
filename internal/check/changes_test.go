package check_test

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestScenarioChanges is issue 26's list on the API server: what the
// deploy does to each object (change, diff, rollout), in one pull
// request, and no Secret value anywhere.
func TestScenarioChanges(t *testing.T) {
	s := newScenario(t, "changes")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	// Removed from the render, and already gone from the cluster: nothing
	// left to delete.
	cm, err := s.client.Resource(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "s20-changes")
	if err != nil {
		t.Fatal(err)
	}
	if err := cm.Delete(ctxTimeout(t), "gone-thing", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	args := []string{"check", s.path("pr"), "--field-manager", deployer,
		"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo}
	code, stdout, stderr := s.run(append(args, "--output", "json")...)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (the immutable selector fails as a refusal does); stderr: %s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	_, text, _ := s.run(append(args, "--output", "text")...)
	_, md, _ := s.run(append(args, "--output", "markdown")...)
	if testing.Verbose() {
		t.Logf("text:\n%s\nmarkdown:\n%s", text, md)
	}
	for _, secret := range []string{"Canary-New-7f3a9", "Canary-Old-2b8c1"} {
		for _, form := range []string{secret, base64.StdEncoding.EncodeToString([]byte(secret))} {
			for name, out := range map[string]string{"json": stdout, "text": text, "markdown": md} {
				if strings.Contains(out, form) {
					t.Errorf("the %s report shows a Secret value (%q)", name, form)
				}
			}
		}
	}

	obj := func(kind, name string) report.Object {
		t.Helper()
		for _, o := range rep.Objects {
			if o.Kind == kind && o.Name == name {
				return o
			}
		}
		t.Fatalf("no %s/%s in the report:\n%s", kind, name, dump(&rep))
		return report.Object{}
	}
	diffAt := func(o report.Object, path string) *model.FieldChange {
		for i := range o.Diff {
			if o.Diff[i].Path == path {
				return &o.Diff[i]
			}
		}
		return nil
	}

	t.Run("image bump, one container of two", func(t *testing.T) {
		o := obj("Deployment", "web")
		if o.Change != model.ChangeUpdate {
			t.Fatalf("change %q, want update", o.Change)
		}
		d := diffAt(o, `.spec.template.spec.containers[name="app"].image`)
		if d == nil || d.Before != "nginx:1.26" || d.After != "nginx:1.27" {
			t.Errorf("diff %+v, want the app image nginx:1.26 → nginx:1.27", o.Diff)
		}
		if diffAt(o, `.spec.template.spec.containers[name="sidecar"].image`) != nil {
			t.Errorf("the sidecar's image did not change: %+v", o.Diff)
		}
		r := o.Rollout
		if r == nil || !r.Replaces || len(r.Images) != 1 || r.Images[0] != (model.ImageChange{Container: "app", From: "nginx:1.26", To: "nginx:1.27"}) {
			t.Fatalf("rollout %+v, want the app container's image", r)
		}
		if r.Pods == nil || *r.Pods != 2 || !strings.Contains(r.Strategy, "2 pods") {
			t.Errorf("rollout size %v %q, want the 2 live pods", r.Pods, r.Strategy)
		}
		if !containsPrefix(r.Why, "ConfigMap app-config-") {
			t.Errorf("why %q does not name the generated ConfigMap's new name", r.Why)
		}
	})
	t.Run("generated ConfigMap rename", func(t *testing.T) {
		var renamed []report.Object
		for _, o := range rep.Objects {
			if o.Kind == "ConfigMap" && strings.HasPrefix(o.Name, "app-config-") {
				renamed = append(renamed, o)
			}
		}
		if len(renamed) != 2 {
			t.Fatalf("want the old and new app-config, got %d", len(renamed))
		}
		for _, o := range renamed {
			if o.Change != model.ChangeRename || o.Rename == nil || o.Rename.From == o.Rename.To {
				t.Errorf("%s: change %q rename %+v, want one rename old → new", o.Name, o.Change, o.Rename)
			}
			if len(findings(&rep, "ConfigMap", o.Name, model.Delete)) != 0 {
				t.Errorf("%s: a rename is no deletion", o.Name)
			}
			if o.Name == o.Rename.From && (len(o.Findings) != 1 || o.Findings[0].Category != model.Removed) {
				t.Errorf("%s: findings %+v, want the removed note alone", o.Name, o.Findings)
			}
		}
		if rep.Summary.Changes.Rename != 1 {
			t.Errorf("summary.changes.rename = %d, want 1", rep.Summary.Changes.Rename)
		}
	})
	t.Run("replicas 3 → 1", func(t *testing.T) {
		o := obj("Deployment", "api")
		if o.Rollout == nil || o.Rollout.Replicas == nil || *o.Rollout.Replicas != (model.Replicas{From: 3, To: 1}) || o.Rollout.Replaces {
			t.Errorf("rollout %+v, want replicas 3 → 1 and no pod replaced", o.Rollout)
		}
		f := onlyFinding(t, &rep, "Deployment", "api", model.ScaleDown, ".spec.replicas")
		if model.LevelOf(f.Category) != model.LevelWarning {
			t.Errorf("scale-down is not a warning")
		}
	})
	t.Run("ConfigMap data change", func(t *testing.T) {
		o := obj("ConfigMap", "flags")
		d := diffAt(o, ".data.beta")
		if o.Change != model.ChangeUpdate || d == nil || d.Before != "off" || d.After != "on" {
			t.Errorf("change %q diff %+v, want update .data.beta off → on", o.Change, o.Diff)
		}
		if !containsPrefix(o.Notes, "used by Deployment.apps/s20-changes/worker, which does not roll") {
			t.Errorf("notes %q, want that worker picks it up only at its next restart", o.Notes)
		}
	})
	t.Run("ConfigMap change no workload picks up", func(t *testing.T) {
		o := obj("ConfigMap", "settings")
		if o.Change != model.ChangeUpdate || !containsPrefix(o.Notes, "no workload of this render rolls") {
			t.Errorf("change %q notes %q, want an update that takes effect only at the next restart", o.Change, o.Notes)
		}
	})
	t.Run("new object", func(t *testing.T) {
		if o := obj("ConfigMap", "new-thing"); o.Change != model.ChangeCreate {
			t.Errorf("change %q, want create", o.Change)
		}
	})
	t.Run("deleted object", func(t *testing.T) {
		if o := obj("ConfigMap", "old-thing"); o.Change != model.ChangeDelete {
			t.Errorf("change %q, want delete", o.Change)
		}
		onlyFinding(t, &rep, "ConfigMap", "old-thing", model.Delete, "")
		// One statement per fact: the delete says what removed would.
		if o := obj("ConfigMap", "old-thing"); len(o.Findings) != 1 {
			t.Errorf("old-thing: findings %+v, want the delete alone", o.Findings)
		}
		if o := obj("ConfigMap", "gone-thing"); o.Change != model.ChangeNone || len(findings(&rep, "ConfigMap", "gone-thing", model.Delete)) != 0 {
			t.Errorf("gone-thing: change %q, findings %+v; want none: it is no longer in the cluster", o.Change, o.Findings)
		}
	})
	t.Run("Secret value change", func(t *testing.T) {
		o := obj("Secret", "db")
		d := diffAt(o, ".data.password")
		if o.Change != model.ChangeUpdate || d == nil || d.Before != model.HiddenValue || d.After != model.HiddenValue {
			t.Errorf("change %q diff %+v, want .data.password changed, values hidden", o.Change, o.Diff)
		}
		if diffAt(o, ".data.user") != nil {
			t.Errorf("the user key did not change: %+v", o.Diff)
		}
	})
	t.Run("immutable selector", func(t *testing.T) {
		o := obj("Deployment", "sel")
		f := onlyFinding(t, &rep, "Deployment", "sel", model.RecreateRequired, ".spec.selector")
		if !strings.Contains(f.Remediation, "kubectl delete deployment.apps/sel -n s20-changes --cascade=orphan") {
			t.Errorf("remediation %q, want the orphaning delete", f.Remediation)
		}
		if len(findings(&rep, "Deployment", "sel", model.DryRunError)) != 0 {
			t.Errorf("the refusal is reported twice")
		}
		if o.Change != model.ChangeUpdate || diffAt(o, ".spec.selector.matchLabels.app") == nil {
			t.Errorf("change %q diff %+v, want the selector's change", o.Change, o.Diff)
		}
	})
	t.Run("offline, from the snapshot", func(t *testing.T) {
		code, out, stderr := s.run(append(args, "--offline", "--output", "json")...)
		if code == 2 {
			t.Fatalf("offline check could not run: %s", stderr)
		}
		for _, secret := range []string{"Canary-New-7f3a9", "Canary-Old-2b8c1", base64.StdEncoding.EncodeToString([]byte("Canary-New-7f3a9"))} {
			if strings.Contains(out, secret) {
				t.Errorf("the offline report shows a Secret value")
			}
		}
		var off report.Report
		if err := json.Unmarshal([]byte(out), &off); err != nil {
			t.Fatal(err)
		}
		if !containsPrefix(off.Notes, "offline: what the deploy changes") {
			t.Errorf("notes %q do not say the changes are against the snapshot", off.Notes)
		}
		want := map[string]model.Change{"web": model.ChangeUpdate, "api": model.ChangeUpdate, "new-thing": model.ChangeCreate,
			"old-thing": model.ChangeDelete, "flags": model.ChangeUpdate, "db": model.ChangeUpdate}
		for _, o := range off.Objects {
			if w, ok := want[o.Name]; ok && o.Change != w {
				t.Errorf("offline %s/%s: change %q, want %q", o.Kind, o.Name, o.Change, w)
			}
			if o.Name == "web" && (o.Rollout == nil || len(o.Rollout.Images) != 1) {
				t.Errorf("offline web: rollout %+v, want the image bump", o.Rollout)
			}
		}
		if off.Summary.Changes.Rename != 1 || off.Summary.Count(model.ScaleDown) != 1 {
			t.Errorf("offline summary %+v, want the rename and the scale-down", off.Summary)
		}
	})
	t.Run("immutable Job template and claim spec", func(t *testing.T) {
		for _, c := range []struct{ kind, name, path, cmd string }{
			{"Job", "once", ".spec.template", "kubectl delete job.batch/once -n s20-changes --cascade=orphan"},
			{"PersistentVolumeClaim", "data", ".spec", "kubectl delete persistentvolumeclaim/data -n s20-changes"},
		} {
			f := onlyFinding(t, &rep, c.kind, c.name, model.RecreateRequired, c.path)
			if !strings.Contains(f.Remediation, c.cmd) {
				t.Errorf("%s: remediation %q, want %q", c.name, f.Remediation, c.cmd)
			}
		}
		if f := onlyFinding(t, &rep, "PersistentVolumeClaim", "data", model.RecreateRequired, ".spec"); !strings.Contains(f.Message, "data") {
			t.Errorf("the claim's message %q does not say its data may be lost", f.Message)
		}
	})
	t.Run("summary", func(t *testing.T) {
		c := rep.Summary.Changes
		if c.Create != 1 || c.Delete != 1 || c.Rename != 1 || c.Update < 6 {
			t.Errorf("summary.changes %+v", c)
		}
		if rep.Summary.Rollouts != 3 {
			t.Errorf("summary.rollouts = %d, want 3 (web; sel and once once recreated)", rep.Summary.Rollouts)
		}
	})
}

func containsPrefix(list []string, prefix string) bool {
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			return true
		}
	}
	return false
}
