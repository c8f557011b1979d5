package gitops

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// argoBuildOptions are what an Argo CD installation's repo server adds to
// `kustomize build` (argocd-cm's kustomize.buildOptions: --enable-helm
// lets kustomize inflate helmCharts), and where they were read. Render
// reads them from each Application of the installation
// (delivery.ArgoKustomizeBuildOptionsKey).
type argoBuildOptions struct {
	value string
	// from is where they were read, or why none was taken
	// (delivery.ArgoBuildOptionsAmbiguous); "" when nothing sets them.
	from string
	// files set them: a change to one changes every render of the
	// installation.
	files []string
}

// argoCMSetting is one place the repository sets the installation's
// kustomize.buildOptions.
type argoCMSetting struct {
	file  string // relative to the repository's top
	where string // as a reason names it
	value string
}

const (
	argoCMName         = "argocd-cm"
	argoCMBuildOptions = "kustomize.buildOptions"
	// maxArgoCMDirs bounds the folders one entry's scan reads beside its
	// own directory: the Applications' paths and what their
	// kustomizations reach.
	maxArgoCMDirs = 512
)

// argoInstallation is how the entry's Argo CD installation builds
// kustomizations: the entry's kustomizeBuildOptions, else the argocd-cm
// settings of the repository tree it deploys. That tree is Argo CD's own
// install where the repository keeps it: the entry's directory, the paths
// of the Applications found so far (apps, Argo CD managing itself among
// them) and the folders their kustomizations reach; an argocd-cm
// ConfigMap there (a manifest, or a patch of one), a kustomization's
// configMapGenerator of argocd-cm (literals), or the configs.cm values of
// an Application of the argo-cd chart (values or valuesObject). Settings
// that disagree are none: the render that needs them says so.
func (s *discovery) argoInstallation(ctx context.Context, entry int, e config.Discover, apps []argoApp, paths []string) (argoBuildOptions, error) {
	if e.KustomizeBuildOptions != nil {
		return argoBuildOptions{value: *e.KustomizeBuildOptions, from: fmt.Sprintf("discover[%d].kustomizeBuildOptions of %s", entry, config.DefaultFile)}, nil
	}
	scan := &argoCMScan{s: s, dirs: map[string]bool{}, files: map[string]bool{}}
	if err := scan.tree(ctx, e.ArgoCD); err != nil {
		return argoBuildOptions{}, err
	}
	for _, p := range paths {
		if err := scan.dir(ctx, p); err != nil {
			return argoBuildOptions{}, err
		}
	}
	for _, a := range apps {
		scan.chartValues(a)
	}
	return settled(scan.settings), nil
}

// settled is what the settings found say together.
func settled(found []argoCMSetting) argoBuildOptions {
	if len(found) == 0 {
		return argoBuildOptions{}
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].file < found[j].file })
	var o argoBuildOptions
	values := map[string]bool{}
	for _, f := range found {
		o.files = append(o.files, f.file)
		values[f.value] = true
	}
	o.files = unique(o.files)
	if len(values) == 1 {
		o.value, o.from = found[0].value, found[0].where
		return o
	}
	var says []string
	for i, f := range found {
		if i == 0 || f.value != found[i-1].value || f.where != found[i-1].where {
			says = append(says, fmt.Sprintf("%s says %q", f.where, f.value))
		}
	}
	o.from = delivery.ArgoBuildOptionsAmbiguous + strings.Join(says, ", ")
	return o
}

// argoCMScan reads a tree for argocd-cm settings, each file and folder
// once, through the repository's reader.
type argoCMScan struct {
	s        *discovery
	dirs     map[string]bool
	files    map[string]bool
	settings []argoCMSetting
}

// tree scans every YAML file under dir (relative to the top), as
// documents reads a discover directory: hidden folders left out.
func (c *argoCMScan) tree(ctx context.Context, dir string) error {
	top := filepath.Join(c.s.repo.Root, filepath.FromSlash(dir))
	var files []string
	err := c.s.read.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != top && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		files = append(files, p)
		return nil
	})
	if err != nil {
		return err
	}
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := c.file(ctx, f); err != nil {
			return err
		}
	}
	return nil
}

// dir scans the YAML files of one folder (relative to the top), and the
// folders its kustomization reaches.
func (c *argoCMScan) dir(ctx context.Context, rel string) error {
	rel = path.Clean(rel)
	if c.dirs[rel] || len(c.dirs) >= maxArgoCMDirs || repofs.Leaves(rel) {
		return nil
	}
	c.dirs[rel] = true
	abs := filepath.Join(c.s.repo.Root, filepath.FromSlash(rel))
	if !c.s.read.IsDir(abs) {
		return nil
	}
	entries, err := c.s.read.ReadDir(abs)
	if err != nil {
		return nil // its render, if any, says why it cannot be read
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		if err := c.file(ctx, filepath.Join(abs, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// file reads one file (absolute) for settings; a kustomization's own
// references are scanned next.
func (c *argoCMScan) file(ctx context.Context, abs string) error {
	name := filepath.Base(abs)
	kustomization := name == "kustomization.yaml" || name == "kustomization.yml" || name == "Kustomization"
	if ext := filepath.Ext(name); !kustomization && ext != ".yaml" && ext != ".yml" {
		return nil
	}
	relOS, err := filepath.Rel(c.s.repo.Root, abs)
	if err != nil {
		return err
	}
	rel := filepath.ToSlash(relOS)
	if c.files[rel] {
		return nil
	}
	c.files[rel] = true
	data, err := c.s.read.ReadFile(abs, repofs.GitOpsFile)
	if err != nil {
		// Not a file discovery reads (documents refuses those of the
		// entry's directory): its render, if any, says why.
		return nil
	}
	if kustomization {
		return c.kustomization(ctx, rel, data)
	}
	if !bytes.Contains(data, []byte(argoCMName)) {
		return nil
	}
	for _, doc := range yamldoc.Split(data) {
		if doc.Line == 0 || !bytes.Contains(doc.Text, []byte(argoCMName)) {
			continue
		}
		var obj struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
			Metadata   struct {
				Name string `json:"name"`
			} `json:"metadata"`
			Data map[string]any `json:"data"`
		}
		j, err := yamldoc.ToJSON(doc.Text)
		if err != nil || json.Unmarshal(j, &obj) != nil {
			continue // not the installation's ConfigMap; render says what is wrong with it
		}
		if obj.APIVersion != "v1" || obj.Kind != "ConfigMap" || obj.Metadata.Name != argoCMName {
			continue
		}
		if v, ok := obj.Data[argoCMBuildOptions].(string); ok {
			c.settings = append(c.settings, argoCMSetting{file: rel, where: fmt.Sprintf("%s in %s:%d", argoCMName, rel, doc.Line), value: v})
		}
	}
	return nil
}

// argoKustomization is what the scan reads of a kustomization: where it
// reaches, and a generator of argocd-cm.
type argoKustomization struct {
	Resources             []string `json:"resources"`
	Components            []string `json:"components"`
	PatchesStrategicMerge []string `json:"patchesStrategicMerge"`
	Patches               []struct {
		Path string `json:"path"`
	} `json:"patches"`
	ConfigMapGenerator []struct {
		Name     string   `json:"name"`
		Literals []string `json:"literals"`
	} `json:"configMapGenerator"`
}

// kustomization scans a kustomization (rel, read as data): its
// configMapGenerator of argocd-cm, then the folders of what it names.
func (c *argoCMScan) kustomization(ctx context.Context, rel string, data []byte) error {
	var k argoKustomization
	j, err := yamldoc.ToJSON(data)
	if err != nil || json.Unmarshal(j, &k) != nil {
		return nil // render says what is wrong with it
	}
	for _, g := range k.ConfigMapGenerator {
		if g.Name != argoCMName {
			continue
		}
		for _, l := range g.Literals {
			if key, v, ok := strings.Cut(l, "="); ok && key == argoCMBuildOptions {
				c.settings = append(c.settings, argoCMSetting{file: rel, where: fmt.Sprintf("configMapGenerator %s in %s", argoCMName, rel), value: withoutQuotes(v)})
			}
		}
	}
	dir := path.Dir(rel)
	refs := slices.Concat(k.Resources, k.Components, k.PatchesStrategicMerge)
	for _, p := range k.Patches {
		refs = append(refs, p.Path)
	}
	for _, r := range refs {
		if r == "" || strings.Contains(r, "\n") || strings.Contains(r, "://") {
			continue
		}
		target := path.Join(dir, r)
		if repofs.Leaves(target) {
			continue
		}
		if !c.s.isDir(target) {
			target = path.Dir(target)
		}
		if err := c.dir(ctx, target); err != nil {
			return err
		}
	}
	return nil
}

// withoutQuotes is kustomize's removeQuotes for a literal's value.
func withoutQuotes(v string) string {
	if len(v) >= 2 && v[0] == v[len(v)-1] && (v[0] == '"' || v[0] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// argoApp is an Application the scan reads: its object and the file it
// is written in.
type argoApp struct {
	file string
	obj  map[string]any
}

// chartValues finds the settings an Application of the argo-cd chart
// gives in its own values (helm.valuesObject, else helm.values):
// configs.cm's kustomize.buildOptions. Its valueFiles are not read.
func (c *argoCMScan) chartValues(a argoApp) {
	spec, _ := a.obj["spec"].(map[string]any)
	var sources []any
	if list, ok := spec["sources"].([]any); ok {
		sources = list
	}
	if src, ok := spec["source"]; ok {
		sources = append(sources, src)
	}
	for _, raw := range sources {
		src, _ := raw.(map[string]any)
		if chart, _ := src["chart"].(string); chart != "argo-cd" {
			continue
		}
		h, _ := src["helm"].(map[string]any)
		values, _ := h["valuesObject"].(map[string]any)
		if values == nil {
			if text, _ := h["values"].(string); text != "" {
				_ = yaml.Unmarshal([]byte(text), &values)
			}
		}
		configs, _ := values["configs"].(map[string]any)
		cm, _ := configs["cm"].(map[string]any)
		if v, ok := cm[argoCMBuildOptions].(string); ok {
			c.settings = append(c.settings, argoCMSetting{file: a.file, where: fmt.Sprintf("the argo-cd chart's configs.cm in %s", a.file), value: v})
		}
	}
}

// withBuildOptions is the Application as render reads it with the
// installation's build options written on a copy, under model's keys.
func withBuildOptions(app map[string]any, o argoBuildOptions) map[string]any {
	return withModelKeys(app, map[string]string{
		delivery.ArgoKustomizeBuildOptionsKey:     o.value,
		delivery.ArgoKustomizeBuildOptionsFromKey: o.from,
	})
}

// settleArgoInstallation gives every Application the entry found the
// installation's build options, read now that their paths are known, and
// the files that set them as inputs.
func (s *discovery) settleArgoInstallation(ctx context.Context, entry int, e config.Discover) error {
	var apps []argoApp
	var paths []string
	for _, f := range s.found {
		if f.entry != entry || f.Deployer == nil || f.Deployer.Controller != delivery.ControllerArgoCD {
			continue
		}
		apps = append(apps, argoApp{file: f.Object, obj: f.Deployer.Object})
		paths = append(paths, f.Paths...)
	}
	o, err := s.argoInstallation(ctx, entry, e, apps, paths)
	if err != nil {
		return err
	}
	for i := range s.found {
		f := &s.found[i]
		if f.entry != entry || f.Deployer == nil || f.Deployer.Controller != delivery.ControllerArgoCD {
			continue
		}
		f.Deployer.Object = withBuildOptions(f.Deployer.Object, o)
		f.Inputs = unique(append(f.Inputs, o.files...))
	}
	return nil
}
