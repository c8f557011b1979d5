package gitops

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// artifactView is an ExternalArtifact that source-watcher's
// ArtifactGenerator copies from this repository, as a part of it: the
// repository's folder root holds the artifact's top, and only the folders
// copied are in it. The zero view is the repository itself.
type artifactView struct {
	ref           string   // the ExternalArtifact, namespace/name
	gitRepository string   // the GitRepository copied from, namespace/name
	root          string   // the repository's folder that is the artifact's top
	dirs          []string // the folders copied, relative to the artifact's top ("" for all of root)
}

// repoPath is a Kustomization's spec.path, which is in the artifact, as a
// path of the repository.
func (v artifactView) repoPath(p string) (string, error) {
	if v.ref == "" {
		return p, nil
	}
	clean := path.Clean(strings.TrimLeft(p, "/"))
	if repofs.Leaves(clean) {
		return "", fmt.Errorf("path %s is outside ExternalArtifact %s", p, v.ref)
	}
	for _, d := range v.dirs {
		if d == "" || clean == d || strings.HasPrefix(clean, d+"/") {
			return path.Join(v.root, clean), nil
		}
	}
	return "", fmt.Errorf("path %s is not in ExternalArtifact %s: its ArtifactGenerator copies %s", p, v.ref, strings.Join(v.dirs, ", "))
}

// restrict leaves out of the target's render every file of the
// repository the artifact does not have, as lines of its source's ignore
// (delivery.Deployer.SourceIgnore), after the GitRepository's: a base read
// from a folder not copied fails for the controller, and here.
func (v artifactView) restrict(t *Target) {
	if v.ref == "" || t.Deployer == nil {
		return
	}
	var keep []string
	for _, d := range v.dirs {
		keep = append(keep, strings.TrimPrefix(path.Join(v.root, d), "./"))
	}
	patterns := onlyFolders(keep)
	if len(patterns) == 0 {
		return
	}
	t.Deployer.SourceIgnore = strings.TrimLeft(t.Deployer.SourceIgnore+"\n"+strings.Join(patterns, "\n"), "\n")
}

// onlyFolders are gitignore patterns that leave out all but the folders
// keep (relative to the repository's top), depth by depth: each level
// leaves out all of a parent's entries, then takes back the one on the way
// to a folder kept.
func onlyFolders(keep []string) []string {
	if slices.Contains(keep, ".") || slices.Contains(keep, "") {
		return nil
	}
	kept := map[string]bool{}
	parents := map[string]bool{} // folders on the way to one kept
	maxDepth := 0
	for _, k := range keep {
		kept[k] = true
		parts := strings.Split(k, "/")
		maxDepth = max(maxDepth, len(parts))
		for i := 1; i < len(parts); i++ {
			parents[strings.Join(parts[:i], "/")] = true
		}
	}
	var out []string
	for depth := 1; depth <= maxDepth; depth++ {
		var level []string
		for _, d := range folderKeys(parents, kept) {
			if strings.Count(d, "/")+1 == depth {
				level = append(level, d)
			}
		}
		if len(level) == 0 {
			continue
		}
		// Leave out the entries of each parent of this level not already
		// kept whole.
		if depth == 1 {
			out = append(out, "/*")
		} else {
			for _, p := range folderKeys(parents, nil) {
				if strings.Count(p, "/")+2 == depth && !keptAbove(p, kept) {
					out = append(out, "/"+p+"/*")
				}
			}
		}
		for _, d := range level {
			if !keptAbove(parentOf(d), kept) {
				out = append(out, "!/"+d+"/")
			}
		}
	}
	return out
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

// keptAbove says whether p or a folder above it is kept whole.
func keptAbove(p string, kept map[string]bool) bool {
	for ; p != ""; p = parentOf(p) {
		if kept[p] {
			return true
		}
	}
	return false
}

func folderKeys(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if !a[k] {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// externalArtifact is the view of a Kustomization's ExternalArtifact
// source (zero for another kind), or why it is not this repository: the
// ArtifactGenerator beside it (source-watcher names each ExternalArtifact
// after its artifact, in the generator's namespace) that copies whole
// folders of this repository's GitRepository, keeping their places
// relative to each other, is a part of this repository. Anything else it
// can do (single files, exclusions, other sources, folders moved apart)
// makes an artifact this repository does not hold as it is, and the
// target is not checked.
func (s *discovery) externalArtifact(d document, ns string, objs fluxObjects) (artifactView, string, error) {
	kind, _ := d.str("spec", "sourceRef", "kind")
	if kind != "ExternalArtifact" {
		return artifactView{}, "", nil
	}
	name, _ := d.str("spec", "sourceRef", "name")
	srcNS, _ := d.str("spec", "sourceRef", "namespace")
	ref := namespacedName(or(srcNS, ns), name)
	notThis := func(why string) (artifactView, string, error) {
		return artifactView{}, fmt.Sprintf("source ExternalArtifact %s: %s", ref, why), nil
	}
	var gen document
	var artifact map[string]any
	for _, key := range sortedDocKeys(objs.generators) {
		g := objs.generators[key]
		gns, _ := namespaceOf(g)
		if gns != or(srcNS, ns) {
			continue
		}
		arts, err := g.list("spec", "artifacts")
		if err != nil {
			return artifactView{}, "", err
		}
		for _, a := range arts {
			if n, _ := a["name"].(string); n == name {
				gen, artifact = g, a
			}
		}
	}
	if artifact == nil {
		return notThis("no ArtifactGenerator beside it makes it, so not known to be this repository")
	}
	sources, err := gen.list("spec", "sources")
	if err != nil {
		return artifactView{}, "", err
	}
	aliases := map[string]map[string]any{}
	for _, src := range sources {
		if a, _ := src["alias"].(string); a != "" {
			aliases[a] = src
		}
	}
	copies, _ := artifact["copy"].([]any)
	if len(copies) == 0 {
		return notThis(fmt.Sprintf("ArtifactGenerator %s copies nothing into it", gen.name()))
	}
	v := artifactView{ref: ref}
	root := "\x00"
	for _, c := range copies {
		cp, _ := c.(map[string]any)
		from, _ := cp["from"].(string)
		to, _ := cp["to"].(string)
		if _, ok := cp["exclude"]; ok {
			return notThis(fmt.Sprintf("copy from %s excludes files, which is not followed here", from))
		}
		if st, _ := cp["strategy"].(string); st != "" && st != "Overwrite" {
			return notThis(fmt.Sprintf("copy from %s with strategy %s, which is not followed here", from, st))
		}
		alias, dir, ok := folderCopy(from)
		dest, destOK := strings.CutPrefix(to, "@artifact/")
		if !ok || !destOK || (dest != "" && !strings.HasSuffix(dest, "/")) {
			return notThis(fmt.Sprintf("copy from %s to %s is not a whole folder's, which is not followed here", from, to))
		}
		dest = strings.TrimSuffix(dest, "/")
		src, ok := aliases[alias]
		if !ok {
			return notThis(fmt.Sprintf("copy from %s: no source %s in ArtifactGenerator %s", from, alias, gen.name()))
		}
		sk, _ := src["kind"].(string)
		sn, _ := src["name"].(string)
		sns, _ := src["namespace"].(string)
		gns, _ := namespaceOf(gen)
		gref := namespacedName(or(sns, gns), sn)
		if sk != "GitRepository" {
			return notThis(fmt.Sprintf("it copies from %s %s, not a GitRepository of this repository", sk, gref))
		}
		if why, err := s.gitRepositoryReason(gref, objs); err != nil {
			return artifactView{}, "", err
		} else if why != "" {
			return notThis("copied from " + strings.TrimPrefix(why, "source "))
		}
		if v.gitRepository != "" && v.gitRepository != gref {
			return notThis("it copies from two GitRepositories")
		}
		v.gitRepository = gref
		// The folder's place in the repository, less its place in the
		// artifact, is where the artifact's top is: one for every copy.
		r, ok := strings.CutSuffix(dir, dest)
		if dest == "" {
			r, ok = dir, true
		}
		r = strings.TrimSuffix(r, "/")
		if !ok || (dest != "" && r != "" && !strings.HasSuffix(dir, "/"+dest)) || (root != "\x00" && r != root) {
			return notThis(fmt.Sprintf("its copies move this repository's folders apart (%s to %s), which is not followed here", from, to))
		}
		root = r
		v.dirs = append(v.dirs, dest)
	}
	v.root = or(root, ".")
	return v, "", nil
}

// folderCopy reads a copy's from that is a whole folder, "@alias/dir/**"
// or "@alias/**".
func folderCopy(from string) (alias, dir string, ok bool) {
	rest, ok := strings.CutPrefix(from, "@")
	if !ok {
		return "", "", false
	}
	alias, rest, _ = strings.Cut(rest, "/")
	if rest == "**" {
		return alias, "", true
	}
	dir, ok = strings.CutSuffix(rest, "/**")
	if !ok || dir == "" || strings.ContainsAny(dir, "*?[{") || path.Clean(dir) != dir || strings.HasPrefix(dir, "..") {
		return "", "", false
	}
	return alias, dir, true
}

func sortedDocKeys(m map[string]document) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
