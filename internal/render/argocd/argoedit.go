package argocd

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/pkg/util"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// Argo CD applies source.kustomize by running kustomize's edit commands in
// the source's directory, then kustomize build (util/kustomize Build). The
// functions here are those commands, as kustomize v5.6's CLI
// (kustomize/commands/edit) runs them, on the kustomization read into
// memory: the same parsing of their arguments, the same merging with what
// the kustomization already says, and the same refusals, which fail Argo
// CD's render too.

// kustomizeEdit is one `kustomize edit` command.
type kustomizeEdit struct {
	args string // as Argo CD runs it, for errors
	run  func(k *types.Kustomization) error
}

// argoKustomizeEdits are the commands Argo CD runs for o, in its order;
// dir is the kustomization's directory (resolved), env Argo CD's build
// environment.
// files asks about the repository and records a directory whose listing
// an edit depends on.
func argoKustomizeEdits(o argoKustomize, dir string, env *buildEnv, files editFiles) ([]kustomizeEdit, error) {
	var edits []kustomizeEdit
	add := func(args string, run func(k *types.Kustomization) error) {
		edits = append(edits, kustomizeEdit{args: args, run: run})
	}
	if o.NamePrefix != "" {
		add("set nameprefix -- "+o.NamePrefix, func(k *types.Kustomization) error { k.NamePrefix = o.NamePrefix; return nil })
	}
	if o.NameSuffix != "" {
		add("set namesuffix -- "+o.NameSuffix, func(k *types.Kustomization) error { k.NameSuffix = o.NameSuffix; return nil })
	}
	if len(o.Images) > 0 {
		// Argo CD substitutes its build environment (${ARGOCD_APP_REVISION}).
		args := make([]string, len(o.Images))
		for i, im := range o.Images {
			args[i] = env.Subst(im)
		}
		add("set image "+strings.Join(args, " "), func(k *types.Kustomization) error { return setImages(k, args) })
	}
	if len(o.Replicas) > 0 {
		args := make([]string, len(o.Replicas))
		for i, r := range o.Replicas {
			n, err := r.intCount()
			if err != nil {
				return nil, err
			}
			args[i] = fmt.Sprintf("%s=%d", r.Name, n)
		}
		add("set replicas "+strings.Join(args, " "), func(k *types.Kustomization) error { return setReplicas(k, args) })
	}
	if len(o.CommonLabels) > 0 {
		values := map[string]string{}
		for name, v := range o.CommonLabels {
			values[name] = env.Subst(v)
		}
		m := metadataEdit{Force: o.ForceCommonLabels, WithoutSelector: o.LabelWithoutSelector, IncludeTemplates: o.LabelIncludeTemplates, Kind: "label"}
		add("add label", func(k *types.Kustomization) error { return m.AddLabels(k, editArgs(values)) })
	}
	if len(o.CommonAnnotations) > 0 {
		values := o.CommonAnnotations
		if o.CommonAnnotationsEnvsubst {
			values = map[string]string{}
			for name, v := range o.CommonAnnotations {
				values[name] = env.Subst(v)
			}
		}
		m := metadataEdit{Force: o.ForceCommonAnnotations, Kind: "annotation"}
		add("add annotation", func(k *types.Kustomization) error { return m.addAnnotations(k, editArgs(values)) })
	}
	if o.Namespace != "" {
		add("set namespace -- "+o.Namespace, func(k *types.Kustomization) error { k.Namespace = o.Namespace; return nil })
	}
	if len(o.Patches) > 0 {
		// Argo CD appends them to the file's patches itself: kustomize
		// has no edit command for them.
		add("(patches appended)", func(k *types.Kustomization) error { k.Patches = append(k.Patches, o.Patches...); return nil })
	}
	if len(o.Components) > 0 {
		components := o.Components
		if o.IgnoreMissingComponents {
			components = existingComponents(dir, o.Components, files)
		}
		add("add component "+strings.Join(components, " "), func(k *types.Kustomization) error { return addComponents(k, dir, components, files) })
	}
	return edits, nil
}

// editKustomization is the kustomization in dir (resolved) after edits:
// what kustomize build reads in Argo CD's checkout.
func (s *Source) editKustomization(dir string, edits []kustomizeEdit) (file string, data []byte, err error) {
	var found []string
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if s.In.Fs.IsFile(filepath.Join(dir, name)) {
			found = append(found, name)
		}
	}
	s.In.ReadDir(dir)
	switch len(found) {
	case 0:
		return "", nil, fmt.Errorf("%s: kustomize edit %s: Missing kustomization file '%s'", s.In.Rel(dir), edits[0].args, konfig.DefaultKustomizationFileName())
	case 1:
	default:
		return "", nil, fmt.Errorf("%s: kustomize edit %s: Found multiple kustomization file: %v", s.In.Rel(dir), edits[0].args, found)
	}
	file = filepath.Join(dir, found[0])
	orig, err := s.In.Fs.ReadFile(file)
	if err != nil {
		return "", nil, err
	}
	var k types.Kustomization
	if err := k.Unmarshal(orig); err != nil {
		return "", nil, fmt.Errorf("%s: kustomize edit %s: %w", s.In.Rel(file), edits[0].args, err)
	}
	k.FixKustomization()
	for _, e := range edits {
		if err := e.run(&k); err != nil {
			return "", nil, fmt.Errorf("%s: as Argo CD runs kustomize edit %s: %w", s.In.Rel(file), e.args, err)
		}
	}
	data, err = yaml.Marshal(&k)
	if err != nil {
		return "", nil, err
	}
	return file, data, nil
}

// setImages is `kustomize edit set image ARGS...`.
func setImages(k *types.Kustomization, args []string) error {
	const preserve = "*"
	byName := map[string]types.Image{}
	for _, arg := range args {
		im, err := parseImageArg(arg)
		if err != nil {
			return err
		}
		byName[im.Name] = im
	}
	for _, im := range k.Images {
		arg, ok := byName[im.Name]
		if !ok {
			byName[im.Name] = im
			continue
		}
		if arg.NewName == preserve {
			arg.NewName = im.NewName
		}
		if arg.NewTag == preserve {
			arg.NewTag = im.NewTag
		}
		if arg.Digest == preserve {
			arg.Digest = im.Digest
		}
		byName[im.Name] = arg
	}
	images := make([]types.Image, 0, len(byName))
	for _, im := range byName {
		if im.NewName == preserve {
			im.NewName = ""
		}
		if im.NewTag == preserve {
			im.NewTag = ""
		}
		if im.Digest == preserve {
			im.Digest = ""
		}
		images = append(images, im)
	}
	sort.Slice(images, func(i, j int) bool { return images[i].Name < images[j].Name })
	k.Images = images
	return nil
}

var errImageInvalidArgs = errors.New(`invalid format of image, use one of the following options:
- <image>=<newimage>:<newtag>
- <image>=<newimage>@<digest>
- <image>=<newimage>:<newtag>@<digest>
- <image>=<newimage>
- <image>:<newtag>
- <image>:<newtag>@<digest>
- <image>@<digest>`)

// parseImageArg reads name=newName:tag@digest and its shorter forms.
func parseImageArg(arg string) (types.Image, error) {
	key, value, hasKey := strings.Cut(arg, "=")
	if !hasKey {
		key, value = "", arg
	}
	name, tag, digest := util.SplitImageName(value)
	if name == arg {
		return types.Image{}, errImageInvalidArgs
	}
	im := types.Image{NewTag: tag, Digest: digest}
	if key == "" {
		im.Name = name
	} else {
		im.Name = key
		im.NewName = name
	}
	return im, nil
}

// setReplicas is `kustomize edit set replicas NAME=COUNT...`.
func setReplicas(k *types.Kustomization, args []string) error {
	byName := map[string]types.Replica{}
	for _, arg := range args {
		s := strings.Split(arg, "=")
		if len(s) != 2 {
			return errors.New("invalid format of replicas, use <name>=<count>")
		}
		n, err := strconv.ParseInt(s[1], 10, 64)
		if err != nil {
			return errors.New("invalid format of replicas, use <name>=<count>")
		}
		byName[s[0]] = types.Replica{Name: s[0], Count: n}
	}
	for _, r := range k.Replicas {
		if _, ok := byName[r.Name]; !ok {
			byName[r.Name] = r
		}
	}
	replicas := make([]types.Replica, 0, len(byName))
	for _, r := range byName {
		replicas = append(replicas, r)
	}
	sort.Slice(replicas, func(i, j int) bool { return replicas[i].Name < replicas[j].Name })
	k.Replicas = replicas
	return nil
}

// editArgs are a map as Argo CD passes it to kustomize edit add: key:value.
func editArgs(m map[string]string) []string {
	args := make([]string, 0, len(m))
	for k, v := range m {
		args = append(args, k+":"+v)
	}
	sort.Strings(args)
	return args
}

// metadataEdit is `kustomize edit add label|annotation`.
type metadataEdit struct {
	Force, WithoutSelector, IncludeTemplates bool
	Kind                                     string
}

// parse is the CLI's ConvertSliceToMap: key up to the first colon, the
// value with surrounding double quotes removed.
func (m metadataEdit) parse(args []string) (map[string]string, error) {
	out := map[string]string{}
	for _, a := range args {
		c := strings.Index(a, ":")
		switch {
		case c == 0:
			return nil, fmt.Errorf("invalid %s: '%s' (need k:v pair where v may be quoted)", m.Kind, a)
		case c < 0:
			out[a] = ""
		default:
			v := a[c+1:]
			if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
				v = v[1 : len(v)-1]
			}
			out[a[:c]] = v
		}
	}
	return out, nil
}

func (m metadataEdit) addAnnotations(k *types.Kustomization, args []string) error {
	values, err := m.parse(args)
	if err != nil {
		return err
	}
	if k.CommonAnnotations == nil {
		k.CommonAnnotations = map[string]string{}
	}
	return m.writeAll(k.CommonAnnotations, values)
}

func (m metadataEdit) AddLabels(k *types.Kustomization, args []string) error {
	if !m.WithoutSelector && m.IncludeTemplates {
		return errors.New("--without-selector flag must be specified for --include-templates to work")
	}
	values, err := m.parse(args)
	if err != nil {
		return err
	}
	if !m.WithoutSelector {
		//lint:ignore SA1019 deprecated, but kustomize edit add label writes it, and Argo CD runs that
		labels := &k.CommonLabels
		if *labels == nil {
			*labels = map[string]string{}
		}
		return m.writeAll(*labels, values)
	}
	return m.writeLabels(k, values)
}

func (m metadataEdit) writeAll(into, values map[string]string) error {
	for _, key := range sortedKeys(values) {
		if err := m.write(into, key, values[key]); err != nil {
			return err
		}
	}
	return nil
}

func (m metadataEdit) write(into map[string]string, key, value string) error {
	if _, ok := into[key]; ok && !m.Force {
		return fmt.Errorf("%s %s already in kustomization file; use --force to override", m.Kind, key)
	}
	into[key] = value
	return nil
}

// writeLabels is the CLI's writeToLabels (--without-selector), kept as
// v5.6 has it: with no labels entry of the same settings yet, the first
// key writes every key into a new entry, so a second key is found there
// and, without --force, refused as already present. Argo CD fails the
// same way.
func (m metadataEdit) writeLabels(k *types.Kustomization, values map[string]string) error {
	lbl := types.Label{Pairs: map[string]string{}, IncludeTemplates: m.IncludeTemplates}
	same := func() (int, bool) {
		for i, l := range k.Labels {
			if l.IncludeSelectors == lbl.IncludeSelectors && l.IncludeTemplates == lbl.IncludeTemplates {
				return i, true
			}
		}
		return 0, false
	}
	for _, key := range sortedKeys(values) {
		if i, ok := same(); ok {
			if err := m.write(k.Labels[i].Pairs, key, values[key]); err != nil {
				return err
			}
			continue
		}
		if err := m.writeAll(lbl.Pairs, values); err != nil {
			return err
		}
		k.Labels = append(k.Labels, lbl)
	}
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// editFiles is how an edit asks about the repository: through its
// reader, recording each directory whose listing it depends on.
type editFiles struct {
	*repofs.FS
	Read func(dir string)
}

// existingComponents keeps the components that exist, as Argo CD checks
// them with ignoreMissingComponents: joined to the source directory
// securely (securejoin), so a path cannot climb out of it, and
// "../components/x" is looked for below the source directory.
func existingComponents(dir string, components []string, files editFiles) []string {
	var out []string
	for _, c := range components {
		inside := filepath.Join(dir, filepath.Clean(string(filepath.Separator)+filepath.FromSlash(c)))
		readExisting(filepath.Dir(inside), files)
		if files.Exists(inside) {
			out = append(out, c)
		}
	}
	return out
}

// addComponents is `kustomize edit add component PATHS...` run in dir:
// each argument is a glob in dir; one that matches nothing must be a
// kustomization kustomize can load (here: a remote one, which the scan
// then refuses unless the config allows remote content).
func addComponents(k *types.Kustomization, dir string, patterns []string, files editFiles) error {
	if len(patterns) == 0 {
		return errors.New("must specify a component file")
	}
	var components []string
	for _, pattern := range patterns {
		if hasGlobMeta(pattern) {
			readExisting(filepath.Join(dir, globBase(pattern)), files)
		}
		matches, err := files.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
		if err != nil {
			return fmt.Errorf("error checking the filesystem: %w", err)
		}
		if len(matches) == 0 {
			if !source.IsRemote(pattern) {
				return fmt.Errorf("%s has no match: %s", pattern, "no such file or directory")
			}
			components = append(components, pattern)
			continue
		}
		for _, m := range matches {
			if !hasGlobMeta(pattern) {
				components = append(components, pattern)
				continue
			}
			rel, err := filepath.Rel(dir, m)
			if err != nil {
				return err
			}
			components = append(components, filepath.ToSlash(rel))
		}
	}
	for _, c := range components {
		if slices.Contains(konfig.RecognizedKustomizationFileNames(), c) {
			continue
		}
		if slices.Contains(k.Components, c) {
			continue // the CLI logs it, and leaves the list as it is
		}
		k.Components = append(k.Components, c)
	}
	return nil
}

func hasGlobMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }

// globBase is the part of a glob before its first pattern element: the
// directory whose listing its matches depend on.
func globBase(pattern string) string {
	parts := strings.Split(filepath.ToSlash(pattern), "/")
	for i, p := range parts {
		if hasGlobMeta(p) {
			return filepath.FromSlash(strings.Join(parts[:i], "/"))
		}
	}
	return filepath.FromSlash(pattern)
}

// readExisting records the listing of dir, or of its nearest existing
// parent: what says whether the path exists.
func readExisting(dir string, files editFiles) {
	for d := dir; ; d = filepath.Dir(d) {
		if real, err := files.Resolve(d); err == nil {
			files.Read(real)
			return
		}
		if filepath.Dir(d) == d {
			return
		}
	}
}
