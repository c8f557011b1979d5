package targets_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/targets"
	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/values"
)

// appTemplateCharts answers every chart with an app-template-style chart,
// as a mirror of bjw-s's Helm repository would.
type appTemplateCharts struct {
	render.RepositoryCharts
	archive []byte
}

func (a appTemplateCharts) Locate(_ context.Context, ref delivery.ChartRef) (delivery.LocatedChart, error) {
	if ref.InRepository() {
		return delivery.LocatedChart{Dir: ref.Path}, nil
	}
	return delivery.LocatedChart{Archive: a.archive, Pin: delivery.ChartPin{Name: ref.Chart, Version: ref.Version, Digest: fmt.Sprintf("sha256:%x", sha256.Sum256(a.archive)), From: ref.URL}}, nil
}

// placeholder is a Secret value's stand-in (model.StandIns).
var placeholder = regexp.MustCompile(`s[0-9a-f]{31}`)

// TestEncryptedParentOverTheFleet: bjw-s-labs/home-ops as it was while
// cluster-apps substituted from the SOPS-encrypted cluster-secrets, over
// thirteen apps, each a Kustomization and a HelmRelease that take the
// domain from that Secret (26 children; 23 of them targets). Discovery renders the parents with the
// Secret's placeholders: every Kustomization and HelmRelease is a target
// and checked, none "encrypted", no ${VAR} left in any of them, but for
// those named after a key of the Secret: wallabag's HelmRelease, listed
// under its Kustomization, and vikunja's Kustomization, listed under
// cluster-apps with what it would apply, each not checked, naming the
// Secret and the key. The check's render of a child puts the placeholder
// where the Secret's value goes, marked as the Secret's, and never the
// encrypted text.
func TestEncryptedParentOverTheFleet(t *testing.T) {
	_, cfg := publicCheckout(t, "bjw-s-home-ops-sops")
	plan, err := homeops.NewPlan(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	charts := appTemplateCharts{archive: plan.Charts[0].Archive}
	ctx := context.Background()
	ts, err := targets.ListLocated(ctx, cfg, charts)
	if err != nil {
		t.Fatal(err)
	}
	apps := []string{"actual", "atuin", "it-tools", "manyfold", "miniflux", "node-red", "ocis", "paperless", "searxng", "vikunja", "wallabag", "echo-server", "openspeedtest"}
	byName := map[string]targets.Target{}
	for _, g := range ts {
		byName[g.Name] = g
		if !g.Checked() {
			t.Errorf("%s: not checked: %s", g.Name, g.Reason)
		}
		if body, _ := yaml.Marshal(g.Deployer.Object); strings.Contains(string(body), "${SECRET") {
			t.Errorf("%s: a variable of the Secret is left in its object:\n%s", g.Name, body)
		}
	}
	var children []string
	for _, app := range apps {
		if app != "vikunja" {
			children = append(children, "flux-system/"+app)
		}
		if app != "wallabag" && app != "vikunja" {
			ns := "selfhosted"
			if app == "echo-server" || app == "openspeedtest" {
				ns = "network"
			}
			children = append(children, "HelmRelease/"+app+"."+ns)
		}
	}
	for _, c := range children {
		if _, ok := byName[c]; !ok {
			t.Errorf("%s is no target", c)
		}
	}
	if want := len(children) + 2; len(ts) != want {
		t.Errorf("%d targets, want %d: cluster, cluster-apps and %d children", len(ts), want, len(children))
	}
	const key = "Secret flux-system/cluster-secrets key SECRET_INSTANCE"
	under := byName["flux-system/wallabag"].NotTargets
	if len(under) != 1 || under[0].Kind != "HelmRelease" || under[0].File != "kubernetes/main/apps/selfhosted/wallabag/app/helmrelease.yaml" ||
		!strings.Contains(under[0].Reason, key) || !strings.Contains(under[0].Reason, "not checked") {
		t.Errorf("under flux-system/wallabag: %+v, want its HelmRelease, not checked, naming the Secret and key", under)
	}
	under = byName["flux-system/cluster-apps"].NotTargets
	if len(under) != 2 || under[0].Kind != "Kustomization" || under[0].File != "kubernetes/main/apps/selfhosted/vikunja/ks.yaml" ||
		under[1].Kind != "HelmRelease" || under[1].File != "kubernetes/main/apps/selfhosted/vikunja/app/helmrelease.yaml" {
		t.Fatalf("under flux-system/cluster-apps: %+v, want vikunja's Kustomization and its HelmRelease", under)
	}
	for _, n := range under {
		if !strings.Contains(n.Reason, key) || !strings.Contains(n.Reason, "not checked") || placeholder.MatchString(n.Name+n.Reason) {
			t.Errorf("under flux-system/cluster-apps: %s: %q, want not checked, naming the Secret and key, and no placeholder", n.Display(), n.Reason)
		}
	}

	// it-tools' own substitute takes the domain from the parent's: the
	// placeholder, which the Kustomization's render carries on into its
	// HelmRelease.
	for _, c := range []string{"flux-system/it-tools", "HelmRelease/it-tools.selfhosted", "HelmRelease/miniflux.selfhosted"} {
		if g, ok := byName[c]; !ok || g.Deployer == nil || !g.Checked() {
			t.Fatalf("%s: %+v, want a checked target", c, g)
		}
	}
	itTools := byName["flux-system/it-tools"]
	if len(itTools.Deployer.StandIns) != 1 || model.SecretKeys(itTools.Deployer.StandIns[0].Keys) != "Secret flux-system/cluster-secrets key SECRET_DOMAIN" {
		t.Errorf("flux-system/it-tools: stand-ins %+v, want its APP_HOST from SECRET_DOMAIN", itTools.Deployer.StandIns)
	}
	if body, _ := yaml.Marshal(byName["HelmRelease/it-tools.selfhosted"].Deployer.Object); !placeholder.MatchString(string(body)) {
		t.Errorf("HelmRelease/it-tools.selfhosted holds no placeholder:\n%s", body)
	}

	renderChild := func(name string) render.Result {
		t.Helper()
		g := byName[name]
		paths := make([]string, len(g.Paths))
		for i, p := range g.Paths {
			paths[i] = filepath.FromSlash(p)
		}
		vr := values.New([]string{"kubernetes/main/flux"}, nil)
		r, err := render.RenderAll(ctx, paths, render.Options{Config: cfg, Deployer: g.Deployer, Values: vr, Charts: charts, StandInSecrets: true})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(r.NotRendered) > 0 || len(r.Objects) == 0 {
			t.Fatalf("%s: %d objects, not rendered: %+v", name, len(r.Objects), r.NotRendered)
		}
		for _, o := range r.Objects {
			body, _ := yaml.Marshal(o.Object.Object)
			for _, never := range []string{"${SECRET", "ENC[", "q3VnJ0cDk5x1", "bjw-s.dev"} {
				if strings.Contains(string(body), never) {
					t.Errorf("%s: %s holds %q", name, o.ID, never)
				}
			}
		}
		return r
	}
	// miniflux's HelmRelease: BASE_URL is https://miniflux.<placeholder>,
	// from the Secret's key, its value not compared.
	found := false
	for _, o := range renderChild("HelmRelease/miniflux.selfhosted").Objects {
		if o.ID.Kind != "Deployment" {
			continue
		}
		for _, f := range o.FromSecret {
			v, _, _ := model.ValueAt(o.Object.Object, f.Path)
			s := fmt.Sprint(v)
			if strings.HasPrefix(s, "https://miniflux.") && placeholder.MatchString(s) && slices.Contains(f.Keys, model.SecretKey{Namespace: "flux-system", Name: "cluster-secrets", Key: "SECRET_DOMAIN"}) {
				found = true
			}
		}
	}
	if !found {
		t.Error("miniflux's Deployment has no BASE_URL made from SECRET_DOMAIN's placeholder")
	}
	// it-tools' Kustomization: its HelmRelease's host is the placeholder
	// its own substitute got from the parent, marked as the Secret's.
	found = false
	for _, o := range renderChild("flux-system/it-tools").Objects {
		if o.ID.Kind != "HelmRelease" {
			continue
		}
		for _, f := range o.FromSecret {
			v, _, _ := model.ValueAt(o.Object.Object, f.Path)
			if s := fmt.Sprint(v); strings.HasPrefix(s, "it-tools.") && placeholder.MatchString(s) && model.SecretKeys(f.Keys) == "Secret flux-system/cluster-secrets key SECRET_DOMAIN" {
				found = true
			}
		}
	}
	if !found {
		t.Error("it-tools' HelmRelease has no host made from SECRET_DOMAIN's placeholder")
	}
}
