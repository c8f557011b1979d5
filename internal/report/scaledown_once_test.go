package report_test

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

// TestScaleDownSaidOnce: a scale-down is one statement; the reset and the
// release of the same replicas are how it happens, not further facts. The
// release of another path stays.
func TestScaleDownSaidOnce(t *testing.T) {
	o := report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "payments", Findings: []model.Finding{
		{Category: model.ScaleDown, Path: ".spec.replicas", LiveValue: int64(3), DesiredValue: int64(1)},
		{Category: model.Reset, Path: ".spec.replicas", DeployedValue: int64(3), LiveValue: int64(3)},
		{Category: model.Release, Path: ".spec.replicas"},
		{Category: model.Release, Path: ".metadata.labels.team"},
	}}
	gs := o.Groups()
	if len(gs) != 2 || gs[0].Category != model.ScaleDown || gs[1].Category != model.Release ||
		len(gs[1].Findings) != 1 || gs[1].Findings[0].Path != ".metadata.labels.team" {
		t.Errorf("groups %+v, want the scale-down and the label's release", gs)
	}
	if o.Display() != "Deployment shop/payments" {
		t.Errorf("display %q", o.Display())
	}
}
