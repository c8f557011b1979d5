package judge

import (
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/predict"
)

// TestCauseOf: per path over head, base and the last deploy; a refusal by
// whether the pull request changes the object, a kind the cluster does not
// serve by whether it brings the object or its apiVersion in; an object
// that could not be checked is told apart from one the server refused.
func TestCauseOf(t *testing.T) {
	obj := func(replicas int64, image string) map[string]any {
		return map[string]any{"spec": map[string]any{"replicas": replicas, "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": image}}}}}}
	}
	applied := obj(3, "web:1")
	withAPIVersion := func(o map[string]any, v string) map[string]any {
		o["apiVersion"] = v
		return o
	}
	noMatch := model.Finding{Category: model.DryRunError, Reason: predict.ReasonNoMatch, Message: `no matches for kind "Widget" in version "example.com/v1"`}
	for _, tc := range []struct {
		name       string
		head, base map[string]any
		baseKnown  bool
		f          model.Finding
		want       model.Cause
	}{
		{"no base", obj(3, "web:1"), nil, false, model.Finding{Category: model.Drift, Path: ".spec.replicas"}, model.CauseUnknown},
		{"the pull request changes the path", obj(4, "web:1"), obj(3, "web:1"), true, model.Finding{Category: model.UpdateConflict, Path: ".spec.replicas"}, model.CausePullRequest},
		{"merged, not deployed", obj(3, "web:2"), obj(3, "web:2"), true,
			model.Finding{Category: model.TakingConflict, Path: `.spec.template.spec.containers[name="app"].image`}, model.CauseUndeployed},
		{"the cluster's drift", obj(3, "web:1"), obj(3, "web:1"), true, model.Finding{Category: model.Drift, Path: ".spec.replicas"}, model.CauseCluster},
		{"refused, object unchanged", obj(3, "web:1"), obj(3, "web:1"), true, model.Finding{Category: model.DryRunError, Reason: "Invalid"}, model.CauseCluster},
		{"refused, object changed elsewhere", obj(3, "web:9"), obj(3, "web:1"), true, model.Finding{Category: model.DryRunError, Reason: "Invalid"}, model.CausePullRequest},
		{"object added by the pull request", obj(3, "web:1"), nil, true, model.Finding{Category: model.New}, model.CausePullRequest},
		{"object removed on the base, not deployed", nil, nil, true, model.Finding{Category: model.Delete}, model.CauseUndeployed},
		{"kind not served, object at the base too", obj(3, "web:1"), obj(3, "web:1"), true, noMatch, model.CauseCluster},
		{"kind not served, object changed by the pull request", obj(3, "web:9"), obj(3, "web:1"), true, noMatch, model.CauseCluster},
		{"kind not served, object brought by the pull request", obj(3, "web:1"), nil, true, noMatch, model.CausePullRequest},
		{"kind not served, its apiVersion brought by the pull request", withAPIVersion(obj(3, "web:1"), "example.com/v2"), withAPIVersion(obj(3, "web:1"), "example.com/v1"), true, noMatch, model.CausePullRequest},
		{"kind not served, no base", obj(3, "web:1"), nil, false, noMatch, model.CauseUnknown},
	} {
		s := states{head: tc.head, base: tc.base, baseKnown: tc.baseKnown, applied: &applied}
		if got := s.causeOf(tc.f); got != tc.want {
			t.Errorf("%s: cause %q, want %q", tc.name, got, tc.want)
		}
	}
	for _, tc := range []struct {
		f    model.Finding
		want bool
	}{
		{model.Finding{Category: model.DryRunError, Reason: "Invalid"}, false},
		{model.Finding{Category: model.DryRunError, Reason: "Forbidden", Message: `deployments.apps "web" is forbidden: User "checker" cannot patch resource "deployments"`}, true},
		{model.Finding{Category: model.DryRunError, Reason: "Forbidden", Message: `admission webhook "policy.example.com" denied the request: no latest tags`}, false},
		{model.Finding{Category: model.DryRunError, Reason: "NotFound"}, true},
		{model.Finding{Category: model.DryRunError, Reason: "NotFound", Message: `dry-run refused (NotFound): namespaces "batch" not found`}, false},
		{model.Finding{Category: model.DryRunError, Reason: ReasonRenderFailed}, false},
		{model.Finding{Category: model.DryRunError, Reason: ReasonCheckFailed}, true},
		{noMatch, false},
		{model.Finding{Category: model.DryRunError, Reason: predict.ReasonUnreachable, Message: "discovery of example.com/v1 failed, so Widget cannot be mapped"}, true},
		{model.Finding{Category: model.Drift}, false},
	} {
		if got := unchecked(tc.f); got != tc.want {
			t.Errorf("unchecked(%s %s %q) = %v, want %v", tc.f.Category, tc.f.Reason, tc.f.Message, got, tc.want)
		}
	}
}
