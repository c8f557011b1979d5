package check_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The first check of an environment another tool deployed, with no
// snapshot: no anomaly, a pass when the pull request changes nothing, a
// taking-conflict naming the previous writer for the one value it changes,
// and one adoption note that says how to finish the move. Done as the note
// says, then a snapshot, the next check is clean and has no note.
func TestScenarioFirstCheck(t *testing.T) {
	cases := []struct {
		name, manager, operation string
		// config is the repository config the checks read, "" none.
		config string
		// previous deploys the objects as the previous tool did.
		previous func(s *scenario, kubectl string)
		note     string
		// finish does what the note says, deploys and snapshots.
		finish func(t *testing.T, s *scenario, note string)
	}{{
		// A deployer that does not merge client-side managers into its
		// own: the default's first check is TestScenarioClientSideUpgraded.
		name: "csa", manager: "kubectl-client-side-apply", operation: "Update", config: "config/no-upgrade.yaml",
		previous: func(s *scenario, kubectl string) {
			runKubectl(s.t, kubectl, s.kubeconfig, "apply", "-f", s.path("csa/same"))
		},
		note: "first deploy over client-side `kubectl apply` (manager kubectl-client-side-apply)",
		finish: func(t *testing.T, s *scenario, note string) {
			runNoteCommand(t, s, note, "--apply")
			s.deploy("csa/same", "config/no-upgrade.yaml")
		},
	}, {
		name: "ssa", manager: "argocd-controller", operation: "Apply",
		previous: func(s *scenario, _ string) {
			for _, o := range readObjects(s.t, s.path("ssa/same/objects.yaml")) {
				s.apply("argocd-controller", o, false)
			}
		},
		note: "first deploy over objects Argo CD applies (manager argocd-controller)",
		finish: func(t *testing.T, s *scenario, note string) {
			if !strings.Contains(note, "kubectl apply --server-side --field-manager argocd-controller -f OBJECT.yaml") {
				t.Fatalf("note gives no release command:\n%s", note)
			}
			s.deploy("ssa/same", "")
			// The release the note describes: the old manager applies the
			// object with no field of its own.
			for _, o := range readObjects(s.t, s.path("ssa/same/objects.yaml")) {
				md := o["metadata"].(map[string]any)
				id := map[string]any{"name": md["name"]}
				if ns, ok := md["namespace"]; ok {
					id["namespace"] = ns
				}
				s.apply("argocd-controller", map[string]any{"apiVersion": o["apiVersion"], "kind": o["kind"], "metadata": id}, false)
			}
		},
	}, {
		name: "hand", manager: "kubectl-create", operation: "Update",
		previous: func(s *scenario, kubectl string) {
			runKubectl(s.t, kubectl, s.kubeconfig, "create", "-f", s.path("hand/same"))
		},
		note: "first deploy over objects made or edited by hand with kubectl (manager kubectl-create)",
		finish: func(t *testing.T, s *scenario, note string) {
			if !strings.Contains(note, "--from-manager kubectl-create") {
				t.Fatalf("note does not merge kubectl-create:\n%s", note)
			}
			runNoteCommand(t, s, note, "--apply")
			s.deploy("hand/same", "")
		},
	}}
	kubectl := testcluster.Tool(t, "kubectl")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newScenario(t, "first-check")
			s.t = t
			tc.previous(s, kubectl)
			var extra []string
			if tc.config != "" {
				extra = []string{"--config", s.path(tc.config)}
			}

			code, rep, stderr := s.check(tc.name+"/same", extra...)
			if code != 0 || rep == nil {
				t.Fatalf("first check, nothing changed: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpIf(rep))
			}
			noAnomaly(t, rep)
			note := adoptionNote(t, rep, tc.note)
			for _, o := range rep.Objects {
				if len(o.Findings) != 0 || o.Baseline != ownership.BaselineLive {
					t.Errorf("%s/%s: baseline %s, findings %+v; want live and none", o.Kind, o.Name, o.Baseline, o.Findings)
				}
			}
			// The Namespace sends no field but its name: nothing to share.
			if !strings.HasPrefix(note, "ConfigMap/first-"+tc.name+"/settings: ") {
				t.Errorf("the note does not name the ConfigMap:\n%s", note)
			}

			code, rep, stderr = s.check(tc.name+"/pr", extra...)
			if code != 1 || rep == nil {
				t.Fatalf("first check of a change: exit %d, want 1; stderr: %s\n%s", code, stderr, dumpIf(rep))
			}
			noAnomaly(t, rep)
			f := onlyFinding(t, rep, "ConfigMap", "settings", model.TakingConflict, ".data.mode")
			if !hasManager(f.Managers, tc.manager, tc.operation, "") {
				t.Errorf("taking-conflict names %+v, want %s (%s)", f.Managers, tc.manager, tc.operation)
			}
			if n := len(findings(rep, "ConfigMap", "settings", model.TakingConflict)); n != 1 {
				t.Errorf("%d taking-conflicts, want .data.mode alone", n)
			}
			adoptionNote(t, rep, tc.note)

			tc.finish(t, s, note)
			s.snapshot(tc.name+"/same", tc.config)
			code, rep, stderr = s.check(tc.name+"/same", extra...)
			if code != 0 || rep == nil {
				t.Fatalf("check after the move: exit %d; stderr: %s", code, stderr)
			}
			for _, o := range rep.Objects {
				if len(o.Findings) != 0 || len(o.Notes) != 0 || o.Baseline != ownership.BaselineSnapshot {
					t.Errorf("after the move %s/%s: baseline %s, findings %+v, notes %q; want an ordinary clean check", o.Kind, o.Name, o.Baseline, o.Findings, o.Notes)
				}
			}
			cm := s.liveObject(schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}, "first-"+tc.name, "settings")
			owners, err := ownership.ManagedSets(cm)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range owners {
				if o.Manager.Manager == tc.manager && !o.Fields.Empty() {
					t.Errorf("%s still owns %s after the move", tc.manager, o.Fields)
				}
			}
		})
	}
}

// TestOfflineFirstCheck: with no snapshot the offline engine cannot
// predict; it says so and invents nothing.
func TestOfflineFirstCheck(t *testing.T) {
	s := newScenario(t, "first-check")
	code, rep, stderr := s.check("csa/same", "--offline")
	if code != 2 || rep != nil {
		t.Fatalf("offline without a snapshot: exit %d, report %v; want 2 and none", code, rep != nil)
	}
	if !strings.Contains(stderr, "--offline: no snapshot of environment default") {
		t.Errorf("stderr does not say why: %s", stderr)
	}
}

func noAnomaly(t *testing.T, rep *report.Report) {
	t.Helper()
	if n := rep.Summary.Count(model.Anomaly); n != 0 {
		t.Errorf("%d anomalies on a first check:\n%s", n, dump(rep))
	}
}

// adoptionNote is the report's one note with want in it, as the report
// says it (objects named).
func adoptionNote(t *testing.T, rep *report.Report, want string) string {
	t.Helper()
	var found []string
	for _, n := range rep.AllNotes() {
		if strings.Contains(n, want) {
			found = append(found, n)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d notes with %q, want one:\n%s", len(found), want, strings.Join(rep.AllNotes(), "\n"))
	}
	return found[0]
}

// runNoteCommand runs the ownership-check command the note quotes, with
// extra arguments.
func runNoteCommand(t *testing.T, s *scenario, note string, extra ...string) {
	t.Helper()
	_, rest, ok := strings.Cut(note, "`ownership-check ")
	cmd, _, ok2 := strings.Cut(rest, "`")
	if !ok || !ok2 {
		t.Fatalf("note quotes no ownership-check command:\n%s", note)
	}
	args := append(strings.Fields(cmd), extra...)
	args = append(args, "--kubeconfig", s.kubeconfig)
	if code, out, errOut := s.run(args...); code != 0 {
		t.Fatalf("%v: exit %d\n%s%s", args, code, out, errOut)
	}
}

func runKubectl(t *testing.T, kubectl, kubeconfig string, args ...string) {
	t.Helper()
	out, err := exec.Command(kubectl, append([]string{"--kubeconfig", kubeconfig}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %v: %v\n%s", args, err, out)
	}
}

func readObjects(t *testing.T, path string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, doc := range strings.Split(string(b), "\n---\n") {
		var m map[string]any
		if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if m != nil {
			out = append(out, m)
		}
	}
	return out
}

func dumpIf(rep *report.Report) string {
	if rep == nil {
		return ""
	}
	return dump(rep)
}

// TestFirstCheckOnPublicManifests: the volume snapshot controller, its
// CRDs and metrics-server, deployed with client-side `kubectl apply` as
// their READMEs say, then checked for the first time. The server defaults
// fields inside atomic values (a fieldRef's apiVersion) that the manifests
// leave out: compared with live as the server will store them, nothing
// differs. A deployer that merges kubectl-client-side-apply into its own
// (the default) removes the last-applied annotation and nothing else (a
// CRD, which cannot be created under another name to learn what the
// server sets again, included); one that does not passes with the
// adoption note, and the pull request's changes are taking-conflicts
// naming kubectl-client-side-apply.
func TestFirstCheckOnPublicManifests(t *testing.T) {
	s := newScenario(t, "kubectl-diff-public")
	kubectl := testcluster.Tool(t, "kubectl")
	runKubectl(t, kubectl, s.kubeconfig, "apply", "-f", s.path("crd"))
	waitForSchema(t, s, schema.GroupVersionKind{Group: "snapshot.storage.k8s.io", Version: "v1", Kind: "VolumeSnapshotClass"})
	runKubectl(t, kubectl, s.kubeconfig, "apply", "-f", s.path("deployed"))
	t.Cleanup(func() {
		// Leave the shared API server as other tests of the fixture expect.
		_ = exec.Command(kubectl, "--kubeconfig", s.kubeconfig, "delete", "--wait", "-f", s.path("deployed")).Run()
		_ = exec.Command(kubectl, "--kubeconfig", s.kubeconfig, "delete", "--wait", "-f", s.path("crd")).Run()
	})

	// The deployer merges kubectl-client-side-apply into its own first
	// (the default): nothing changes but the last-applied annotation,
	// which is the deploy's then and not sent, so it goes.
	code, rep, stderr := s.check("deployed")
	if code != 0 || rep == nil {
		t.Fatalf("first check, upgrading, nothing changed: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpIf(rep))
	}
	noAnomaly(t, rep)
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if f.Path != ".metadata.annotations."+model.LastAppliedAnnotation {
				t.Errorf("%s/%s: %s %s: %s; want only the last-applied annotation released", o.Kind, o.Name, f.Category, f.Path, f.Message)
			}
		}
	}
	adoptionNote(t, rep, "first server-side deploy over the client-side manager kubectl-client-side-apply")

	// A deployer that does not merge it: the fields are shared.
	noUpgrade := []string{"--config", s.path("no-upgrade.yaml")}
	code, rep, stderr = s.check("deployed", noUpgrade...)
	if code != 0 || rep == nil {
		t.Fatalf("first check, nothing changed: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpIf(rep))
	}
	noAnomaly(t, rep)
	for _, o := range rep.Objects {
		if len(o.Findings) != 0 {
			t.Errorf("%s/%s: findings %+v, want none", o.Kind, o.Name, o.Findings)
		}
	}
	adoptionNote(t, rep, "first deploy over client-side `kubectl apply` (manager kubectl-client-side-apply)")

	code, rep, stderr = s.check("pr", noUpgrade...)
	if code != 1 || rep == nil {
		t.Fatalf("first check of the pull request: exit %d, want 1; stderr: %s", code, stderr)
	}
	noAnomaly(t, rep)
	for _, o := range rep.Objects {
		for _, f := range o.Findings {
			if f.Category != model.TakingConflict || !hasManager(f.Managers, "kubectl-client-side-apply", "Update", "") {
				t.Errorf("%s/%s: %s %s by %+v, want only taking-conflicts with kubectl-client-side-apply", o.Kind, o.Name, f.Category, f.Path, f.Managers)
			}
			if strings.HasSuffix(f.Path, ".fieldRef") {
				t.Errorf("%s/%s: %s: a server-defaulted atomic value reported as changed", o.Kind, o.Name, f.Path)
			}
		}
	}
	if n := rep.Summary.Count(model.TakingConflict); n == 0 {
		t.Errorf("no taking-conflict for the pull request's changes:\n%s", dump(rep))
	}
}
