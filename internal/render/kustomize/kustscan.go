package kustomize

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// Refusal is a kustomization asking for something the repository config
// has not enabled. Its message says what and how to allow it.
type Refusal struct {
	File, Field, Ref string
	What             string // "is remote content (fetched from the network)"
	Option           string // the config.KustomizeOptions field that allows it
}

func (r *Refusal) Error() string {
	ref := ""
	if r.Ref != "" {
		ref = fmt.Sprintf(": %q", r.Ref)
	}
	return fmt.Sprintf("%s: %s%s %s, which is disabled because pull requests are untrusted; to allow it, set kustomize.%s: true in the repository config (%s; see docs/trust-model.md)",
		r.File, r.Field, ref, r.What, r.Option, config.DefaultFile)
}

const (
	whatRemote  = "is remote content (kustomize would fetch it from the network)"
	whatOutside = "is outside the kustomization's directory (kustomize's load restrictions)"
	whatPlugin  = "is an exec plugin or KRM function (kustomize would run a program or container)"
	whatHelm    = "inflates a helm chart (kustomize would run helm)"
)

// scanner reads every kustomization a build reaches, before kustomize
// does, and refuses what the repository config has not enabled. kustomize
// cannot be told to stay offline (a git URL in resources runs git clone; a
// URL in any file field is fetched), so remote references are found here.
type scanner struct {
	// ctx is the caller's, for the one step of a scan that can take long:
	// a helmCharts chart rendered in process. The scanner lives for one
	// prepare, within its caller's call.
	ctx  context.Context
	fs   *source.GuardFS
	opts config.KustomizeOptions
	// counts memoizes how many objects each kustomization directory
	// yields, counting a base as often as it is referenced; -1 while it is
	// being scanned (a cycle, which kustomize reports).
	counts map[string]int
	lines  *source.LineIndex
	// pluginDir builds a directory named in generators/transformers/
	// validators: its output is plugin configs, checked like inline ones.
	pluginDir func(dir string) ([]source.RawObject, error)
	// customSchema is set when a kustomization scanned sets openapi.
	customSchema bool
	// sources records what the build reads, to tell objects' sources.
	sources *buildSources
	// charts renders helmCharts in process (kusthelm.go); nil: they are
	// kustomize's, refused unless allowHelm (a controller's render whose
	// kustomize does not inflate them).
	charts *ChartInflater
}

// scanDir checks the kustomization in dir (resolved) and everything it
// reaches, and returns how many objects it yields (generators and helm
// charts count one per entry).
func (s *scanner) scanDir(dir string) (int, error) {
	if n, ok := s.counts[dir]; ok {
		return max(n, 0), nil
	}
	s.counts[dir] = -1
	// Adding or removing a kustomization file here changes the build.
	s.fs.Reads.Dir(dir)
	file := s.fs.KustomizationFile(dir)
	if file == "" {
		return 0, fmt.Errorf("%s: no kustomization file (%s)", s.fs.Boundary.Rel(dir), strings.Join(konfig.RecognizedKustomizationFileNames(), ", "))
	}
	k, err := s.readKustomization(file)
	if err != nil {
		return 0, err
	}
	if s.charts != nil && (len(k.HelmCharts) > 0 || k.HelmGlobals != nil) {
		inflated, ok, err := s.charts.inflate(s.ctx, dir, file, k, s.opts.AllowHelm)
		if err != nil {
			return 0, err
		}
		if ok {
			k = inflated
		}
	}
	c := kcheck{s: s, dir: dir, file: s.fs.Boundary.Rel(file), sources: s.sources.add(dir, file, k)}
	if err := c.run(k); err != nil {
		return 0, err
	}
	if c.objects > source.MaxObjects {
		return 0, fmt.Errorf("%s: expands to about %d objects (bases count as often as they are referenced), more than the limit of %d", c.file, c.objects, source.MaxObjects)
	}
	s.counts[dir] = c.objects
	return c.objects, nil
}

func (s *scanner) readKustomization(file string) (*types.Kustomization, error) {
	data, err := s.fs.ReadFile(file)
	if err != nil {
		return nil, err
	}
	display := s.fs.Boundary.Rel(file)
	j, err := yamldoc.ToJSON(data)
	if err != nil {
		return nil, yamldoc.Error(display, yamldoc.Doc{From: 1, Line: 1}, err)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	dec.DisallowUnknownFields()
	var k types.Kustomization
	if err := dec.Decode(&k); err != nil {
		return nil, fmt.Errorf("%s: invalid kustomization: %w", display, err)
	}
	k.FixKustomization()
	return &k, nil
}

// kcheck checks one kustomization file.
type kcheck struct {
	s       *scanner
	dir     string // resolved directory of the kustomization
	file    string // as users see it
	objects int    // objects the kustomization yields, so far
	sources *dirSources
}

func (c *kcheck) run(k *types.Kustomization) error {
	if err := c.helm(k); err != nil {
		return err
	}
	for i, r := range k.Resources {
		if err := c.resource(fmt.Sprintf("resources[%d]", i), r); err != nil {
			return err
		}
	}
	for i, r := range k.Components {
		n, err := c.base(fmt.Sprintf("components[%d]", i), r)
		if err != nil {
			return err
		}
		c.objects += n
		c.subdir(r)
		if real := c.target(r); real != "" && !source.IsRemote(r) {
			c.sources.components = append(c.sources.components, real)
		}
	}
	c.objects += len(k.ConfigMapGenerator) + len(k.SecretGenerator) + len(k.HelmCharts)
	var files []namedRef
	add := func(field, ref string) { files = append(files, namedRef{field, ref}) }
	for i, p := range k.Crds {
		add(fmt.Sprintf("crds[%d]", i), p)
	}
	for i, p := range k.Configurations {
		add(fmt.Sprintf("configurations[%d]", i), p)
	}
	if p, ok := k.OpenAPI["path"]; ok {
		add("openapi.path", p)
	}
	if len(k.OpenAPI) > 0 {
		c.s.customSchema = true
	}
	for i, p := range k.Patches {
		if p.Path != "" {
			add(fmt.Sprintf("patches[%d].path", i), p.Path)
		}
	}
	//lint:ignore SA1019 deprecated, but kustomize still reads it, so the scan must too
	for i, p := range k.PatchesJson6902 {
		if p.Path != "" {
			add(fmt.Sprintf("patchesJson6902[%d].path", i), p.Path)
		}
	}
	//lint:ignore SA1019 deprecated, but kustomize still reads it, so the scan must too
	for i, p := range k.PatchesStrategicMerge {
		if !strings.Contains(string(p), "\n") {
			add(fmt.Sprintf("patchesStrategicMerge[%d]", i), string(p))
		}
	}
	for i, r := range k.Replacements {
		if r.Path != "" {
			add(fmt.Sprintf("replacements[%d].path", i), r.Path)
		}
	}
	for i, g := range k.ConfigMapGenerator {
		addKV(add, fmt.Sprintf("configMapGenerator[%d]", i), g.KvPairSources)
	}
	for i, g := range k.SecretGenerator {
		addKV(add, fmt.Sprintf("secretGenerator[%d]", i), g.KvPairSources)
	}
	for _, f := range files {
		if err := c.fileRef(f.field, f.ref); err != nil {
			return err
		}
	}
	// A controller's generated or edited kustomization (Flux's
	// spec.patches, Argo CD's kustomize.patches) is not the repository's
	// file: its inline patches name nothing.
	kfile := c.s.fs.KustomizationFile(c.dir)
	c.sources.addPatches(kfile, !c.s.fs.Rewritten(kfile), k, func(ref string) string {
		if source.IsRemote(ref) {
			return ""
		}
		return c.target(ref)
	}, c.s.fs.ReadFile)
	for _, list := range []struct {
		field   string
		entries []string
	}{{"generators", k.Generators}, {"transformers", k.Transformers}, {"validators", k.Validators}} {
		for i, e := range list.entries {
			if err := c.plugins(fmt.Sprintf("%s[%d]", list.field, i), e); err != nil {
				return err
			}
		}
	}
	return nil
}

type namedRef struct{ field, ref string }

func addKV(add func(field, ref string), field string, kv types.KvPairSources) {
	for i, f := range kv.FileSources {
		// "key=path" names the key; kustomize splits at the only '='.
		if _, p, ok := strings.Cut(f, "="); ok {
			f = p
		}
		add(fmt.Sprintf("%s.files[%d]", field, i), f)
	}
	for i, e := range kv.EnvSources {
		add(fmt.Sprintf("%s.envs[%d]", field, i), e)
	}
	if kv.EnvSource != "" {
		add(field+".env", kv.EnvSource)
	}
}

func (c *kcheck) refuse(field, ref, what, option string) error {
	return &Refusal{File: c.file, Field: field, Ref: ref, What: what, Option: option}
}

func (c *kcheck) helm(k *types.Kustomization) error {
	if len(k.HelmCharts) == 0 && k.HelmGlobals == nil {
		return nil
	}
	if !c.s.opts.AllowHelm {
		field := "helmCharts"
		if len(k.HelmCharts) == 0 {
			field = "helmGlobals"
		}
		return c.refuse(field, "", whatHelm, "allowHelm")
	}
	for i, h := range k.HelmCharts {
		field := fmt.Sprintf("helmCharts[%d]", i)
		if h.Repo != "" && !c.s.opts.AllowRemote {
			return c.refuse(field+".repo", h.Repo, whatRemote, "allowRemote")
		}
		for _, v := range append([]string{h.ValuesFile}, h.AdditionalValuesFiles...) {
			if v != "" && source.IsRemote(v) && !c.s.opts.AllowRemote {
				return c.refuse(field+".valuesFile", v, whatRemote, "allowRemote")
			}
		}
	}
	return nil
}

// target resolves a local reference; "" when it does not exist (kustomize
// reports that itself).
// joined is ref as kustomize reads it: relative to the kustomization's
// directory.
func (c *kcheck) joined(ref string) string {
	if filepath.IsAbs(ref) {
		return ref
	}
	return filepath.Join(c.dir, ref)
}

func (c *kcheck) target(ref string) string {
	real, err := c.s.fs.Boundary.Resolve(c.joined(ref))
	if err != nil {
		return ""
	}
	return real
}

// inBoundary refuses a local reference that leads outside the boundary,
// in the same words whether the place outside exists or not: where it
// leads is not looked up (repofs.FS.Resolve).
func (c *kcheck) inBoundary(field, ref string) error {
	if _, err := c.s.fs.Boundary.Resolve(c.joined(ref)); !errors.Is(err, repofs.ErrOutside) {
		return nil
	}
	return fmt.Errorf("%s: %s: %q leads outside %s; ownership-check never reads files there",
		c.file, field, ref, c.s.fs.Boundary)
}

// fileRef checks a reference kustomize loads as a file.
func (c *kcheck) fileRef(field, ref string) error {
	if source.IsRemote(ref) {
		if c.s.opts.AllowRemote {
			return nil
		}
		return c.refuse(field, ref, whatRemote, "allowRemote")
	}
	if err := c.inBoundary(field, ref); err != nil {
		return err
	}
	real := c.target(ref)
	if real == "" {
		return nil
	}
	if !repofs.Within(c.dir, real) && !c.s.opts.AllowLoadOutsideRoot {
		return c.refuse(field, ref, whatOutside, "allowLoadOutsideRoot")
	}
	return nil
}

// resource checks an entry of resources, a file or a base directory, and
// counts its objects.
func (c *kcheck) resource(field, ref string) error {
	if !source.IsRemote(ref) {
		// kustomize's own words for this are a page of nested
		// accumulation errors; the file, the entry and the name say it.
		if p := c.joined(ref); !c.s.fs.Exists(p) {
			why := "no such file or directory"
			if c.s.fs.ExcludedPath(p) {
				why = source.ErrNotInArtifact.Error()
			}
			return fmt.Errorf("%s: %s: %s: %s", c.file, field, ref, why)
		}
		if real := c.target(ref); real != "" {
			if c.s.fs.IsFile(real) {
				if err := c.fileRef(field, ref); err != nil {
					return err
				}
				n, err := c.s.manifestObjects(real)
				c.objects += n
				c.sources.files = append(c.sources.files, real)
				return err
			}
		}
	}
	n, err := c.base(field, ref)
	c.objects += n
	c.subdir(ref)
	return err
}

// subdir records a base or component the build reads; a remote one is
// not read here, so its objects' sources are unknown to the scan.
func (c *kcheck) subdir(ref string) {
	if source.IsRemote(ref) {
		c.s.sources.opaque = true
		return
	}
	if real := c.target(ref); real != "" {
		c.sources.subdirs = append(c.sources.subdirs, real)
	}
}

// manifestObjects parses a resource file (resolved) and counts its
// objects. It is parsed here too, so that malformed YAML is reported with
// the file's path and line, which kustomize does not give; a file reached
// from several kustomizations is parsed once.
func (s *scanner) manifestObjects(real string) (int, error) {
	if n, ok := s.lines.ParsedObjects(real); ok {
		return n, nil
	}
	display := s.fs.Boundary.Rel(real)
	data, err := s.fs.ReadManifest(real, display)
	if err != nil {
		return 0, err
	}
	objs, err := source.ParseManifests(display, data)
	if err != nil {
		return 0, err
	}
	s.lines.Record(real, objs)
	return len(objs), nil
}

// base checks a directory reference: kustomize allows bases outside the
// kustomization's directory (overlays name ../../base), not outside the
// boundary.
func (c *kcheck) base(field, ref string) (int, error) {
	if source.IsRemote(ref) {
		if c.s.opts.AllowRemote {
			return 0, nil
		}
		return 0, c.refuse(field, ref, whatRemote, "allowRemote")
	}
	if err := c.inBoundary(field, ref); err != nil {
		return 0, err
	}
	real := c.target(ref)
	if real == "" {
		return 0, nil
	}
	if c.s.fs.KustomizationFile(real) == "" {
		return 0, fmt.Errorf("%s: %s: %q is a directory without a kustomization file", c.file, field, ref)
	}
	return c.s.scanDir(real)
}

// plugins checks an entry of generators, transformers or validators: an
// inline plugin config, a file of them, or a kustomization producing them.
func (c *kcheck) plugins(field, entry string) error {
	if objs, ok := inlinePluginConfigs(entry); ok {
		for _, o := range objs {
			if err := c.plugin(field, o); err != nil {
				return err
			}
		}
		return nil
	}
	if source.IsRemote(entry) {
		if c.s.opts.AllowRemote {
			return nil
		}
		return c.refuse(field, entry, whatRemote, "allowRemote")
	}
	if err := c.inBoundary(field, entry); err != nil {
		return err
	}
	real := c.target(entry)
	if real == "" {
		return nil
	}
	var objs []source.RawObject
	if c.s.fs.Boundary.IsDir(real) {
		if _, err := c.base(field, entry); err != nil {
			return err
		}
		var err error
		if objs, err = c.s.pluginDir(real); err != nil {
			return err
		}
	} else {
		if err := c.fileRef(field, entry); err != nil {
			return err
		}
		data, err := c.s.fs.ReadFile(real)
		if err != nil {
			return err
		}
		if objs, err = source.ParseChecked(c.s.fs.Boundary.Rel(real), data); err != nil {
			return err
		}
	}
	for _, o := range objs {
		if err := c.plugin(field, o.Obj); err != nil {
			return err
		}
	}
	return nil
}

// inlinePluginConfigs parses an entry that is YAML objects rather than a
// path, as kustomize tries first.
func inlinePluginConfigs(entry string) ([]map[string]any, bool) {
	if !strings.Contains(entry, "\n") && !strings.Contains(entry, "kind:") {
		return nil, false
	}
	objs, err := source.ParseManifests("inline", []byte(entry))
	if err != nil || len(objs) == 0 {
		return nil, false
	}
	out := make([]map[string]any, len(objs))
	for i, o := range objs {
		out[i] = o.Obj
	}
	return out, true
}

// pathKeys are the fields of builtin plugin configs that name files or
// repositories (PatchTransformer.path, ReplacementTransformer's
// replacements[].path, ConfigMapGenerator.files, HelmChartInflationGenerator
// .repo, ...).
var pathKeys = map[string]bool{
	"path": true, "paths": true, "files": true, "envs": true, "env": true,
	"valuesFile": true, "additionalValuesFiles": true, "repo": true, "chartRepoUrl": true,
}

func (c *kcheck) plugin(field string, o map[string]any) error {
	apiVersion, _ := o["apiVersion"].(string)
	kind, _ := o["kind"].(string)
	field = fmt.Sprintf("%s (%s %s)", field, apiVersion, kind)
	if apiVersion != konfig.BuiltinPluginApiVersion {
		if c.s.opts.AllowExecPlugins {
			return nil
		}
		return c.refuse(field, "", whatPlugin, "allowExecPlugins")
	}
	if kind == "HelmChartInflationGenerator" && !c.s.opts.AllowHelm {
		return c.refuse(field, "", whatHelm, "allowHelm")
	}
	if c.s.opts.AllowRemote {
		return nil
	}
	var err error
	walkStrings(o, "", func(key, v string) {
		if err != nil || !pathKeys[key] {
			return
		}
		if key == "files" {
			if _, p, ok := strings.Cut(v, "="); ok {
				v = p
			}
		}
		if source.IsRemote(v) {
			err = c.refuse(field+"."+key, v, whatRemote, "allowRemote")
		}
	})
	return err
}

// walkStrings calls fn for every string in v with the map key it is under
// (list items inherit their list's key).
func walkStrings(v any, key string, fn func(key, v string)) {
	switch t := v.(type) {
	case map[string]any:
		for k, ch := range t {
			walkStrings(ch, k, fn)
		}
	case []any:
		for _, ch := range t {
			walkStrings(ch, key, fn)
		}
	case string:
		fn(key, t)
	}
}
