package argocd

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/render/helm"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// argoHelm is source.helm (ApplicationSourceHelm).
type argoHelm struct {
	ValueFiles              []string          `json:"valueFiles"`
	Values                  string            `json:"values"`
	ValuesObject            json.RawMessage   `json:"valuesObject"`
	Parameters              []argoHelmParam   `json:"parameters"`
	FileParameters          []argoHelmFileArg `json:"fileParameters"`
	ReleaseName             string            `json:"releaseName"`
	Namespace               string            `json:"namespace"`
	IgnoreMissingValueFiles bool              `json:"ignoreMissingValueFiles"`
	SkipCrds                bool              `json:"skipCrds"`
	KubeVersion             string            `json:"kubeVersion"`
	APIVersions             []string          `json:"apiVersions"`
}

type argoHelmParam struct {
	Name        string `json:"name"`
	Value       string `json:"value"`
	ForceString bool   `json:"forceString"`
}

type argoHelmFileArg struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

// helmInputs is what resolving a Helm source reads beside the
// Application.
type helmInputs struct {
	// Chart is the chart located: its directory (resolved), or fetched
	// from a Helm repository or a registry.
	Chart source.Chart
	Root  string // the repository's top, resolved
	// Read reads a file by its absolute path; an absent one is
	// fs.ErrNotExist.
	Read func(abs string) ([]byte, error)
	Env  *buildEnv
	// Helm reads and sets the values; nil: helm.NewEngine's.
	Helm helm.Engine
}

// resolveHelm is the release Argo CD's repo server templates from a
// Helm source (helmTemplate): the release named helm.releaseName, else the
// Application's name; in helm.namespace, else the destination's; its
// values as the `helm template` command line it builds gives them to Helm
// (values.Options.MergeValues): the valueFiles in order, then values (or
// valuesObject, which wins) as one more file, then the parameters as
// --set, those with forceString as --set-string, then fileParameters as
// --set-file. The reason says why it is not rendered ("" when it is).
func resolveHelm(app *Application, src argoAppSource, in helmInputs) (helm.Release, string, error) {
	e := helm.Or(in.Helm)
	var h argoHelm
	if present(src.Helm) {
		if err := json.Unmarshal(src.Helm, &h); err != nil {
			return helm.Release{}, "", fmt.Errorf("source.helm: %w", err)
		}
	}
	r := helm.Release{
		Chart:     in.Chart,
		Name:      source.Or(h.ReleaseName, app.Metadata.Name),
		Namespace: source.Or(h.Namespace, app.Spec.Destination.Namespace),
		Cluster:   helm.ClusterArgoCD,
		SkipCRDs:  h.SkipCrds,
		// GetKubeVersionOrDefault, GetAPIVersionsOrDefault: the source's
		// own, else the cluster's.
		KubeVersion: h.KubeVersion,
		APIVersions: h.APIVersions,
	}
	refs := app.refSources()
	base := map[string]any{}
	for _, raw := range h.ValueFiles {
		data, reason, err := in.readValueFile(raw, refs)
		if reason != "" {
			return r, reason, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			if h.IgnoreMissingValueFiles {
				continue
			}
			return r, "", fmt.Errorf("source.helm.valueFiles: %s: no such file", raw)
		}
		if err != nil {
			return r, "", fmt.Errorf("source.helm.valueFiles: %w", err)
		}
		v, err := e.ReadValues(data)
		if err != nil {
			return r, "", fmt.Errorf("source.helm.valueFiles: %s: %w", raw, err)
		}
		base = helm.MergeValues(base, v)
	}
	if inline := h.valuesYAML(); len(inline) > 0 {
		v, err := e.ReadValues(inline)
		if err != nil {
			return r, "", fmt.Errorf("source.helm.values: %w", err)
		}
		base = helm.MergeValues(base, v)
	}
	// The parameters are maps by name in Argo CD (the last of a name
	// wins), passed in map order; sorted here, so that one render is
	// always the same.
	set, setString := map[string]string{}, map[string]string{}
	for _, p := range h.Parameters {
		if p.ForceString {
			setString[p.Name] = in.Env.Subst(p.Value)
		} else {
			set[p.Name] = in.Env.Subst(p.Value)
		}
	}
	for _, name := range sortedKeys(set) {
		if err := e.ParseSet(helm.Set, name+"="+argoCleanSetParameter(set[name]), base, nil); err != nil {
			return r, "", fmt.Errorf("source.helm.parameters %s: failed parsing --set data: %w", name, err)
		}
	}
	for _, name := range sortedKeys(setString) {
		if err := e.ParseSet(helm.SetString, name+"="+argoCleanSetParameter(setString[name]), base, nil); err != nil {
			return r, "", fmt.Errorf("source.helm.parameters %s: failed parsing --set-string data: %w", name, err)
		}
	}
	files := map[string]string{}
	for _, p := range h.FileParameters {
		files[p.Name] = p.Path
	}
	for _, name := range sortedKeys(files) {
		data, reason, err := in.readValueFile(files[name], nil)
		if reason != "" {
			return r, reason, nil
		}
		if err != nil {
			return r, "", fmt.Errorf("source.helm.fileParameters %s: %w", name, err)
		}
		reader := func([]rune) (any, error) { return string(data), nil }
		if err := e.ParseSet(helm.SetFile, name+"="+argoCleanSetParameter(files[name]), base, reader); err != nil {
			return r, "", fmt.Errorf("source.helm.fileParameters %s: failed parsing --set-file data: %w", name, err)
		}
	}
	r.Values = base
	return r, "", nil
}

// valuesYAML is ApplicationSourceHelm.ValuesYAML: valuesObject when set,
// else values.
func (h argoHelm) valuesYAML() []byte {
	if !present(h.ValuesObject) {
		return []byte(h.Values)
	}
	b, err := yaml.JSONToYAML(h.ValuesObject)
	if err != nil {
		return nil
	}
	return b
}

// readValueFile reads a values file (or a file parameter's file) where
// argoValueFile resolves it: from the repository, or, for a chart fetched
// from a Helm repository or a registry, a path not `$<ref>/…` from the
// chart's archive, whose top Argo CD's repo server takes for the
// repository's. An absent file is fs.ErrNotExist.
func (in helmInputs) readValueFile(raw string, refs map[string]bool) ([]byte, string, error) {
	file, inChart, reason, err := argoValueFile(raw, refs, in)
	if reason != "" || err != nil {
		return nil, reason, err
	}
	if inChart {
		if data, ok := in.Chart.File(strings.TrimPrefix(file, "/")); ok {
			return data, "", nil
		}
		return nil, "", fmt.Errorf("%s: %w", raw, fs.ErrNotExist)
	}
	data, err := in.Read(file)
	return data, "", err
}

// argoValueFile is a values file's path as getResolvedValueFiles resolves
// it: `$<ref>/…` in the repository of the source whose ref it names (this
// one: discovery lists an Application with a source elsewhere as not
// checked), an absolute path from the repository's top, anything else
// from the chart's directory; never outside the repository. A URL is
// fetched by Argo CD, and not here. inChart: the path is one inside a
// fetched chart, not resolved against the repository.
func argoValueFile(raw string, refs map[string]bool, in helmInputs) (file string, inChart bool, reason string, err error) {
	dir, p := in.Chart.Dir, raw
	ref := false
	if strings.HasPrefix(raw, "$") {
		first, rest, _ := strings.Cut(raw, "/")
		if refs[strings.TrimPrefix(first, "$")] {
			dir, p, ref = in.Root, "/"+rest, true
		}
	}
	p = in.Env.Subst(p)
	if u, err := url.Parse(p); err == nil && u.Scheme != "" {
		return "", false, fmt.Sprintf("source.helm values file %s: a URL Argo CD fetches, which the check does not", p), nil
	}
	if in.Chart.Fetched() && !ref {
		return path.Clean("/" + p), true, "", nil
	}
	if filepath.IsAbs(p) {
		file = filepath.Join(in.Root, filepath.FromSlash(p))
	} else {
		file = filepath.Join(dir, filepath.FromSlash(p))
	}
	if rel, err := filepath.Rel(in.Root, file); err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false, "", fmt.Errorf("source.helm values file %s: resolved to outside repository root", raw)
	}
	return file, false, "", nil
}

// refSources are the refs of the Application's sources that name a
// repository only (spec.sources[].ref), by name.
func (a *Application) refSources() map[string]bool {
	out := map[string]bool{}
	for _, s := range a.Spec.Sources {
		if s.Ref != "" {
			out[s.Ref] = true
		}
	}
	return out
}

// argoCleanSetParameter is cleanSetParameters: a comma not escaped already
// is escaped, unless the value is a Helm list ({a,b}).
func argoCleanSetParameter(val string) string {
	if strings.HasPrefix(val, "{") && strings.HasSuffix(val, "}") {
		return val
	}
	var b strings.Builder
	for i, c := range val {
		if c == ',' && (i == 0 || val[i-1] != '\\') {
			b.WriteString(`\,`)
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// helm is a Helm source: the chart (the source's path, or one fetched for
// its chart:) released as the repo server templates it
// (resolveArgoHelm). Its files are read through the render's file system,
// which records them.
func (s *Source) helm(chart source.Chart, app *Application, src argoAppSource, env *buildEnv) (source.Build, string, error) {
	root := s.In.Fs.Boundary.Top()
	read := func(abs string) ([]byte, error) {
		if _, err := s.In.Fs.Boundary.Stat(abs); err != nil && !errors.Is(err, repofs.ErrOutside) {
			// Absent (and ignored), it is still what the render depends
			// on: adding it changes the release.
			s.In.ReadFile(abs)
			return nil, err
		}
		return s.In.Fs.ReadFile(abs)
	}
	r, reason, err := resolveHelm(app, src, helmInputs{Chart: chart, Root: root, Read: read, Env: env, Helm: helm.EngineOf(s.In)})
	if err != nil {
		return nil, "", fmt.Errorf("%s: %w", s.where(), err)
	}
	if reason != "" {
		return nil, reason, nil
	}
	r.Source = s.where()
	return &helm.ChartBuild{In: s.In, R: r}, "", nil
}
