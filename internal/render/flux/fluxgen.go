package flux

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	fluxkustomize "github.com/fluxcd/pkg/kustomize"
	"github.com/fluxcd/pkg/sourceignore"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/konfig"

	"github.com/ownership-check/ownership-check/internal/render/source"
	"github.com/ownership-check/ownership-check/internal/repofs"
)

// fluxGenerate makes the kustomization kustomize-controller builds in dir
// (resolved): the folder's own, or one it generates listing the folder's
// manifests, with the Kustomization's targetNamespace, namePrefix,
// nameSuffix, patches, images and components written into it. It is
// Flux's own generator that writes it, into a temporary copy of what the
// generator reads (read through the guarded file system, so recorded);
// the repository is never written. The result is made what this render
// reads as dir's kustomization (guardFS.generate).
func fluxGenerate(fs *source.GuardFS, ks map[string]any, dir string) error {
	tmp, err := os.MkdirTemp("", "ownership-check-flux-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	work := filepath.Join(tmp, "path")
	if err := os.Mkdir(work, 0o700); err != nil {
		return err
	}
	// The folder's listing decides whether a kustomization is generated,
	// and what it lists.
	fs.Reads.Dir(dir)
	ignore, err := sourceIgnore(fs, dir)
	if err != nil {
		return err
	}
	name, err := copyForGenerator(fs, dir, work, ignore)
	if err != nil {
		return err
	}
	gen := fluxkustomize.NewGenerator(tmp, unstructured.Unstructured{Object: ks})
	if _, err := gen.WriteFile(work); err != nil {
		return fmt.Errorf("%s: kustomize-controller's generator: %w", fs.Boundary.Rel(dir), hideTemp(err, work, dir))
	}
	data, err := readWork(work, name)
	if err != nil {
		return err
	}
	fs.Generate(filepath.Join(dir, name), data)
	return nil
}

// copyForGenerator copies into work what Flux's generator reads of dir:
// its kustomization file when it has one; else every YAML file below it,
// and the kustomization file of each folder that has one (the generator
// lists such a folder and reads nothing below it). It returns the name of
// the kustomization file the generator leaves in work.
func copyForGenerator(fs *source.GuardFS, dir, work string, ignore *fluxIgnore) (string, error) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		p := filepath.Join(dir, name)
		if fs.Exists(p) && !fs.IsDir(p) {
			return name, copyFile(fs, p, filepath.Join(work, name))
		}
	}
	return konfig.DefaultKustomizationFileName(), copyManifests(fs, dir, work, ignore)
}

func copyManifests(fs *source.GuardFS, dir, work string, ignore *fluxIgnore) error {
	names, err := fs.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		info, err := fs.Boundary.Lstat(p)
		if err != nil {
			return err
		}
		if ignore.ignores(p, info.IsDir()) {
			// Not in the source's artifact: the controller never sees it.
			continue
		}
		if info.Mode()&os.ModeSymlink != 0 && fs.IsDir(p) {
			// The generator's walk does not follow a link to a folder,
			// and lists nothing of it.
			continue
		}
		if info.IsDir() {
			sub := filepath.Join(work, n)
			if err := os.Mkdir(sub, 0o700); err != nil {
				return err
			}
			if k := fs.DiskKustomization(p); k != "" {
				// Listed as a base: only its existence matters here.
				if err := copyFile(fs, k, filepath.Join(sub, filepath.Base(k))); err != nil {
					return err
				}
				continue
			}
			if err := ignore.load(fs, p); err != nil {
				return err
			}
			if err := copyManifests(fs, p, sub, ignore); err != nil {
				return err
			}
			continue
		}
		if ext := filepath.Ext(n); ext == ".yaml" || ext == ".yml" {
			if err := copyFile(fs, p, filepath.Join(work, n)); err != nil {
				return err
			}
		}
	}
	return nil
}

func copyFile(fs *source.GuardFS, from, to string) error {
	data, err := fs.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o600)
}

// hideTemp names the folder in the generator's errors as users see it,
// not the temporary copy.
func hideTemp(err error, work, dir string) error {
	msg := strings.ReplaceAll(err.Error(), work, dir)
	if msg == err.Error() {
		return err
	}
	return errors.New(msg)
}

// fluxIgnore is what source-controller leaves out of a repository's
// artifact, as far as a folder's manifests go: its default exclusions
// (.sops.yaml, CI files, images, ...) and the patterns of the .sourceignore
// files of the folder, of its parents up to the repository's top, and of
// the folders below it. (A GitRepository's spec.ignore is not known here.)
type fluxIgnore struct {
	root     string // the repository's top: where the artifact starts
	patterns []gitignore.Pattern
	matcher  gitignore.Matcher
}

func sourceIgnore(fs *source.GuardFS, dir string) (*fluxIgnore, error) {
	root := fs.Boundary.Top()
	if !repofs.Within(root, dir) {
		root = dir
	}
	ig := &fluxIgnore{root: root}
	rel, err := filepath.Rel(root, dir)
	if err != nil {
		return nil, err
	}
	d := root
	if err := ig.load(fs, d); err != nil {
		return nil, err
	}
	if rel != "." {
		for _, part := range strings.Split(rel, string(filepath.Separator)) {
			d = filepath.Join(d, part)
			if err := ig.load(fs, d); err != nil {
				return nil, err
			}
		}
	}
	return ig, nil
}

// load adds the patterns of dir's .sourceignore. Its path is recorded as
// read whether it exists or not: adding one changes the render.
func (ig *fluxIgnore) load(fs *source.GuardFS, dir string) error {
	p := filepath.Join(dir, sourceignore.IgnoreFile)
	fs.Reads.File(p)
	if !fs.Exists(p) {
		return nil
	}
	data, err := fs.ReadIgnoreFile(p)
	if err != nil {
		return err
	}
	ig.patterns = append(ig.patterns, sourceignore.ReadPatterns(bytes.NewReader(data), ig.domain(dir))...)
	ig.matcher = nil
	return nil
}

func (ig *fluxIgnore) domain(dir string) []string {
	rel, err := filepath.Rel(ig.root, dir)
	if err != nil || rel == "." {
		return nil
	}
	return strings.Split(rel, string(filepath.Separator))
}

func (ig *fluxIgnore) ignores(p string, isDir bool) bool {
	if ig.matcher == nil {
		ig.matcher = sourceignore.NewDefaultMatcher(ig.patterns, nil)
	}
	return ig.matcher.Match(append(ig.domain(filepath.Dir(p)), filepath.Base(p)), isDir)
}

// readWork reads what the generator wrote in its work directory, bounded
// like every file of the render.
func readWork(work, name string) ([]byte, error) {
	files, err := repofs.Open(work, ".")
	if err != nil {
		return nil, err
	}
	defer files.Close()
	return files.ReadFile(name, repofs.ManifestFile)
}
