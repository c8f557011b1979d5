package targets_test

import (
	"context"
	"reflect"
	"testing"

	"github.com/ownership-check/ownership-check/internal/targets"
)

// TestListOneIsTheWholeListing: each target of the GitOps fixture, found
// along the chain that leads to it alone (render --target), is the one
// the whole listing finds, and renders the same objects, warnings and
// error.
func TestListOneIsTheWholeListing(t *testing.T) {
	r := newGitOpsRepo(t)
	all := r.list()
	if len(all) < 10 {
		t.Fatalf("%d targets in the fixture", len(all))
	}
	for _, full := range all {
		ones, err := targets.ListOne(context.Background(), r.cfg, nil, full.Name)
		if err != nil {
			t.Fatalf("%s: %v", full.Name, err)
		}
		if len(ones) != 1 {
			t.Errorf("%s: %d targets of the name", full.Name, len(ones))
			continue
		}
		one := ones[0]
		if !reflect.DeepEqual(listed(one), listed(full)) {
			t.Errorf("%s: alone\n%+v\nin the whole listing\n%+v", full.Name, listed(one), listed(full))
			continue
		}
		if !full.Checked() {
			continue
		}
		if got, want := r.render(one), r.render(full); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: alone renders %+v, in the whole listing %+v", full.Name, got, want)
		}
	}
	if ones, err := targets.ListOne(context.Background(), r.cfg, nil, "no/such-target"); err != nil || len(ones) != 0 {
		t.Errorf("a name no target has: %v, %v", ones, err)
	}
}

// listed is a target's every field but the base's finder (a function).
func listed(t targets.Target) map[string]any {
	return map[string]any{
		"target": t.Target, "source": t.Source, "object": t.Object, "deployer": t.Deployer, "apply": t.Apply,
		"reason": t.Reason, "notes": t.Notes, "inputs": t.Inputs, "valueDirs": t.ValueDirs, "notTargets": t.NotTargets,
	}
}
