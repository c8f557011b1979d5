package changes

import (
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestTemplateNoPodTakesNowIsNotARollout: OnDelete, a ReplicaSet, a
// paused Deployment and a partition at or above the replicas change the
// template without replacing a pod, so the workload does not roll; its
// strategy says when the pods get the template. Pods below a lower
// partition wait too, but those above it roll now.
func TestTemplateNoPodTakesNowIsNotARollout(t *testing.T) {
	sts := func(replicas int, strategy, image string) string {
		return fmt.Sprintf(`{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}, spec: {replicas: %d, updateStrategy: %s,
  template: {spec: {containers: [{name: db, image: %s}]}}}}`, replicas, strategy, image)
	}
	rs := func(image string) string {
		return `{apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: web}, spec: {replicas: 2, template: {spec: {containers: [{name: app, image: ` + image + `}]}}}}`
	}
	for _, tc := range []struct {
		name, kind      string
		live, predicted string
		replaces        bool
		strategy        string
	}{
		{name: "StatefulSet OnDelete", kind: "StatefulSet",
			live: sts(3, "{type: OnDelete}", "pg:15"), predicted: sts(3, "{type: OnDelete}", "pg:16"),
			strategy: "OnDelete: pods get the new template when each pod is deleted"},
		{name: "partition equal to the replicas", kind: "StatefulSet",
			live:      sts(3, "{type: RollingUpdate, rollingUpdate: {partition: 3}}", "pg:15"),
			predicted: sts(3, "{type: RollingUpdate, rollingUpdate: {partition: 3}}", "pg:16"),
			strategy:  "partition 3 ≥ 3 replicas: no pod gets the new template now; pods get it when the partition is lowered"},
		{name: "partition above the replicas", kind: "StatefulSet",
			live:      sts(1, "{type: RollingUpdate, rollingUpdate: {partition: 4}}", "pg:15"),
			predicted: sts(1, "{type: RollingUpdate, rollingUpdate: {partition: 4}}", "pg:16"),
			strategy:  "partition 4 ≥ 1 replica: no pod gets the new template now; pods get it when the partition is lowered"},
		{name: "partition below the replicas", kind: "StatefulSet", replaces: true,
			live:      sts(5, "{type: RollingUpdate, rollingUpdate: {partition: 3}}", "pg:15"),
			predicted: sts(5, "{type: RollingUpdate, rollingUpdate: {partition: 3}}", "pg:16"),
			strategy:  "5 pods, one at a time, highest ordinal first; partition 3: pods with ordinal ≥ 3 now, the rest when the partition is lowered"},
		{name: "the deploy scales up past the partition", kind: "StatefulSet", replaces: true,
			live:      sts(2, "{type: RollingUpdate, rollingUpdate: {partition: 2}}", "pg:15"),
			predicted: sts(4, "{type: RollingUpdate, rollingUpdate: {partition: 2}}", "pg:16"),
			strategy:  "2 pods, one at a time, highest ordinal first; partition 2: pods with ordinal ≥ 2 now, the rest when the partition is lowered"},
		{name: "the deploy raises the partition to the replicas", kind: "StatefulSet",
			live:      sts(3, "{type: RollingUpdate, rollingUpdate: {partition: 0}}", "pg:15"),
			predicted: sts(3, "{type: RollingUpdate, rollingUpdate: {partition: 3}}", "pg:16"),
			strategy:  "partition 3 ≥ 3 replicas: no pod gets the new template now; pods get it when the partition is lowered"},
		{name: "StatefulSet rolling update", kind: "StatefulSet", replaces: true,
			live: sts(3, "{type: RollingUpdate}", "pg:15"), predicted: sts(3, "{type: RollingUpdate}", "pg:16"),
			strategy: "3 pods, one at a time, highest ordinal first"},
		{name: "paused Deployment", kind: "Deployment",
			live:      `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2, paused: true, template: {spec: {containers: [{name: app, image: nginx:1.26}]}}}}`,
			predicted: `{apiVersion: apps/v1, kind: Deployment, metadata: {name: web}, spec: {replicas: 2, paused: true, template: {spec: {containers: [{name: app, image: nginx:1.27}]}}}}`,
			strategy:  "paused: pods get the new template when the Deployment is resumed"},
		{name: "ReplicaSet", kind: "ReplicaSet", live: rs("nginx:1.26"), predicted: rs("nginx:1.27"),
			strategy: "a ReplicaSet replaces no pod itself: pods get the new template when each pod is deleted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live, pred := obj(t, tc.live), obj(t, tc.predicted)
			r := Of(Input{ID: model.ID{Group: "apps", Kind: tc.kind, Name: live.GetName()}, Live: live, Predicted: pred}).Rollout
			if r.Replaces != tc.replaces || r.Strategy != tc.strategy {
				t.Errorf("replaces %v, strategy %q; want %v, %q", r.Replaces, r.Strategy, tc.replaces, tc.strategy)
			}
			if !r.Template() || len(r.Why) != 1 || len(r.Images) != 1 {
				t.Errorf("the template change is not told: why %v, images %v", r.Why, r.Images)
			}
		})
	}
}

// TestNoTemplateChangeIsNoTemplate: an OnDelete workload whose template
// stays has nothing to say about pods.
func TestNoTemplateChangeIsNoTemplate(t *testing.T) {
	y := `{apiVersion: apps/v1, kind: StatefulSet, metadata: {name: db}, spec: {replicas: 3, updateStrategy: {type: OnDelete}, template: {spec: {containers: [{name: db, image: pg:15}]}}}}`
	r := Of(Input{ID: model.ID{Group: "apps", Kind: "StatefulSet", Name: "db"}, Live: obj(t, y), Predicted: obj(t, y)}).Rollout
	if r.Replaces || r.Template() {
		t.Errorf("unchanged template: %+v", r)
	}
}
