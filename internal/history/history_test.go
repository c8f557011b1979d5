package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

var ctx = context.Background()

var (
	web  = model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	api  = model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "api"}
	kcm  = model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	edit = model.Manager{Manager: "kubectl-edit", Operation: "Update"}
	t0   = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
)

// newStore is a snapshot store in a fresh repository: the history's
// files live on its branch, where the check reads them.
func newStore(t testing.TB) *snapshot.Store {
	t.Helper()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	s, err := snapshot.Open(ctx, dir, "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// deploy is a recorded deploy at t0 + i hours with the given findings on web.
func deploy(i int, fs ...Finding) *Deploy {
	return &Deploy{Environment: "staging", RecordedAt: t0.Add(time.Duration(i) * time.Hour), FieldManager: "deployer",
		SourceCommit: fmt.Sprintf("%040d", i), Objects: []Object{{ID: web, Findings: fs}}}
}

func drift(ms ...model.Manager) Finding {
	return Finding{Category: model.Drift, Path: ".spec.replicas", Managers: ms}
}

func logOf(ds ...*Deploy) *Log {
	return &Log{Environment: "staging", Branch: "ownership-snapshots", Deploys: ds}
}

func TestPersistentFromTheSecondTime(t *testing.T) {
	f := model.Finding{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{kcm}}
	once := logOf(deploy(0), deploy(1, drift(kcm)), deploy(2))
	if h := once.Index().Persistent(web, f, "deployer"); h != nil {
		t.Errorf("once is no pattern: %+v", h)
	}
	twice := logOf(deploy(0), deploy(1, drift(kcm)), deploy(2), deploy(3, drift(kcm), drift(kcm)), deploy(4))
	h := twice.Index().Persistent(web, f, "deployer")
	if h == nil || h.Seen != 2 || h.Deploys != 5 || h.Manager != "kube-controller-manager" || h.Since != "2026-01-02T04:04:05Z" {
		t.Fatalf("history %+v, want seen 2 of 5 since the second deploy", h)
	}
	if got := h.Sentence(); got != "kube-controller-manager changed it before 2 of the last 5 deploys" {
		t.Errorf("sentence %q", got)
	}
	// Another manager, another path, another object: not the same fight.
	for _, g := range []model.Finding{
		{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{edit}},
		{Category: model.Drift, Path: ".spec.paused", Managers: []model.Manager{kcm}},
		{Category: model.Release, Path: ".spec.replicas", Managers: []model.Manager{kcm}},
	} {
		if h := twice.Index().Persistent(web, g, "deployer"); h != nil {
			t.Errorf("%+v: %+v", g, h)
		}
	}
	if h := twice.Index().Persistent(api, f, "deployer"); h != nil {
		t.Errorf("api: %+v", h)
	}
	// A fight is persistent whoever wrote the field.
	fight := model.Finding{Category: model.Fight, Path: ".spec.replicas"}
	if h := twice.Index().Persistent(web, fight, "deployer"); h == nil || h.Manager != "kube-controller-manager" {
		t.Errorf("fight: %+v", h)
	}
}

// Only the last Window deploys count: a fight that ended long ago does not
// escalate any more.
func TestPersistentWindow(t *testing.T) {
	var ds []*Deploy
	ds = append(ds, deploy(0, drift(kcm)), deploy(1, drift(kcm)), deploy(2, drift(kcm)))
	for i := 3; i < 3+Window; i++ {
		ds = append(ds, deploy(i))
	}
	f := model.Finding{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{kcm}}
	if h := logOf(ds...).Index().Persistent(web, f, "deployer"); h != nil {
		t.Errorf("%+v", h)
	}
	ds = append(ds, deploy(20, drift(kcm)), deploy(21, drift(kcm)))
	if h := logOf(ds...).Index().Persistent(web, f, "deployer"); h == nil || h.Seen != 2 || h.Deploys != Window {
		t.Errorf("%+v, want 2 of %d", h, Window)
	}
}

// The deploy's own manager co-owning a changed path is not the one who
// fights it.
func TestPersistentNeverTheDeployItself(t *testing.T) {
	self := model.Manager{Manager: "deployer", Operation: "Apply"}
	l := logOf(deploy(0, drift(self)), deploy(1, drift(self)))
	f := model.Finding{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{self}}
	if h := l.Index().Persistent(web, f, "deployer"); h != nil {
		t.Errorf("%+v", h)
	}
}

// record appends a deploy to the store as check --record does.
func record(t testing.TB, s *snapshot.Store, d *Deploy, keep int) {
	t.Helper()
	f, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendLog(ctx, Folder(d.Environment), f.Name, f.Data, keep, "record"); err != nil {
		t.Fatal(err)
	}
}

// read reads the last `last` deploys of env at commit ("" = the tip) as
// the check does.
func read(t testing.TB, s *snapshot.Store, env, commit string, last int) *Log {
	t.Helper()
	files, c, err := s.ReadLog(ctx, Folder(env), commit, last)
	if err != nil {
		t.Fatal(err)
	}
	hf := make([]File, len(files))
	for i, f := range files {
		hf[i] = File{Name: f.Name, Data: f.Data}
	}
	return NewLog(env, s.Branch(), c, hf)
}

// Deploys written to the branch read back in order, the oldest dropped
// beyond the bound.
func TestRecordReadRoundTripAndKeep(t *testing.T) {
	s := newStore(t)
	keep := Window + 2
	for i := 0; i < keep+3; i++ {
		record(t, s, deploy(i, drift(kcm)), keep)
	}
	l := read(t, s, "staging", "", 0)
	if len(l.Deploys) != keep || len(l.Unreadable) != 0 {
		t.Fatalf("%d deploys (%v), want the last %d", len(l.Deploys), l.Unreadable, keep)
	}
	if first := l.Deploys[0]; !first.RecordedAt.Equal(t0.Add(3*time.Hour)) || first.Objects[0].Findings[0].Managers[0] != kcm {
		t.Errorf("oldest kept: %+v", first)
	}
	if last := read(t, s, "staging", "", Window); len(last.Deploys) != Window || !last.Deploys[Window-1].RecordedAt.Equal(t0.Add(time.Duration(keep+2)*time.Hour)) {
		t.Fatalf("last %d: %d deploys", Window, len(last.Deploys))
	}
	if empty := read(t, s, "prod", "", 0); len(empty.Deploys) != 0 {
		t.Errorf("prod: %+v", empty)
	}
}

// A corrupt file or one from a newer version is named, and the rest read.
func TestReadUnreadable(t *testing.T) {
	good, err := Encode(deploy(0, drift(kcm)))
	if err != nil {
		t.Fatal(err)
	}
	newer := `{"schemaVersion": 9, "environment": "staging", "recordedAt": "2026-01-02T00:00:00Z"}`
	l := NewLog("staging", "ownership-snapshots", "0123456789abcdef", []File{
		good, {Name: "x.json", Data: []byte("{not json")}, {Name: "y.json", Data: []byte(newer)},
	})
	if len(l.Deploys) != 1 || len(l.Unreadable) != 2 {
		t.Fatalf("%d deploys, unreadable %v", len(l.Deploys), l.Unreadable)
	}
	if !strings.Contains(l.Unreadable[0].Error(), "_history/staging/x.json (snapshot branch ownership-snapshots at 0123456789ab)") ||
		!errors.Is(l.Unreadable[1], ErrNewerSchema) {
		t.Errorf("unreadable: %v", l.Unreadable)
	}
}

// The file holds no value: it has no field for one.
func TestEncodeDecode(t *testing.T) {
	fight := Finding{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler",
		Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}}
	d := deploy(0, drift(kcm, edit), fight, Finding{Category: model.DryRunError, Reason: "Invalid"})
	f, err := Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decode("staging", f.Data)
	if err != nil {
		t.Fatal(err)
	}
	got := back.Objects[0].Findings
	if len(got) != 3 || len(got[0].Managers) != 2 || got[0].Managers[1] != edit || got[1].Controller.Object.Name != "web" || got[2].Reason != "Invalid" {
		t.Errorf("decoded %s", js(back))
	}
	if !strings.HasPrefix(f.Name, "20260102T030405.000000000Z-") {
		t.Errorf("file name %s", f.Name)
	}
}

func TestFilterAndPersistentFields(t *testing.T) {
	other := &Deploy{Environment: "staging", RecordedAt: t0.Add(9 * time.Hour), FieldManager: "deployer",
		Objects: []Object{{ID: api, Findings: []Finding{{Category: model.New}, {Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{edit}}}}}}
	l := logOf(deploy(0, drift(kcm)), deploy(1, drift(kcm)), deploy(2, drift(kcm), Finding{Category: model.Release, Path: ".metadata.labels.a"}), other)
	f, err := ParseObject("Deployment/shop/web")
	if err != nil {
		t.Fatal(err)
	}
	f.Path = ".spec"
	got := f.Apply(l.Deploys)
	if len(got) != 4 || len(got[2].Objects[0].Findings) != 1 || len(got[3].Objects) != 0 {
		t.Errorf("filtered %s", js(got))
	}
	if len(l.Deploys[2].Objects[0].Findings) != 2 {
		t.Error("Apply changed the log")
	}
	ps := l.Index().Fields(f)
	if len(ps) != 1 || ps[0].Object != web || ps[0].History.Seen != 3 || ps[0].History.Deploys != 4 {
		t.Errorf("persistent %s", js(ps))
	}
	if all := l.Index().Fields(Filter{}); len(all) != 1 {
		t.Errorf("api's one drift is persistent: %s", js(all))
	}
}

func TestParseObject(t *testing.T) {
	for in, want := range map[string]string{
		"Deployment.apps/shop/web":                       "Deployment.apps/shop/web",
		"Namespace/prod":                                 "Namespace/prod",
		"Widget.example.com/ns/w":                        "Widget.example.com/ns/w",
		"ClusterRole.rbac.authorization.k8s.io/system:x": "ClusterRole.rbac.authorization.k8s.io/system:x",
	} {
		f, err := ParseObject(in)
		if err != nil || f.Object.String() != want {
			t.Errorf("%s: %v %v", in, f.Object, err)
		}
	}
	for _, bad := range []string{"web", "a/b/c/d", "Deployment//web", ""} {
		if _, err := ParseObject(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func js(v any) string { b, _ := json.Marshal(v); return string(b) }
