package remedy

import (
	"strings"
	"testing"

	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/model"
)

var (
	web = model.ID{Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "web"}
	hpa = model.Controller{Name: "HorizontalPodAutoscaler", Manager: "kube-controller-manager",
		Object: &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: "shop", Name: "web"}}
	ctx = Context{FieldManager: "deployer", Paths: []string{"deploy/overlays/staging"}}
)

// The rule a remedy gives is one config.Load accepts, and it ignores
// exactly the field of exactly the object.
func TestIgnoreRuleParses(t *testing.T) {
	for _, c := range []struct {
		id   model.ID
		path string
	}{
		{web, ".spec.replicas"},
		{model.ID{Kind: "ConfigMap", Namespace: "shop", Name: "settings"}, ".data.mode"},
		{model.ID{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration", Name: "shop"}, `.webhooks[name="a.shop.example.com"].clientConfig.caBundle`},
		{model.ID{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "system:shop:reader"}, ".metadata.labels.team"},
	} {
		y := IgnoreRule(c.id, c.path, "managed by HorizontalPodAutoscaler shop/web: it scales it")
		cfg, err := config.Parse("remedy", []byte(y))
		if err != nil {
			t.Fatalf("%s:\n%s\n%v", c.id, y, err)
		}
		r := cfg.Ignore[0]
		if r.Path != c.path || !r.Selects(c.id.Group, c.id.Kind, c.id.Namespace, c.id.Name) {
			t.Errorf("%s: rule %+v", c.id, r)
		}
		if r.Selects("other", c.id.Kind, c.id.Namespace, c.id.Name) || r.Selects(c.id.Group, c.id.Kind, c.id.Namespace, c.id.Name+"x") {
			t.Errorf("%s: rule %+v selects other objects", c.id, r)
		}
	}
}

func TestFightAndPersistentDriftShareTheRemedy(t *testing.T) {
	webhook := model.ID{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration", Name: "shop"}
	caBundle := `.webhooks[name="a.shop.example.com"].clientConfig.caBundle`
	injector := model.Controller{Name: "cert-manager cainjector", Manager: "cert-manager-cainjector"}
	fs := []model.Finding{
		{Category: model.Drift, Path: caBundle, LiveValue: "Y2E=", DesiredValue: "", Managers: []model.Manager{{Manager: "cert-manager-cainjector", Operation: "Apply"}},
			History: &model.History{Seen: 3, Deploys: 3, Manager: "cert-manager-cainjector"}},
		{Category: model.Fight, Path: caBundle, Controller: &injector},
		{Category: model.Release, Path: ".metadata.labels.team"},
	}
	Object(model.Object{ID: webhook, Source: "deploy/webhook.yaml"}, fs, ctx)
	r := fs[1].Remediation
	for _, want := range []string{
		"Leave " + caBundle + " to the one that keeps setting it: add this rule to .ownership-check.yaml",
		"    ignore:\n    - group: admissionregistration.k8s.io\n      kind: ValidatingWebhookConfiguration\n      name: shop\n",
		"      reason: managed by cert-manager cainjector\n",
		"    ownership-check render --show-secrets deploy/overlays/staging | kubectl apply --server-side --field-manager deployer -f -",
	} {
		if !strings.Contains(r, want) {
			t.Errorf("fight remedy lacks %q:\n%s", want, r)
		}
	}
	if fs[0].Remediation != r {
		t.Errorf("the persistent drift's remedy differs from the fight's:\n%s", fs[0].Remediation)
	}
	if fs[2].Remediation != "" {
		t.Errorf("a note got a remedy: %s", fs[2].Remediation)
	}
}

func TestPersistentDriftWithoutFight(t *testing.T) {
	f := model.Finding{Category: model.Drift, Path: ".spec.replicas", History: &model.History{Seen: 2, Deploys: 4, Manager: "kubectl"}}
	if r := For(web, "", f, ctx); !strings.Contains(r, "reason: changed by kubectl before 2 of the last 4 deploys") {
		t.Errorf("%s", r)
	}
}

func TestOneOffs(t *testing.T) {
	edit := []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}
	img := `.spec.template.spec.containers[name="app"].image`
	up := For(web, "deploy/web.yaml", model.Finding{Category: model.UpdateConflict, Path: img, DeployedValue: "nginx:1.25", LiveValue: "nginx:1.26", DesiredValue: "nginx:1.27", Managers: edit}, ctx)
	if up != `The deploy's change wins: "nginx:1.27" replaces the "nginx:1.26" that kubectl-edit (Update) set since the last deploy. To keep "nginx:1.26" instead, set it in deploy/web.yaml in this pull request.` {
		t.Errorf("update-conflict: %s", up)
	}
	drift := For(web, "deploy/web.yaml", model.Finding{Category: model.Drift, Path: ".spec.replicas", LiveValue: 5, DesiredValue: 3, Managers: edit}, ctx)
	if !strings.HasPrefix(drift, "The deploy puts back 3 over the 5 that kubectl-edit (Update) set. To keep 5, set it in deploy/web.yaml") {
		t.Errorf("drift: %s", drift)
	}
	gone := For(web, "deploy/web.yaml", model.Finding{Category: model.Drift, Path: model.WholeObject, History: &model.History{Seen: 2, Deploys: 2}}, ctx)
	if gone != "The deploy creates the object again. If it should stay deleted, remove it from deploy/web.yaml (the manifests the deploy renders) in this pull request." {
		t.Errorf("deleted out of band: %s", gone)
	}
	taking := For(web, "", model.Finding{Category: model.TakingConflict, Path: ".spec.replicas", LiveValue: 4, DesiredValue: 2, Managers: []model.Manager{{Manager: "hpa", Operation: "Apply"}}}, ctx)
	if !strings.Contains(taking, "      path: .spec.replicas\n      reason: managed by hpa (Apply)") {
		t.Errorf("taking-conflict: %s", taking)
	}
	split := For(web, "", model.Finding{Category: model.SplitOwnership, Path: `.spec.template.spec.initContainers[name="base-os-bash"]`}, ctx)
	if !strings.HasSuffix(split, `    ownership-check migrate deploy/overlays/staging --field-manager deployer --scope '.spec.template.spec.initContainers[name="base-os-bash"]'`) {
		t.Errorf("split: %s", split)
	}
}

func TestSecretValuesStayHidden(t *testing.T) {
	const canary = "canary-remedy-91c2"
	secret := model.ID{Kind: "Secret", Namespace: "shop", Name: "db"}
	for _, c := range []model.Category{model.Drift, model.UpdateConflict, model.TakingConflict} {
		r := For(secret, "deploy/db.yaml", model.Finding{Category: c, Path: ".data.password", LiveValue: canary, DesiredValue: canary, DeployedValue: canary}, ctx)
		if r == "" || strings.Contains(r, canary) {
			t.Errorf("%s: %s", c, r)
		}
	}
}

func TestRecreateAndKeepPods(t *testing.T) {
	id := model.ID{Group: "apps", Kind: "StatefulSet", Namespace: "prod", Name: "db"}
	c := Context{FieldManager: "deployer", Paths: []string{"deploy/prod"}}
	got := For(id, "deploy/prod/db.yaml", model.Finding{Category: model.RecreateRequired, Path: ".spec"}, c)
	for _, want := range []string{"    kubectl delete statefulset.apps/db -n prod --cascade=orphan",
		"    ownership-check render --show-secrets deploy/prod | kubectl apply --server-side --field-manager deployer -f -"} {
		if !strings.Contains(got, want) {
			t.Errorf("recreate remedy %q lacks %q", got, want)
		}
	}
	got = For(id, "deploy/prod/db.yaml", model.Finding{Category: model.ScaleDown, Path: ".spec.replicas", LiveValue: int64(5), DesiredValue: int64(1)}, c)
	if got != "To keep 5 pods, set replicas: 5 in deploy/prod/db.yaml." {
		t.Errorf("scale-down remedy %q", got)
	}
}

// A field an overlay's patch sets is fixed in the patch, not the base's
// document; a field no patch sets, in the object's own file.
func TestRemedyNamesThePatch(t *testing.T) {
	obj := model.Object{ID: web, Source: "base/web.yaml", PatchedAt: func(p fieldpath.Path) string {
		if p.String() == model.ReplicasPath {
			return "overlays/prod/replicas-patch.yaml:7"
		}
		return ""
	}}
	fs := []model.Finding{
		{Category: model.ScaleDown, Path: model.ReplicasPath, LiveValue: int64(3), DesiredValue: int64(1)},
		{Category: model.Drift, Path: ".spec.template.spec.serviceAccountName", LiveValue: "a", DesiredValue: "b",
			Managers: []model.Manager{{Manager: "kubectl-edit", Operation: "Update"}}},
	}
	Object(obj, fs, ctx)
	if want := "To keep 3 pods, set replicas: 3 in overlays/prod/replicas-patch.yaml:7."; fs[0].Remediation != want {
		t.Errorf("patched field's remedy:\n got %s\nwant %s", fs[0].Remediation, want)
	}
	if !strings.Contains(fs[1].Remediation, "set it in base/web.yaml") {
		t.Errorf("unpatched field's remedy does not name the base's file: %s", fs[1].Remediation)
	}
}
