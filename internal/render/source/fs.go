package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// guardFS is the file system kustomize reads through. Pull requests are
// untrusted, so it lets kustomize read only regular files inside the
// boundary (the repository checkout and the paths given on the command
// line), after resolving symlinks, no larger than MaxFileSize, and YAML
// without alias bombs or duplicate keys. It writes nowhere except the
// temporary directories of remote clones, which only the repository config
// can enable.
// MaxFileSize bounds every file read while rendering (repofs's bound for
// render's files): manifests are kilobytes.
const MaxFileSize = int(repofs.ManifestFile)

type GuardFS struct {
	disk     filesys.FileSystem
	Boundary *repofs.FS
	// Scratch are path prefixes kustomize may use for git clones; empty
	// unless remote content is allowed.
	Scratch []string
	mu      sync.Mutex
	cache   map[string][]byte
	// Reads records what the render read; nil records nothing.
	Reads *Reads
	// generated are files as a controller's render sees them, by resolved
	// path: Flux's generated kustomization (which may not exist on disk),
	// Argo CD's kustomize edits (withEdits). ReadFile gives them from
	// memory; the disk keeps what is there. The original of an edited
	// file was read (and recorded) to make the edit.
	generated map[string][]byte
	// Excluded, when set, is what the deployer's source leaves out of
	// what it reads (a Flux GitRepository's artifact): such a path does
	// not exist for this render.
	Excluded func(real string, isDir bool) bool
}

func NewGuardFS(b *repofs.FS) *GuardFS {
	return &GuardFS{
		disk:     filesys.MakeFsOnDisk(),
		Boundary: b,
		cache:    map[string][]byte{},
	}
}

var _ filesys.FileSystem = (*GuardFS)(nil)

// errReadOnly answers every write outside a clone directory: rendering
// never writes into the repository.
var errReadOnly = errors.New("ownership-check renders read-only")

func (g *GuardFS) inScratch(path string) bool {
	for _, s := range g.Scratch {
		if strings.HasPrefix(path, s) {
			return true
		}
	}
	return false
}

// Resolve gives the real path of name and refuses it outside the boundary
// (a clone of remote content is in scratch, outside it).
func (g *GuardFS) Resolve(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	real, err := g.Boundary.Resolve(abs)
	switch {
	case errors.Is(err, repofs.ErrOutside):
		if r, rerr := repofs.RealPath(abs); rerr == nil && g.inScratch(r) {
			real = r
			break
		}
		return "", err
	case err != nil:
		if v, ok := g.generatedPath(abs); ok {
			return v, nil
		}
		return "", err
	}
	if g.excludes(real) {
		return "", &os.PathError{Op: "open", Path: g.Boundary.Rel(abs), Err: ErrNotInArtifact}
	}
	return real, nil
}

// ReadFile reads a file within the boundary and checks it before kustomize
// parses it (kustomize itself expands YAML aliases without a limit).
func (g *GuardFS) ReadFile(name string) ([]byte, error) {
	real, err := g.Resolve(name)
	if err != nil {
		return nil, err
	}
	if data, ok := g.generatedFile(real); ok {
		return data, nil
	}
	g.Reads.File(real)
	return g.readChecked(real, g.Boundary.Rel(name), checkYAML)
}

// WithEdits is a file system for one build that reads the files in edits
// (resolved paths) as edited, and every other file as g does. It writes
// nothing: the edit lives in memory, and the repository stays as it is.
func (g *GuardFS) WithEdits(edits map[string][]byte) *GuardFS {
	e := NewGuardFS(g.Boundary)
	e.Reads = g.Reads
	e.Scratch = slices.Clone(g.Scratch)
	e.generated = edits
	e.Excluded = g.Excluded
	return e
}

// errNotInArtifact is a path the deployer's source leaves out: for its
// controller, the file does not exist.
var ErrNotInArtifact = fmt.Errorf("left out of the Flux source's artifact (.sourceignore, the GitRepository's spec.ignore or source-controller's default exclusions): %w", fs.ErrNotExist)

// excludes: real (resolved) is left out of what the deployer reads.
func (g *GuardFS) excludes(real string) bool {
	if g.Excluded == nil {
		return false
	}
	return g.Excluded(real, g.Boundary.IsDir(real))
}

// Generate makes file (resolved) read as data in this render, whether it
// exists or not.
func (g *GuardFS) Generate(file string, data []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.generated == nil {
		g.generated = map[string][]byte{}
	}
	g.generated[file] = data
}

func (g *GuardFS) generatedFile(real string) ([]byte, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	data, ok := g.generated[real]
	return data, ok
}

// Rewritten tells whether file (resolved) is read as a controller made it
// (generated, or edited as Argo CD edits a kustomization), not as the
// repository has it: its lines are not the repository's.
func (g *GuardFS) Rewritten(file string) bool {
	_, ok := g.generatedFile(file)
	return ok
}

// generatedPath is the resolved path of abs when it names a generated
// file that is not on disk.
func (g *GuardFS) generatedPath(abs string) (string, bool) {
	dir, err := g.Boundary.Resolve(filepath.Dir(abs))
	if err != nil {
		return "", false
	}
	p := filepath.Join(dir, filepath.Base(abs))
	_, ok := g.generatedFile(p)
	return p, ok
}

// KustomizationFile is the package's kustomizationFile as this render
// sees the files: a generated kustomization first.
func (g *GuardFS) KustomizationFile(dir string) string {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if _, ok := g.generatedFile(filepath.Join(dir, name)); ok {
			return filepath.Join(dir, name)
		}
	}
	return g.DiskKustomization(dir)
}

// DiskKustomization is the kustomization file in dir as the disk has it,
// "" when there is none. A link out of the repository is one: reading it
// refuses it by name.
func (g *GuardFS) DiskKustomization(dir string) string {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if p := filepath.Join(dir, name); g.IsFile(p) {
			return p
		}
	}
	return ""
}

// IsFile says whether name is there and not a directory: a file, or a
// link out of the repository, which reading it refuses by name.
func (g *GuardFS) IsFile(name string) bool {
	return g.Boundary.Exists(name) && !g.Boundary.IsDir(name)
}

// IsChartDir says whether dir (resolved) holds a chart.
func (g *GuardFS) IsChartDir(dir string) bool {
	info, err := g.Boundary.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// ReadIgnoreFile reads a file that is not YAML (a .sourceignore), within
// the boundary, bounded, and recorded.
func (g *GuardFS) ReadIgnoreFile(name string) ([]byte, error) {
	real, err := g.Resolve(name)
	if err != nil {
		return nil, err
	}
	g.Reads.File(real)
	return g.ReadBounded(real)
}

// ReadManifest is ReadFile for a manifest the caller parses strictly
// right away (parseManifests): that parse refuses duplicate keys, so only
// alias bombs are checked here. It is cached for kustomize like any file
// ReadFile read; if the parse fails, nothing is built.
func (g *GuardFS) ReadManifest(real, display string) ([]byte, error) {
	return g.readChecked(real, display, CheckAliasBombs)
}

// readChecked reads a file (resolved) once per Render, and has check pass
// it before anything parses it.
func (g *GuardFS) readChecked(real, display string, check func(file string, data []byte) error) ([]byte, error) {
	if data, ok := g.original(real); ok {
		return data, nil
	}
	data, err := g.ReadBounded(real)
	if err != nil {
		return nil, err
	}
	if err := check(display, data); err != nil {
		return nil, err
	}
	g.mu.Lock()
	g.cache[real] = data
	g.mu.Unlock()
	return data, nil
}

// original gives what ReadFile read from disk, if it did (an edited
// file's original: lines are found where users wrote them).
func (g *GuardFS) original(real string) ([]byte, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	data, ok := g.cache[real]
	return data, ok
}

// BuildFS is the guarded file system as a build run for its sources sees
// it (originsOf): with its top-level kustomization patched (origin
// annotations turned on). Each such build has its own, so builds side by
// side, one of them perhaps another's base, read every other kustomization
// as it is on disk.
type BuildFS struct {
	*GuardFS
	Kustomization string // resolved path
	Patched       []byte
}

func (b *BuildFS) ReadFile(name string) ([]byte, error) {
	real, err := b.Resolve(name)
	if err != nil {
		return nil, err
	}
	if real == b.Kustomization {
		return b.Patched, nil
	}
	return b.GuardFS.ReadFile(name)
}

// ReadBounded reads a regular file of at most repofs.ManifestFile bytes:
// inside the boundary, or a remote clone in scratch, which is read the
// same way inside the temporary directory.
func (g *GuardFS) ReadBounded(name string) ([]byte, error) {
	data, err := g.Boundary.ReadFile(name, repofs.ManifestFile)
	if !errors.Is(err, repofs.ErrOutside) || len(g.Scratch) == 0 {
		return data, err
	}
	if real, rerr := repofs.RealPath(name); rerr != nil || !g.inScratch(real) {
		return nil, err
	}
	tmp, terr := repofs.Open(filepath.Dir(name), os.TempDir())
	if terr != nil {
		return nil, terr
	}
	defer tmp.Close()
	return tmp.ReadFile(name, repofs.ManifestFile)
}

func (g *GuardFS) Open(name string) (filesys.File, error) {
	real, err := g.Resolve(name)
	if err != nil {
		return nil, err
	}
	g.Reads.File(real)
	if g.Boundary.Contains(real) {
		return g.Boundary.Open(real)
	}
	return g.disk.Open(real)
}

func (g *GuardFS) ReadDir(name string) ([]string, error) {
	real, err := g.Resolve(name)
	if err != nil {
		return nil, err
	}
	g.Reads.Dir(real)
	names, err := g.listDir(real)
	if err != nil || g.Excluded == nil {
		return names, err
	}
	return slices.DeleteFunc(names, func(n string) bool { return g.excludes(filepath.Join(real, n)) }), nil
}

func (g *GuardFS) Glob(pattern string) ([]string, error) {
	glob := g.Boundary.Glob
	if abs, err := filepath.Abs(pattern); err == nil && g.inScratch(abs) {
		// A remote clone's own files (only where the config allows them).
		glob = g.disk.Glob
	}
	matches, err := glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		if _, err := g.Resolve(m); err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

func (g *GuardFS) Walk(path string, walkFn filepath.WalkFunc) error {
	real, err := g.Resolve(path)
	if err != nil {
		return err
	}
	// Everything below may matter: the directory stands for all of it.
	g.Reads.Dir(real)
	if g.Boundary.Contains(real) {
		return g.Boundary.Walk(path, walkFn)
	}
	return g.disk.Walk(path, walkFn)
}

// LinkEntry is what WalkLinks meets (repofs.LinkEntry).
type LinkEntry = repofs.LinkEntry

// WalkLinks is repofs's walk that follows links (a directory link loop an
// error naming the link), with what the deployer's source leaves out not
// there: the controller loads a chart from the artifact, which lacks
// such a file (ingress-nginx's cloudbuild.yaml), so the walk passes it by.
func (g *GuardFS) WalkLinks(name string, fn func(LinkEntry) error) error {
	return g.Boundary.WalkLinks(name, func(e repofs.LinkEntry) error {
		if e.Rel != "" && g.excludes(e.Real) {
			if e.Info.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		return fn(e)
	})
}

// listDir lists a directory (resolved) by name: the boundary's through
// the repository's reader, a remote clone's in scratch from the disk.
func (g *GuardFS) listDir(real string) ([]string, error) {
	if !g.Boundary.Contains(real) {
		return g.disk.ReadDir(real)
	}
	entries, err := g.Boundary.ReadDir(real)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(entries))
	for i, e := range entries {
		names[i] = e.Name()
	}
	return names, nil
}

// Metadata queries pass through: kustomize resolves and confirms
// directories with them, and every read is checked above.
func (g *GuardFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
	d, f, err := g.disk.CleanedAbs(path)
	if err != nil {
		// A generated file that is not on disk (the helmCharts' rendered
		// resource file) is there for kustomize's loader.
		if abs, aerr := filepath.Abs(path); aerr == nil {
			if p, ok := g.generatedPath(abs); ok {
				return filesys.ConfirmedDir(filepath.Dir(p)), filepath.Base(p), nil
			}
		}
	}
	return d, f, err
}
func (g *GuardFS) Exists(name string) bool {
	if g.Boundary.Exists(name) || g.scratchPath(name) && g.disk.Exists(name) {
		return !g.ExcludedPath(name)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	_, ok := g.generatedPath(abs)
	return ok
}
func (g *GuardFS) IsDir(name string) bool {
	return (g.Boundary.IsDir(name) || g.scratchPath(name) && g.disk.IsDir(name)) && !g.ExcludedPath(name)
}

// scratchPath: name is in a remote clone.
func (g *GuardFS) scratchPath(name string) bool {
	if len(g.Scratch) == 0 {
		return false
	}
	real, err := repofs.RealPath(name)
	return err == nil && g.inScratch(real)
}

// ExcludedPath: name, as kustomize asks about it, is left out.
func (g *GuardFS) ExcludedPath(name string) bool {
	if g.Excluded == nil {
		return false
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	real, err := g.Boundary.Resolve(abs)
	return err == nil && g.excludes(real)
}

func (g *GuardFS) writable(name string) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	if !g.inScratch(abs) {
		return fmt.Errorf("%s: %w", name, errReadOnly)
	}
	return nil
}

func (g *GuardFS) Create(name string) (filesys.File, error) {
	if err := g.writable(name); err != nil {
		return nil, err
	}
	return g.disk.Create(name)
}

func (g *GuardFS) Mkdir(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.Mkdir(name)
}

func (g *GuardFS) MkdirAll(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.MkdirAll(name)
}

func (g *GuardFS) RemoveAll(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.RemoveAll(name)
}

func (g *GuardFS) WriteFile(name string, data []byte) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.WriteFile(name, data)
}

// RealOrSelf is p with symlinks resolved, or p when it does not exist.
func (g *GuardFS) RealOrSelf(p string) string {
	if r, err := g.Boundary.Resolve(p); err == nil {
		return r
	}
	return p
}
