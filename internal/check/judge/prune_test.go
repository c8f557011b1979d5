package judge

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// An object gone from the render is a delete only where its deployer
// prunes it; else it stays, with the removed note saying why.
func TestDeleteOrKeep(t *testing.T) {
	cm := func(annotations map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "old", "namespace": "shop", "annotations": annotations}}}
	}
	removed := func() *report.Object {
		return &report.Object{Change: model.ChangeDelete, Findings: []model.Finding{{Category: model.Removed, Message: model.RemovedMessage}}}
	}
	e := &snapshot.Entry{Applied: cm(nil), Deployed: cm(nil)}
	helm := &delivery.Deployer{Controller: delivery.ControllerHelm}

	ro := removed()
	Input{}.deleteOrKeep(ro, cm(nil), e)
	if ro.Change != model.ChangeDelete || len(ro.Findings) != 1 || ro.Findings[0].Category != model.Delete {
		t.Errorf("a pipeline's: %+v", ro)
	}
	ro = removed()
	Input{Check: Check{Deployer: helm}}.deleteOrKeep(ro, cm(map[string]any{delivery.HelmResourcePolicy: "keep"}), e)
	if ro.Change != model.ChangeNone || len(ro.Findings) != 1 || ro.Findings[0].Category != model.Removed ||
		!strings.HasSuffix(ro.Findings[0].Message, "; it stays in the cluster: Helm never deletes an object annotated helm.sh/resource-policy: keep") {
		t.Errorf("kept by Helm: %+v", ro)
	}
	// Not read from the cluster (offline): what the last deploy left says.
	ro = removed()
	Input{Check: Check{Deployer: helm}}.deleteOrKeep(ro, nil, &snapshot.Entry{Deployed: cm(map[string]any{delivery.HelmResourcePolicy: "keep"})})
	if ro.Change != model.ChangeNone {
		t.Errorf("kept by Helm offline: %+v", ro)
	}
}
