package printer

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
)

func TestHistory(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	web := model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	api := model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "api"}
	kcm := model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	fight := history.Finding{Category: model.Fight, Path: ".spec.replicas", Controller: &model.Controller{Name: "HorizontalPodAutoscaler",
		Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}}
	drift := history.Finding{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{kcm}}
	var deploys []*history.Deploy
	for i := 0; i < 3; i++ {
		deploys = append(deploys, &history.Deploy{Environment: "staging", RecordedAt: t0.Add(time.Duration(i) * time.Hour),
			FieldManager: "deployer", SourceCommit: strings.Repeat("ab", 20), Objects: []history.Object{{ID: web, Findings: []history.Finding{drift, fight}}}})
	}
	deploys = append(deploys, &history.Deploy{Environment: "staging", RecordedAt: t0.Add(9 * time.Hour), FieldManager: "deployer",
		Objects: []history.Object{{ID: api, Findings: []history.Finding{{Category: model.New}}}}})
	l := &history.Log{Environment: "staging", Branch: "ownership-snapshots", Commit: strings.Repeat("cd", 20), Deploys: deploys}
	f, err := history.ParseObject("Deployment/shop/web")
	if err != nil {
		t.Fatal(err)
	}
	f.Path = ".spec"
	var b strings.Builder
	if err := History(&b, l, f); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"history of staging: 4 recorded deploys, oldest first (snapshot branch ownership-snapshots at cdcdcdcdcdcd)",
		"2026-01-02T03:04:05Z  deploy of abababababab as deployer",
		"Deployment.apps/shop/web .spec.replicas: kube-controller-manager (Update, scale) changed it; the deploy reverted it (drift)",
		"Deployment.apps/shop/web .spec.replicas: the deploy sent it although HorizontalPodAutoscaler shop/web manages it (fight)",
		"2026-01-02T12:04:05Z  deploy of an unknown commit as deployer\n  nothing found\n",
		"Deployment.apps/shop/web .spec.replicas: kube-controller-manager changed it before 3 of the last 4 deploys, first 2026-01-02T03:04:05Z",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("timeline lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "api") {
		t.Errorf("the filter lets another object through:\n%s", out)
	}
	b.Reset()
	if err := HistoryJSON(&b, l, history.Filter{}); err != nil {
		t.Fatal(err)
	}
	var got historyJSON
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Deploys) != 4 || len(got.Persistent) != 1 || got.Persistent[0].History.Seen != 3 || got.Window != history.Window {
		t.Errorf("json: %s", b.String())
	}
}

// TestHistoryLineWording: every category of the table is worded from its
// own row, none falls back to "recorded", and every placeholder is filled.
func TestHistoryLineWording(t *testing.T) {
	id := model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "flags"}
	kcm := model.Manager{Manager: "kubectl-edit", Operation: "Update"}
	for _, c := range model.Categories {
		line := historyLine(id, history.Finding{Category: c, Path: ".data.mode", Reason: "Invalid", Managers: []model.Manager{kcm}})
		if strings.Contains(line, ": recorded (") || strings.ContainsAny(line, "{}") {
			t.Errorf("%s: %q", c, line)
		}
	}
	if line := historyLine(id, history.Finding{Category: "from-a-newer-version"}); !strings.Contains(line, ": recorded (from-a-newer-version)") {
		t.Errorf("an unknown category: %q, want it recorded under its own name", line)
	}
}
