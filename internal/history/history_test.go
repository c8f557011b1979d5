package history

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

var ctx = context.Background()

const canary = "canary-history-3f9a"

var (
	web  = model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	api  = model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "api"}
	kcm  = model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	edit = model.Manager{Manager: "kubectl-edit", Operation: "Update"}
	t0   = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
)

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

func TestRecordReadRoundTripAndKeep(t *testing.T) {
	s := newStore(t)
	defer func(k int) { keep = k }(keep)
	keep = Window + 2
	for i := 0; i < keep+3; i++ {
		if _, err := Record(ctx, s, deploy(i, drift(kcm))); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Read(ctx, s, "staging", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Deploys) != keep || len(l.Unreadable) != 0 {
		t.Fatalf("%d deploys (%v), want the last %d", len(l.Deploys), l.Unreadable, keep)
	}
	if first := l.Deploys[0]; !first.RecordedAt.Equal(t0.Add(3*time.Hour)) || first.Objects[0].Findings[0].Managers[0] != kcm {
		t.Errorf("oldest kept: %+v", first)
	}
	last, err := Read(ctx, s, "staging", "", Window)
	if err != nil || len(last.Deploys) != Window || !last.Deploys[Window-1].RecordedAt.Equal(t0.Add(time.Duration(keep+2)*time.Hour)) {
		t.Fatalf("last %d: %d deploys, %v", Window, len(last.Deploys), err)
	}
	if empty, err := Read(ctx, s, "prod", "", 0); err != nil || len(empty.Deploys) != 0 {
		t.Errorf("prod: %+v %v", empty, err)
	}
}

// A corrupt file or one from a newer version is named, and the rest read.
func TestReadUnreadable(t *testing.T) {
	s := newStore(t)
	if _, err := Record(ctx, s, deploy(0, drift(kcm))); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendLog(ctx, Folder("staging"), "20260102T000000.000000000Z-x.json", []byte("{not json"), Keep, "t"); err != nil {
		t.Fatal(err)
	}
	newer := `{"schemaVersion": 9, "environment": "staging", "recordedAt": "2026-01-02T00:00:00Z"}`
	if _, err := s.AppendLog(ctx, Folder("staging"), "20260102T000000.000000001Z-y.json", []byte(newer), Keep, "t"); err != nil {
		t.Fatal(err)
	}
	l, err := Read(ctx, s, "staging", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Deploys) != 1 || len(l.Unreadable) != 2 {
		t.Fatalf("%d deploys, unreadable %v", len(l.Deploys), l.Unreadable)
	}
	if !strings.Contains(l.Unreadable[0].Error(), "_history/staging/20260102T000000.000000000Z-x.json") ||
		!errors.Is(l.Unreadable[1], ErrNewerSchema) {
		t.Errorf("unreadable: %v", l.Unreadable)
	}
}

// The record holds paths, categories and managers; never a value, a
// message or a remediation (messages quote values).
func TestFromReportHoldsNoValue(t *testing.T) {
	rep := &report.Report{Environment: "staging", FieldManager: "deployer", Objects: []report.Object{
		{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Findings: []model.Finding{{
			Category: model.UpdateConflict, Path: ".data.password", DeployedValue: canary, LiveValue: canary, DesiredValue: canary,
			Managers: []model.Manager{edit}, Message: "changed from " + canary, Remediation: "set " + canary,
		}}},
		{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web", Findings: []model.Finding{
			{Category: model.Drift, Path: ".spec.replicas", LiveValue: 5, Managers: []model.Manager{kcm}, Message: "changed from 2 to 5"},
			{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler", Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}},
		}},
		{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "clean", Findings: []model.Finding{}},
	}}
	d := FromReport(rep, t0, "abc")
	b, err := encode(d)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte(canary)) || bytes.Contains(b, []byte("changed from")) {
		t.Fatalf("the record holds a value or a message:\n%s", b)
	}
	back, err := decode("staging", b)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Objects) != 2 || back.Objects[1].ID != web || back.Objects[1].Findings[1].Controller.Object.Name != "web" {
		t.Errorf("decoded %s", js(back))
	}
}

func TestTimeline(t *testing.T) {
	fight := Finding{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler",
		Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}}
	other := &Deploy{Environment: "staging", RecordedAt: t0.Add(9 * time.Hour), FieldManager: "deployer",
		Objects: []Object{{ID: api, Findings: []Finding{{Category: model.New}}}}}
	l := logOf(deploy(0, drift(kcm), fight), deploy(1, drift(kcm), fight), deploy(2, drift(kcm), fight), other)
	var b strings.Builder
	filter, err := ParseObject("Deployment/shop/web")
	if err != nil {
		t.Fatal(err)
	}
	filter.Path = ".spec"
	if err := WriteText(&b, l, filter); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"history of staging: 4 recorded deploys",
		"2026-01-02T03:04:05Z  deploy of 000000000000 as deployer",
		"Deployment.apps/shop/web .spec.replicas: kube-controller-manager (Update, scale) changed it; the deploy reverted it (drift)",
		"Deployment.apps/shop/web .spec.replicas: the deploy sent it although HorizontalPodAutoscaler shop/web manages it (fight)",
		"  nothing found\n",
		"Deployment.apps/shop/web .spec.replicas: kube-controller-manager changed it before 3 of the last 4 deploys, first 2026-01-02T03:04:05Z",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "api") {
		t.Errorf("the filter lets another object through:\n%s", out)
	}
	var j strings.Builder
	if err := WriteJSON(&j, l, Filter{}); err != nil {
		t.Fatal(err)
	}
	var got timeline
	if err := json.Unmarshal([]byte(j.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Deploys) != 4 || len(got.Persistent) != 1 || got.Persistent[0].History.Seen != 3 {
		t.Errorf("json: %s", j.String())
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
