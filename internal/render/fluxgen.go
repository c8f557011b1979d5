package render

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	fluxkustomize "github.com/fluxcd/pkg/kustomize"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/konfig"
)

// fluxGenerate makes the kustomization kustomize-controller builds in dir
// (resolved): the folder's own, or one it generates listing the folder's
// manifests, with the Kustomization's targetNamespace, namePrefix,
// nameSuffix, patches, images and components written into it. It is
// Flux's own generator that writes it, into a temporary copy of what the
// generator reads (read through the guarded file system, so recorded);
// the repository is never written. The result is made what this render
// reads as dir's kustomization (guardFS.generate).
func fluxGenerate(fs *guardFS, ks map[string]any, dir string) error {
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
	fs.reads.dir(dir)
	name, err := copyForGenerator(fs, dir, work)
	if err != nil {
		return err
	}
	gen := fluxkustomize.NewGenerator(tmp, unstructured.Unstructured{Object: ks})
	if _, err := gen.WriteFile(work); err != nil {
		return fmt.Errorf("%s: kustomize-controller's generator: %w", fs.boundary.rel(dir), hideTemp(err, work, dir))
	}
	data, err := os.ReadFile(filepath.Join(work, name))
	if err != nil {
		return err
	}
	fs.generate(filepath.Join(dir, name), data)
	return nil
}

// copyForGenerator copies into work what Flux's generator reads of dir:
// its kustomization file when it has one; else every YAML file below it,
// and the kustomization file of each folder that has one (the generator
// lists such a folder and reads nothing below it). It returns the name of
// the kustomization file the generator leaves in work.
func copyForGenerator(fs *guardFS, dir, work string) (string, error) {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		p := filepath.Join(dir, name)
		if fs.Exists(p) && !fs.IsDir(p) {
			return name, copyFile(fs, p, filepath.Join(work, name))
		}
	}
	return konfig.DefaultKustomizationFileName(), copyManifests(fs, dir, work)
}

func copyManifests(fs *guardFS, dir, work string) error {
	names, err := fs.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		info, err := os.Lstat(p)
		if err != nil {
			return err
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
			if k := kustomizationFile(p); k != "" {
				// Listed as a base: only its existence matters here.
				if err := copyFile(fs, k, filepath.Join(sub, filepath.Base(k))); err != nil {
					return err
				}
				continue
			}
			if err := copyManifests(fs, p, sub); err != nil {
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

func copyFile(fs *guardFS, from, to string) error {
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
