package gitops

import (
	"context"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
)

// argoCDManager is the field manager Argo CD's sync passes to every apply
// (gitops-engine's WithServerSideApplyManager, set by the application
// controller whatever the sync options, since Argo CD 2.5): a server-side
// apply records it as Apply, with conflicts forced; its client-side apply
// (kubectl's apply library, which creates and patches under the manager it
// is given) records it as Update. A resource's own
// argocd.argoproj.io/sync-options annotation may switch either way; render
// sees it, discovery reads the Application only.
const argoCDManager = "argocd-controller"

// argoCD finds the targets under one `argocd:` directory: every
// Application, every Application its ApplicationSets make, and the
// Applications an app-of-apps deploys from this repository.
func (s *discovery) argoCD(ctx context.Context, entry int, e config.Discover) error {
	docs, err := s.documents(ctx, e.ArgoCD, true)
	if err != nil {
		return err
	}
	var apps []argoApp
	for _, d := range docs {
		if d.is(groupArgoCD, "Application") {
			s.apps[d.where()] = true
			apps = append(apps, argoApp{file: d.file, obj: d.obj})
		}
	}
	// The installation's build options as its own directory has them,
	// for the renders discovery asks of app-of-apps; settled at the end
	// with what the Applications deploy.
	if s.argoOptions[entry], err = s.argoInstallation(ctx, entry, e, apps, nil); err != nil {
		return err
	}
	for _, d := range docs {
		switch {
		case d.is(groupArgoCD, "Application"):
			err = s.application(ctx, entry, e, d)
		case d.is(groupArgoCD, "ApplicationSet"):
			err = s.applicationSet(ctx, entry, e, d)
		}
		if err != nil {
			return err
		}
	}
	return s.settleArgoInstallation(ctx, entry, e)
}

func (s *discovery) applicationSet(ctx context.Context, entry int, e config.Discover, d document) error {
	if d.name() == "" {
		return fmt.Errorf("%s: ApplicationSet without metadata.name", d.where())
	}
	apps, reason, err := expandApplicationSet(ctx, s.withClusters(e), d.obj)
	if err != nil {
		return fmt.Errorf("%s: ApplicationSet %s: %w", d.where(), d.name(), err)
	}
	if reason != "" {
		s.add(entry, Target{
			Name:         d.name(),
			Source:       delivery.ControllerArgoCD,
			Object:       d.file,
			FieldManager: or(e.FieldManager, argoCDManager),
			Reason:       reason,
			Inputs:       []string{d.file},
		})
		return nil
	}
	for _, app := range apps {
		// The Applications it makes are read as if written in its file,
		// where their errors point.
		if err := s.application(ctx, entry, e, document{file: d.file, line: d.line, obj: app}); err != nil {
			return err
		}
	}
	return nil
}

// application lists one Application, then the Applications it deploys
// when it is an app-of-apps.
func (s *discovery) application(ctx context.Context, entry int, e config.Discover, d document) error {
	if d.name() == "" {
		return fmt.Errorf("%s: Application without metadata.name", d.where())
	}
	t := Target{
		Name:     d.name(),
		Source:   delivery.ControllerArgoCD,
		Object:   d.file,
		Deployer: &delivery.Deployer{Controller: delivery.ControllerArgoCD, Object: withBuildOptions(withTracking(d.obj, e.Tracking), s.argoOptions[entry]), File: d.file},
		Inputs:   append([]string{d.file}, d.inputs...),
	}
	opts, err := d.strings("spec", "syncPolicy", "syncOptions")
	if err != nil {
		return err
	}
	t.FieldManager = or(e.FieldManager, argoCDManager)
	dest, reason, err := destination(d, e)
	if err != nil {
		return err
	}
	t.Context = dest
	srcReason, err := s.argoSources(d, &t)
	if err != nil {
		return err
	}
	t.Reason = or(srcReason, reason)
	t.Apply = argoApply(opts)
	var children []document
	if srcReason == "" {
		if children, err = s.childApplications(ctx, d, &t); err != nil {
			return err
		}
	}
	s.add(entry, t)
	for _, c := range children {
		if err := s.application(ctx, entry, e, c); err != nil {
			return err
		}
	}
	return nil
}

// destination is the kubeconfig context of an Application's cluster, or
// why it has none. The in-cluster destination is no exception: which
// cluster Argo CD runs in is the config's to say.
func destination(d document, e config.Discover) (kubeContext, reason string, err error) {
	server, err := d.str("spec", "destination", "server")
	if err != nil {
		return "", "", err
	}
	name, err := d.str("spec", "destination", "name")
	if err != nil {
		return "", "", err
	}
	dest := or(server, name)
	if c, ok := e.Clusters[dest]; ok && dest != "" {
		return c, "", nil
	}
	if dest == "" {
		return "", "no destination server or name", nil
	}
	return "", fmt.Sprintf("destination %s: no kubeconfig context in discover.clusters", dest), nil
}

// argoSources sets the target's paths from its sources (spec.sources, or
// spec.source) and its charts from those that name one (Deployer.Charts),
// whose path is the Application's own file (render's argocd row renders
// them for it), and says why it is not checked when one of them cannot be
// rendered here.
func (s *discovery) argoSources(d document, t *Target) (string, error) {
	sources, err := d.list("spec", "sources")
	if err != nil {
		return "", err
	}
	if len(sources) == 0 {
		src, err := d.mapping("spec", "source")
		if err != nil {
			return "", err
		}
		if src == nil {
			return "", fmt.Errorf("%s: Application %s: no spec.source or spec.sources", d.where(), d.name())
		}
		sources = []map[string]any{src}
	}
	reason, pinSeen := "", false
	note := func(r string) {
		if reason == "" {
			reason = r
		}
	}
	for _, src := range sources {
		url, err := str(d, src, "repoURL")
		if err != nil {
			return "", err
		}
		chart, err := str(d, src, "chart")
		if err != nil {
			return "", err
		}
		p, err := str(d, src, "path")
		if err != nil {
			return "", err
		}
		ref, err := str(d, src, "ref")
		if err != nil {
			return "", err
		}
		revision, err := str(d, src, "targetRevision")
		if err != nil {
			return "", err
		}
		_, plugin := src["plugin"]
		switch {
		case chart != "":
			// Whether it renders is render's chart locator's to say.
			t.Deployer.Charts = append(t.Deployer.Charts, delivery.ChartFromRepository(url, chart, revision))
			// No path of the repository is the chart: the Application's
			// own file stands for its chart sources, once.
			if !slices.Contains(t.Paths, d.file) {
				t.Paths = append(t.Paths, d.file)
			}
			continue
		case !s.repo.Names(url):
			note(fmt.Sprintf("source %s: another repository", url))
			continue
		case p == "" && ref != "":
			// A source that only names the repository for another
			// source's values files renders nothing itself.
			continue
		}
		clean, perr := s.repoPath(p)
		if clean != "" {
			t.Paths = append(t.Paths, clean)
		}
		if r := argoPin(d, t, revision, &pinSeen); r != "" {
			note(r)
		}
		switch {
		case perr != nil:
			note(perr.Error())
		case plugin:
			note(fmt.Sprintf("path %s: a config management plugin renders it, which is not run here", clean))
		}
	}
	if reason == "" && len(t.Paths) == 0 && len(t.Deployer.Charts) == 0 {
		reason = "no source renders anything: each only names the repository for another's values files"
	}
	return reason, nil
}

func (s *discovery) exists(rel string) bool { return s.read.Exists(filepath.FromSlash(rel)) }

func (s *discovery) isDir(rel string) bool { return s.read.IsDir(filepath.FromSlash(rel)) }

func (s *discovery) isKustomization(dir string) bool {
	for _, f := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		if s.exists(path.Join(dir, f)) {
			return true
		}
	}
	return false
}

// childApplications are the Applications an app-of-apps deploys from this
// repository, not yet listed: those in the plain-YAML files of its paths
// (recursively when its source says directory.recurse), or, where a path
// is a kustomization or a chart, those its render makes (renderedChildren).
func (s *discovery) childApplications(ctx context.Context, d document, t *Target) ([]document, error) {
	for _, p := range t.Paths {
		if s.isDir(p) && (s.isKustomization(p) || s.exists(path.Join(p, "Chart.yaml"))) {
			return s.renderedChildren(ctx, t)
		}
	}
	recurse, err := d.boolean("spec", "source", "directory", "recurse")
	if err != nil {
		return nil, err
	}
	var children []document
	for _, p := range t.Paths {
		if s.appDirs[p] || !s.isDir(p) {
			continue
		}
		s.appDirs[p] = true
		docs, err := s.documents(ctx, p, recurse)
		if err != nil {
			return nil, err
		}
		for _, c := range docs {
			if c.is(groupArgoCD, "Application") && !s.apps[c.where()] {
				s.apps[c.where()] = true
				children = append(children, c)
			}
		}
	}
	return children, nil
}

// withTracking is the Application as render reads it: the installation's
// tracking (the config's, since it is argocd-cm's and not the
// Application's) written on a copy, under model's keys.
func withTracking(app map[string]any, t *config.ArgoTracking) map[string]any {
	if t == nil {
		return app
	}
	return withModelKeys(app, map[string]string{
		delivery.ArgoTrackingMethodKey:      t.Method,
		delivery.ArgoInstanceLabelKey:       t.InstanceLabelKey,
		delivery.ArgoInstallationIDKey:      t.InstallationID,
		delivery.ArgoControllerNamespaceKey: t.ControllerNamespace,
	})
}

// withModelKeys is a copy of app with model's annotation keys set to what
// discovery read, those it read nothing for taken away: only discovery,
// never the Application's own file, says what they hold.
func withModelKeys(app map[string]any, keys map[string]string) map[string]any {
	out := maps.Clone(app)
	meta, _ := out["metadata"].(map[string]any)
	meta = maps.Clone(meta)
	if meta == nil {
		meta = map[string]any{}
	}
	anns, _ := meta["annotations"].(map[string]any)
	anns = maps.Clone(anns)
	if anns == nil {
		anns = map[string]any{}
	}
	for k, v := range keys {
		delete(anns, k)
		if v != "" {
			anns[k] = v
		}
	}
	if len(anns) > 0 {
		meta["annotations"] = anns
	}
	out["metadata"] = meta
	return out
}
