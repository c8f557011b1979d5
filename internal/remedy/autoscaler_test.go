package remedy

import (
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// Replicas an autoscaler owns are fixed by leaving them out of the
// manifest: "set replicas: 3" would make the fight permanent.
func TestAutoscalerOwnedReplicasAreRemovedFromTheManifest(t *testing.T) {
	keda := model.Controller{Name: "KEDA ScaledObject", Object: &model.ID{Group: "keda.sh", Kind: "ScaledObject", Namespace: "shop", Name: "web"}}
	hpaApply := model.Manager{Manager: "hpa", Operation: "Apply"}
	hpaScale := model.Manager{Manager: "kube-controller-manager", Operation: "Update", Subresource: "scale"}
	scaleDown := model.Finding{Category: model.ScaleDown, Path: ".spec.replicas", LiveValue: int64(3), DesiredValue: int64(2)}
	for _, c := range []struct {
		name     string
		findings []model.Finding
		scaler   string
	}{
		{"a fight with an HPA", []model.Finding{
			{Category: model.Fight, Path: ".spec.replicas", Controller: &hpa},
			{Category: model.Drift, Path: ".spec.replicas", LiveValue: 5, DesiredValue: 2, Managers: []model.Manager{hpaScale},
				History: &model.History{Seen: 3, Deploys: 3, Manager: "kube-controller-manager"}},
		}, "HorizontalPodAutoscaler shop/web"},
		{"a fight with a KEDA ScaledObject", []model.Finding{{Category: model.Fight, Path: ".spec.replicas", Controller: &keda}},
			"KEDA ScaledObject shop/web"},
		{"a scale-down taking replicas from the autoscaler's manager", []model.Finding{
			scaleDown,
			{Category: model.Taking, Path: ".spec.replicas", LiveValue: 3, DesiredValue: 2, Managers: []model.Manager{hpaApply}},
		}, "hpa (Apply)"},
		{"a taking-conflict with the HPA's scale", []model.Finding{
			{Category: model.TakingConflict, Path: ".spec.replicas", LiveValue: 4, DesiredValue: 2, Managers: []model.Manager{hpaScale}},
		}, "kube-controller-manager (Update, scale)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			Object(model.Object{ID: web, Source: "deploy/web.yaml"}, c.findings, ctx)
			want := "Remove replicas from deploy/web.yaml, so that " + c.scaler + " alone owns the replica count"
			for _, f := range c.findings {
				if model.LevelOf(f.Category) == model.LevelNote {
					if f.Remediation != "" {
						t.Errorf("note %s got a remedy: %s", f.Category, f.Remediation)
					}
					continue
				}
				if !strings.HasPrefix(f.Remediation, want) {
					t.Errorf("%s remedy:\n got %s\nwant %s…", f.Category, f.Remediation, want)
				}
				if strings.Contains(f.Remediation, "set replicas") || strings.Contains(f.Remediation, "ignore:") {
					t.Errorf("%s remedy pins or ignores the autoscaler's field: %s", f.Category, f.Remediation)
				}
			}
		})
	}
}

// A scale-down no autoscaler is part of keeps its fix: pin the count.
func TestScaleDownWithoutAutoscalerPinsReplicas(t *testing.T) {
	fs := []model.Finding{
		{Category: model.ScaleDown, Path: ".spec.replicas", LiveValue: int64(3), DesiredValue: int64(1)},
		{Category: model.Drift, Path: ".spec.replicas", LiveValue: 3, DesiredValue: 1,
			Managers: []model.Manager{{Manager: "kubectl", Operation: "Update", Subresource: "scale"}}},
	}
	Object(model.Object{ID: web, Source: "deploy/web.yaml"}, fs, ctx)
	if fs[0].Remediation != "To keep 3 pods, set replicas: 3 in deploy/web.yaml." {
		t.Errorf("scale-down remedy: %s", fs[0].Remediation)
	}
	if strings.Contains(fs[1].Remediation, "Remove replicas") {
		t.Errorf("kubectl scale taken for an autoscaler: %s", fs[1].Remediation)
	}
}
