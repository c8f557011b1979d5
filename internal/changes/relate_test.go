package changes

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestRelate: a generated ConfigMap's rename is one rename on both sides
// and no deletion; a changed ConfigMap or Secret says whether a workload
// picks it up.
func TestRelate(t *testing.T) {
	cm := func(name string) model.ID { return model.ID{Kind: "ConfigMap", Namespace: "shop", Name: name} }
	deploy := func(name string) model.ID {
		return model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: name}
	}
	del := model.Finding{Category: model.Delete}
	objs := []Related{
		{ID: cm("app-config-2b5t7mdk4h"), Change: model.ChangeDelete, Findings: []model.Finding{del}},
		{ID: cm("app-config-9c8hk6fbgm"), Change: model.ChangeCreate},
		{ID: cm("old-thing"), Change: model.ChangeDelete, Findings: []model.Finding{del}},
		{ID: cm("flags"), Change: model.ChangeUpdate},
		{ID: cm("settings"), Change: model.ChangeUpdate},
		{ID: cm("rolled"), Change: model.ChangeUpdate},
		{ID: cm("reloaded"), Change: model.ChangeUpdate},
		{ID: cm("unchanged"), Change: model.ChangeNone},
		{ID: model.ID{Group: "example.com", Kind: "ConfigMap", Namespace: "shop", Name: "other"}, Change: model.ChangeUpdate},
		{ID: deploy("worker"), Change: model.ChangeNone, Rollout: &model.Rollout{Uses: []model.ID{cm("flags"), cm("unchanged")}}},
		{ID: deploy("web"), Change: model.ChangeUpdate, Rollout: &model.Rollout{Replaces: true, Uses: []model.ID{cm("rolled")}}},
		{ID: deploy("api"), Change: model.ChangeNone, Rollout: &model.Rollout{Reloads: true, Uses: []model.ID{cm("reloaded")}}},
	}
	got := Relate(objs)
	if len(got) != len(objs) {
		t.Fatalf("%d relations for %d objects", len(got), len(objs))
	}
	rename := &model.Rename{From: "app-config-2b5t7mdk4h", To: "app-config-9c8hk6fbgm"}
	for i := 0; i < 2; i++ {
		if r := got[i]; r.Change != model.ChangeRename || r.Rename == nil || *r.Rename != *rename {
			t.Errorf("%s: %+v, want the rename %+v", objs[i].ID.Name, r, rename)
		}
	}
	// The old name is not deleted: its delete warning becomes the one
	// removed note, as the delete had replaced it.
	if f := got[0].Findings; len(f) != 1 || f[0].Category != model.Removed || f[0].Message != model.RemovedMessage {
		t.Errorf("old name's findings %+v, want one removed note", f)
	}
	if f := got[1].Findings; len(f) != 0 {
		t.Errorf("new name's findings %+v, want none", f)
	}
	if len(objs[0].Findings) != 1 {
		t.Errorf("Relate changed its input's findings")
	}
	if r := got[2]; r.Change != model.ChangeDelete || r.Rename != nil || len(r.Findings) != 1 {
		t.Errorf("old-thing: %+v, want a delete with its finding", r)
	}
	notes := map[string]string{
		"flags":    "used by Deployment.apps/shop/worker, which does not roll: the change takes effect only at the next restart",
		"settings": "no workload of this render rolls with this change",
		"rolled":   "", "reloaded": "", "unchanged": "", "other": "", "worker": "",
	}
	for i, o := range objs {
		want, ok := notes[o.ID.Name]
		if !ok {
			continue
		}
		if n := got[i].Note; (want == "") != (n == "") || !strings.HasPrefix(n, want) {
			t.Errorf("%s: note %q, want %q", o.ID.Name, n, want)
		}
	}
}
