package reporttest

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
)

func pods(n int64) *int64 { return &n }

// Changes is a pull request that does one of each thing to the cluster: an
// image bump in one container of two, a ConfigMap change no workload picks
// up, a Secret value change, a generated ConfigMap rename, a scale-down,
// a new and a deleted object, a webhook's caBundle (a long value) and a
// checksum annotation.
func Changes() *report.Report {
	r := base("staging")
	deploy := func(name string) report.Object {
		return report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: name,
			Source: "deploy/base/" + name + ".yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeUpdate}
	}
	web := deploy("web")
	web.Diff = []model.FieldChange{
		{Path: `.spec.template.metadata.annotations.checksum/config`, Before: "4f1c9e", After: "9b2d77"},
		{Path: `.spec.template.spec.containers[name="app"].image`, Before: "nginx:1.26", After: "nginx:1.27"},
		{Path: `.spec.template.spec.volumes[name="config"].configMap.name`, Before: "app-config-5gm2mt6bbk", After: "app-config-9bk7tmcdtg"},
	}
	web.Rollout = &model.Rollout{Replaces: true, Why: []string{"pod annotations", "image of app", "ConfigMap app-config-5gm2mt6bbk → app-config-9bk7tmcdtg"},
		Images: []model.ImageChange{{Container: "app", From: "nginx:1.26", To: "nginx:1.27"}},
		Pods:   pods(12), Strategy: "12 pods, 6 at a time (maxSurge 25%, maxUnavailable 25%)"}
	api := deploy("api")
	api.Diff = []model.FieldChange{{Path: ".spec.replicas", Before: int64(3), After: int64(1)}}
	api.Rollout = &model.Rollout{Why: []string{}, Images: []model.ImageChange{}, Replicas: &model.Replicas{From: 3, To: 1}, Pods: pods(3)}
	api.Findings = []model.Finding{{Category: model.ScaleDown, Path: ".spec.replicas", LiveValue: int64(3), DesiredValue: int64(1),
		Message: "scales down from 3 to 1 pod: 2 pods are stopped (a manifest without replicas resets them to the default)"}}
	settings := report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings", Source: "deploy/base/settings.yaml", Line: 1,
		Baseline: "snapshot", Change: model.ChangeUpdate, Diff: []model.FieldChange{{Path: ".data.level", Before: "info", After: "debug"}},
		Notes: []string{"no workload of this render rolls with this change: it takes effect only at the next restart of the pods that use it"},
		Bodies: &model.Bodies{
			Before: "apiVersion: v1\ndata:\n  level: info\n  region: eu\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n",
			After:  "apiVersion: v1\ndata:\n  level: debug\n  region: eu\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\n"}}
	// The producer forgot to hide the values: the renderers must.
	secret := report.Object{APIVersion: "v1", Kind: "Secret", Namespace: "shop", Name: "db", Source: "deploy/base/secret.yaml", Line: 1,
		Baseline: "snapshot", Change: model.ChangeUpdate, Diff: []model.FieldChange{{Path: ".data.password", Before: "c3VwZXJzZWNyZXQ=", After: "hunter2"}},
		Bodies: &model.Bodies{
			Before: "apiVersion: v1\ndata:\n  password: c3VwZXJzZWNyZXQ=\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\n",
			After:  "apiVersion: v1\ndata:\n  password: hunter2\nkind: Secret\nmetadata:\n  name: db\n  namespace: shop\nstringData:\n  token: bm90LWhpZGRlbg==\n"}}
	rename := &model.Rename{From: "app-config-5gm2mt6bbk", To: "app-config-9bk7tmcdtg"}
	oldConfig := report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: rename.From, Baseline: "snapshot", Change: model.ChangeRename, Rename: rename}
	newConfig := report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: rename.To, Source: "deploy/base/kustomization.yaml", Line: 9,
		Baseline: "live", Change: model.ChangeRename, Rename: rename, Findings: []model.Finding{{Category: model.New, Message: "not in the cluster: the deploy creates it"}}}
	created := report.Object{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web-canary", Source: "deploy/base/canary.yaml", Line: 1,
		Baseline: "live", Change: model.ChangeCreate, Findings: []model.Finding{{Category: model.New, Message: "not in the cluster: the deploy creates it"}},
		Bodies: &model.Bodies{After: "apiVersion: v1\nkind: Service\nmetadata:\n  name: web-canary\n  namespace: shop\nspec:\n  ports:\n  - port: 80\n  selector:\n    app: web\n    track: canary\n"}}
	deleted := report.Object{APIVersion: "batch/v1", Kind: "CronJob", Namespace: "shop", Name: "cleanup", Baseline: "snapshot", Change: model.ChangeDelete,
		Findings: []model.Finding{{Category: model.Delete, Message: "gone from the render: a pruning deploy deletes it (the last deploy applied it)"}}}
	webhook := report.Object{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: "shop-policy",
		Source: "deploy/base/webhook.yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeUpdate,
		Diff: []model.FieldChange{{Path: `.webhooks[name="policy.shop.example"].clientConfig.caBundle`,
			Before: "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t" + strings.Repeat("QUJD", 300), After: "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0t" + strings.Repeat("REVG", 300)}}}
	unchanged := report.Object{APIVersion: "v1", Kind: "Service", Namespace: "shop", Name: "web", Source: "deploy/base/service.yaml", Line: 1,
		Baseline: "snapshot", Change: model.ChangeNone, Diff: []model.FieldChange{}}
	r.Objects = []report.Object{api, web, created, unchanged, settings, oldConfig, newConfig, secret, deleted, webhook}
	r.Summarize()
	return r
}

// ImageBump is n Deployments whose one container moves from nginx 1.26
// to 1.27: the same change on every object, which the comment says once
// with a count.
func ImageBump(env string, n int) *report.Report {
	r := base(env)
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("svc-%03d", i)
		r.Objects = append(r.Objects, report.Object{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: name,
			Source: "deploy/apps/" + name + ".yaml", Line: 1, Baseline: "snapshot", Change: model.ChangeUpdate, Findings: []model.Finding{},
			Diff: []model.FieldChange{
				{Path: `.spec.template.spec.containers[name="app"].image`, Before: "nginx:1.26", After: "nginx:1.27"},
				{Path: ".metadata.labels.helm.sh/chart", Before: "shop-1.8.0", After: "shop-1.8.1"},
			},
			Rollout: &model.Rollout{Replaces: true, Why: []string{"image of app"},
				Images: []model.ImageChange{{Container: "app", From: "nginx:1.26", To: "nginx:1.27"}},
				Pods:   pods(4), Strategy: "4 pods, 2 at a time (maxSurge 25%, maxUnavailable 25%)"}})
	}
	r.Summarize()
	return r
}

// ManyChanges is n ConfigMaps, each with its own long change: more diff
// than any comment can hold.
func ManyChanges(env string, n int) *report.Report {
	r := base(env)
	for i := 0; i < n; i++ {
		r.Objects = append(r.Objects, report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "shop", Name: fmt.Sprintf("cm-%04d", i),
			Source: "deploy/base/cms.yaml", Line: 1 + 6*i, Baseline: "snapshot", Change: model.ChangeUpdate, Findings: []model.Finding{},
			Diff: []model.FieldChange{{Path: ".data.config", Before: strings.Repeat(fmt.Sprintf("old-%04d ", i), 40), After: strings.Repeat(fmt.Sprintf("new-%04d ", i), 40)}}})
	}
	r.Summarize()
	return r
}
