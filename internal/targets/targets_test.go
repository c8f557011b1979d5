package targets_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/monorepo"
)

const targetsNS = "targets"

// TestScenarioTargets: a monorepo's pull request checks exactly the
// targets whose render reads what it changed, in one process.
func TestScenarioTargets(t *testing.T) {
	e := newEnv(t)
	r := monorepo.NewRepo(t, 30, targetsNS, deployer)
	base := r.Commit("platform")
	t.Chdir(r.Dir)
	e.apply(&unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": targetsNS}}})
	for a := range 30 {
		for _, overlay := range monorepo.Overlays {
			e.deploy(filepath.Join(r.Dir, "apps", monorepo.App(a), "overlays", overlay))
		}
	}
	run := e.run
	// After the deploy, the snapshots record what each target's render reads.
	if code, out, errOut := run("snapshot", "--target", "all", "--source-commit", base); code != 0 {
		t.Fatalf("snapshot of all targets: exit %d\n%s%s", code, out, errOut)
	}
	// The run is one commit, whatever the number of targets, and each
	// target's lines name it.
	commits := strings.Fields(string(must(exec.Command("git", "-C", e.repo, "rev-list", "ownership-snapshots").Output())))
	if len(commits) != 1 {
		t.Errorf("snapshot of 90 targets: %d commits on the branch, want 1", len(commits))
	} else if _, out, _ := run("snapshot", "--target", "app03-dev,app04-prod", "--source-commit", base); strings.Count(out, "committed ") != 2 || strings.Count(out, "committed "+commits[0]) != 0 {
		t.Errorf("snapshot of two targets: want two lines naming the run's new commit, got\n%s", out)
	}
	if n := strings.Count(string(must(exec.Command("git", "-C", e.repo, "rev-list", "ownership-snapshots").Output())), "\n"); n != 2 {
		t.Errorf("two snapshot runs: %d commits, want 2", n)
	}
	checked := func(args ...string) ([]string, string) {
		t.Helper()
		code, out, errOut := run(append([]string{"check", "--output", "json"}, args...)...)
		if code != 0 {
			t.Fatalf("check %v: exit %d\n%s", args, code, errOut)
		}
		var reps []report.Report
		if err := json.Unmarshal([]byte(out), &reps); err != nil {
			t.Fatalf("check %v: not a JSON array: %v\n%s", args, err, out)
		}
		var envs []string
		for _, rep := range reps {
			envs = append(envs, rep.Environment)
			if slices.Contains(args, "--base") && (rep.Base == nil || rep.Base.Commit == "") {
				t.Errorf("%s: no base in the report with --base", rep.Environment)
			}
			if rep.Summary.Objects != 1 {
				t.Errorf("%s: %d objects, want its ConfigMap", rep.Environment, rep.Summary.Objects)
			}
		}
		sort.Strings(envs)
		return envs, errOut
	}

	// One app's base: its three targets.
	r.Write("apps/app07/base/settings.yaml", monorepo.Settings("app07", "slow"))
	// With --base too, as the action runs it: the base's tree is read once
	// for the three.
	envs, line := checked("--changed-from", base, "--base", base)
	if strings.Join(envs, " ") != "app07-dev app07-prod app07-staging" || !strings.Contains(line, "3 of 90 targets checked, 87 not affected by this change") {
		t.Errorf("one app's base: checked %v (%s)", envs, line)
	}
	r.Restore()

	// A new file in a directory a render lists is no change to a
	// kustomization that does not name it; a new overlay file named by
	// nothing changes nothing either. The shared component: every target.
	r.Write("components/common/kustomization.yaml", "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nlabels:\n- pairs:\n    team: platform-2\n")
	if envs, _ := checked("--changed-from", base); len(envs) != 90 {
		t.Errorf("the shared component: %d targets checked, want 90", len(envs))
	}
	r.Restore()

	// The README: none, and the run says so.
	r.Write("README.md", "# platform\n\nmore\n")
	envs, line = checked("--changed-from", base)
	if len(envs) != 0 || !strings.Contains(line, "0 of 90 targets checked, 90 not affected by this change") {
		t.Errorf("README: checked %v (%s)", envs, line)
	}
	r.Restore()

	// Shards partition the selection.
	one, _ := checked("--target", "all", "--shard", "1/2")
	two, _ := checked("--target", "all", "--shard", "2/2")
	seen := map[string]int{}
	for _, e := range append(one, two...) {
		seen[e]++
	}
	if len(one) != 45 || len(two) != 45 || len(seen) != 90 {
		t.Errorf("shards: %d and %d targets, %d distinct; want 45, 45, 90", len(one), len(two), len(seen))
	}

	// A target with no record yet is checked, and the run says why.
	if err := os.WriteFile(filepath.Join(r.Dir, ".ownership-check.yaml"), append(must(os.ReadFile(filepath.Join(r.Dir, ".ownership-check.yaml"))),
		[]byte("- name: extra\n  paths: [apps/app00/overlays/dev]\n  fieldManager: deployer\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	r.Commit("extra target")
	if envs, _ := checked("--changed-from", "HEAD"); strings.Join(envs, " ") != "extra" {
		t.Errorf("a target without a record: checked %v, want extra alone", envs)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
