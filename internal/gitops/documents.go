package gitops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/repofs"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// document is one object of interest in a YAML file of the repository.
type document struct {
	file string // relative to the repository's top, with "/"
	line int    // where the document's content starts
	obj  map[string]any
	// inputs are more files whose change changes a target made of it
	// (what an app-of-apps' render read, for an Application it made).
	inputs []string
	// rev is the revision of the tree it was read from (a pinned
	// parent's), nil for the working tree.
	rev *delivery.Revision
	// values are the ConfigMaps and Secrets of the render that made it
	// (delivery.Deployer.RenderedValues); nil for a document read as
	// written.
	values []model.ValuesSource
	// fromSecret are the fields a parent's substitution set from a
	// Secret's placeholder (RenderedObject.FromSecret).
	fromSecret []model.SecretField
}

func (d document) where() string { return fmt.Sprintf("%s:%d", d.file, d.line) }

func (d document) apiGroup() string {
	av, _ := d.obj["apiVersion"].(string)
	g, _, _ := strings.Cut(av, "/")
	return g
}

func (d document) kind() string { k, _ := d.obj["kind"].(string); return k }

// is says whether the document is a kind of an API group; "" is the core
// group (apiVersion v1).
func (d document) is(group, kind string) bool {
	if d.kind() != kind {
		return false
	}
	av, _ := d.obj["apiVersion"].(string)
	if group == "" {
		return av == "v1"
	}
	return d.apiGroup() == group && strings.Contains(av, "/")
}

// The API groups whose objects discovery reads.
const (
	groupFluxKustomize = "kustomize.toolkit.fluxcd.io"
	groupFluxHelm      = "helm.toolkit.fluxcd.io"
	groupFluxSource    = "source.toolkit.fluxcd.io"
	// groupFluxSourceExtensions is source-watcher's: its
	// ArtifactGenerator makes ExternalArtifacts from other sources.
	groupFluxSourceExtensions = "source.extensions.fluxcd.io"
	groupArgoCD               = "argoproj.io"
)

// interestingKind finds, before any parse, the documents that may hold an
// object discovery reads; the rest of a repository's YAML (Flux's own
// CRDs, every app's manifests) is skipped unparsed.
var interestingKind = regexp.MustCompile(`\bkind["']?\s*:\s*["']?(Kustomization|HelmRelease|GitRepository|HelmRepository|OCIRepository|Bucket|ConfigMap|Secret|Application|ApplicationSet|ArtifactGenerator)\b`)

// gitOpsAPI says that a document that does not parse was meant to be a
// GitOps object: an error then, where other YAML that does not parse is
// none of discovery's business.
var gitOpsAPI = regexp.MustCompile(`\bapiVersion["']?\s*:\s*["']?(kustomize|helm|source)\.toolkit\.fluxcd\.io/|\bapiVersion["']?\s*:\s*["']?source\.extensions\.fluxcd\.io/|\bapiVersion["']?\s*:\s*["']?argoproj\.io/`)

// interesting says whether discovery keeps a parsed object.
func interesting(d document) bool {
	switch d.apiGroup() {
	case groupFluxKustomize:
		return d.kind() == "Kustomization"
	case groupFluxHelm:
		return d.kind() == "HelmRelease"
	case groupFluxSource:
		return true
	case groupFluxSourceExtensions:
		return d.kind() == "ArtifactGenerator"
	case groupArgoCD:
		return d.kind() == "Application" || d.kind() == "ApplicationSet"
	}
	return d.is("", "ConfigMap") || d.is("", "Secret")
}

// documents reads the YAML files under dir (relative to the repository's
// top; recursive or only its own files), each once per discovery.
func (s *discovery) documents(ctx context.Context, dir string, recursive bool) ([]document, error) {
	top := filepath.Join(s.repo.Root, filepath.FromSlash(dir))
	info, err := s.read.Stat(top)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("%s: not a directory", dir)
	}
	var files []string
	err = s.read.WalkDir(top, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if e.IsDir() {
			if p != top && (!recursive || strings.HasPrefix(e.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := filepath.Ext(p); ext == ".yaml" || ext == ".yml" {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []document
	for _, abs := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		docs, err := s.file(abs)
		if err != nil {
			return nil, err
		}
		out = append(out, docs...)
	}
	return out, nil
}

// file reads one file's documents of interest, once.
func (s *discovery) file(abs string) ([]document, error) {
	rel, err := filepath.Rel(s.repo.Root, abs)
	if err != nil {
		return nil, err
	}
	rel = filepath.ToSlash(rel)
	if docs, ok := s.files[rel]; ok {
		return docs, nil
	}
	data, err := s.read.ReadFile(abs, repofs.GitOpsFile)
	if err != nil {
		return nil, err
	}
	docs, err := parseDocuments(rel, data)
	if err != nil {
		return nil, err
	}
	s.files[rel] = docs
	return docs, nil
}

// parseDocuments reads a multi-document YAML file's objects of interest.
// A document that does not parse is skipped unless it names a GitOps
// API: then it is an error naming the file and line.
func parseDocuments(file string, data []byte) ([]document, error) {
	var out []document
	for _, c := range yamldoc.Split(data) {
		if c.Line == 0 || !interestingKind.Match(c.Text) {
			continue
		}
		// Strict: the API server refuses a duplicate key, and discovery
		// will not read one of the two.
		j, err := yamldoc.ToJSON(c.Text)
		if err != nil {
			if gitOpsAPI.Match(c.Text) {
				return nil, yamldoc.Error(file, c, err)
			}
			continue
		}
		var v any
		if err := utiljson.Unmarshal(j, &v); err != nil {
			if gitOpsAPI.Match(c.Text) {
				return nil, fmt.Errorf("%s:%d: %w", file, c.Line, err)
			}
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			continue
		}
		d := document{file: file, line: c.Line, obj: m}
		if !interesting(d) {
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

// errNotFound marks a path the controller would not find.
var errNotFound = errors.New("not in the repository")

// repoPath is a controller's path (relative to the repository's top, as
// Flux's spec.path and Argo CD's source.path are) as discovery names it:
// "./" and a leading "/" dropped, cleaned. It is an error when the path
// leaves the repository or is not there.
func (s *discovery) repoPath(p string) (string, error) {
	clean := path.Clean(strings.TrimLeft(p, "/"))
	if repofs.Leaves(clean) {
		return "", fmt.Errorf("path %s is outside the repository", p)
	}
	if _, err := s.read.Stat(filepath.FromSlash(clean)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return clean, fmt.Errorf("path %s: %w", clean, errNotFound)
		}
		return clean, fmt.Errorf("path %s: %w", clean, err)
	}
	return clean, nil
}
