package ownership

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

func TestAggregate(t *testing.T) {
	var fs []model.Finding
	for i := 0; i < 7; i++ {
		fs = append(fs, model.Finding{Category: model.Taking, Path: fmt.Sprintf(".data.k%d", i), Message: "added"})
	}
	fs = append(fs,
		model.Finding{Category: model.Release, Path: ".spec.replicas", Message: "released: now in the ignore list"},
		model.Finding{Category: model.Reset, Path: ".spec.replicas", Message: "owned by no one else"},
		model.Finding{Category: model.Drift, Path: ".spec.replicas", Message: "changed from 3 to 5 by kubectl (Update, scale); the deploy reverts it to 3"},
		model.Finding{Category: model.Drift, Path: ".spec.paused", Message: "changed"},
		model.Finding{Category: model.New, Message: "not in the cluster: the deploy creates it"},
		model.Finding{Category: model.Anomaly, Message: "a"},
		model.Finding{Category: model.Anomaly, Message: "b"},
		model.Finding{Category: "future", Path: ".x", Message: "?"},
	)
	groups := Aggregate(fs)
	var order []string
	for _, g := range groups {
		order = append(order, string(g.Category))
	}
	if got := strings.Join(order, " "); got != "drift anomaly reset taking release new future" {
		t.Fatalf("order: %s", got)
	}
	want := []string{
		"changed outside the deploy; the deploy reverts them: .spec.paused, .spec.replicas",
		"impossible transitions: check the snapshot and the field manager (2 findings)",
		".spec.replicas: owned by no one else",
		"newly owned by the deploy: .data.k0, .data.k1, .data.k2, .data.k3, .data.k4 and 2 more",
		".spec.replicas: released: now in the ignore list",
		"not in the cluster: the deploy creates it",
		".x: ?",
	}
	for i, g := range groups {
		if g.Summary != want[i] {
			t.Errorf("%s summary:\n got %s\nwant %s", g.Category, g.Summary, want[i])
		}
		if g.Level != model.LevelOf(g.Category) {
			t.Errorf("%s level %s", g.Category, g.Level)
		}
	}
	if len(groups[0].Paths) != 2 || len(groups[0].Findings) != 2 || groups[0].Paths[0] != ".spec.paused" {
		t.Errorf("drift group: %+v", groups[0])
	}
	if len(groups[5].Paths) != 0 {
		t.Errorf("object-level findings have no paths")
	}
	// The input is not reordered.
	if fs[0].Category != model.Taking {
		t.Error("Aggregate sorted its input")
	}
	if Aggregate(nil) == nil || len(Aggregate(nil)) != 0 {
		t.Error("no findings: empty, non-nil")
	}
	// Duplicate paths in one category are listed once.
	g := Aggregate([]model.Finding{{Category: model.Release, Path: ".a", Message: "x"}, {Category: model.Release, Path: ".a", Message: "y"}})
	if len(g) != 1 || len(g[0].Paths) != 1 {
		t.Errorf("dedup: %+v", g)
	}
}
