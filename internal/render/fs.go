package render

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

type guardFS struct {
	disk     filesys.FileSystem
	boundary *repofs.FS
	// scratch are path prefixes kustomize may use for git clones; empty
	// unless remote content is allowed.
	scratch []string
	mu      sync.Mutex
	cache   map[string][]byte
	// reads records what the render read; nil records nothing.
	reads *Reads
	// generated are files as a controller's render sees them, by resolved
	// path: Flux's generated kustomization (which may not exist on disk),
	// Argo CD's kustomize edits (withEdits). ReadFile gives them from
	// memory; the disk keeps what is there. The original of an edited
	// file was read (and recorded) to make the edit.
	generated map[string][]byte
	// excluded, when set, is what the deployer's source leaves out of
	// what it reads (a Flux GitRepository's artifact): such a path does
	// not exist for this render.
	excluded func(real string, isDir bool) bool
}

func newGuardFS(b *repofs.FS) *guardFS {
	return &guardFS{
		disk:     filesys.MakeFsOnDisk(),
		boundary: b,
		cache:    map[string][]byte{},
	}
}

var _ filesys.FileSystem = (*guardFS)(nil)

// errReadOnly answers every write outside a clone directory: rendering
// never writes into the repository.
var errReadOnly = errors.New("ownership-check renders read-only")

func (g *guardFS) inScratch(path string) bool {
	for _, s := range g.scratch {
		if strings.HasPrefix(path, s) {
			return true
		}
	}
	return false
}

// resolve gives the real path of name and refuses it outside the boundary
// (a clone of remote content is in scratch, outside it).
func (g *guardFS) resolve(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	real, err := g.boundary.Resolve(abs)
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
		return "", &os.PathError{Op: "open", Path: g.boundary.Rel(abs), Err: errNotInArtifact}
	}
	return real, nil
}

// ReadFile reads a file within the boundary and checks it before kustomize
// parses it (kustomize itself expands YAML aliases without a limit).
func (g *guardFS) ReadFile(name string) ([]byte, error) {
	real, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	if data, ok := g.generatedFile(real); ok {
		return data, nil
	}
	g.reads.file(real)
	return g.readChecked(real, g.boundary.Rel(name), checkYAML)
}

// withEdits is a file system for one build that reads the files in edits
// (resolved paths) as edited, and every other file as g does. It writes
// nothing: the edit lives in memory, and the repository stays as it is.
func (g *guardFS) withEdits(edits map[string][]byte) *guardFS {
	e := newGuardFS(g.boundary)
	e.reads = g.reads
	e.scratch = slices.Clone(g.scratch)
	e.generated = edits
	e.excluded = g.excluded
	return e
}

// errNotInArtifact is a path the deployer's source leaves out: for its
// controller, the file does not exist.
var errNotInArtifact = fmt.Errorf("left out of the Flux source's artifact (.sourceignore, the GitRepository's spec.ignore or source-controller's default exclusions): %w", fs.ErrNotExist)

// excludes: real (resolved) is left out of what the deployer reads.
func (g *guardFS) excludes(real string) bool {
	if g.excluded == nil {
		return false
	}
	return g.excluded(real, g.boundary.IsDir(real))
}

// generate makes file (resolved) read as data in this render, whether it
// exists or not.
func (g *guardFS) generate(file string, data []byte) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.generated == nil {
		g.generated = map[string][]byte{}
	}
	g.generated[file] = data
}

func (g *guardFS) generatedFile(real string) ([]byte, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	data, ok := g.generated[real]
	return data, ok
}

// generatedPath is the resolved path of abs when it names a generated
// file that is not on disk.
func (g *guardFS) generatedPath(abs string) (string, bool) {
	dir, err := g.boundary.Resolve(filepath.Dir(abs))
	if err != nil {
		return "", false
	}
	p := filepath.Join(dir, filepath.Base(abs))
	_, ok := g.generatedFile(p)
	return p, ok
}

// kustomizationFile is the package's kustomizationFile as this render
// sees the files: a generated kustomization first.
func (g *guardFS) kustomizationFile(dir string) string {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if _, ok := g.generatedFile(filepath.Join(dir, name)); ok {
			return filepath.Join(dir, name)
		}
	}
	return g.diskKustomization(dir)
}

// diskKustomization is the kustomization file in dir as the disk has it,
// "" when there is none. A link out of the repository is one: reading it
// refuses it by name.
func (g *guardFS) diskKustomization(dir string) string {
	for _, name := range konfig.RecognizedKustomizationFileNames() {
		if p := filepath.Join(dir, name); g.isFile(p) {
			return p
		}
	}
	return ""
}

// isFile says whether name is there and not a directory: a file, or a
// link out of the repository, which reading it refuses by name.
func (g *guardFS) isFile(name string) bool {
	return g.boundary.Exists(name) && !g.boundary.IsDir(name)
}

// isChartDir says whether dir (resolved) holds a chart.
func (g *guardFS) isChartDir(dir string) bool {
	info, err := g.boundary.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// readIgnoreFile reads a file that is not YAML (a .sourceignore), within
// the boundary, bounded, and recorded.
func (g *guardFS) readIgnoreFile(name string) ([]byte, error) {
	real, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	g.reads.file(real)
	return g.readBounded(real)
}

// readManifest is ReadFile for a manifest the caller parses strictly
// right away (parseManifests): that parse refuses duplicate keys, so only
// alias bombs are checked here. It is cached for kustomize like any file
// ReadFile read; if the parse fails, nothing is built.
func (g *guardFS) readManifest(real, display string) ([]byte, error) {
	return g.readChecked(real, display, checkAliasBombs)
}

// readChecked reads a file (resolved) once per Render, and has check pass
// it before anything parses it.
func (g *guardFS) readChecked(real, display string, check func(file string, data []byte) error) ([]byte, error) {
	if data, ok := g.original(real); ok {
		return data, nil
	}
	data, err := g.readBounded(real)
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
func (g *guardFS) original(real string) ([]byte, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	data, ok := g.cache[real]
	return data, ok
}

// buildFS is the guarded file system as a build run for its sources sees
// it (originsOf): with its top-level kustomization patched (origin
// annotations turned on). Each such build has its own, so builds side by
// side, one of them perhaps another's base, read every other kustomization
// as it is on disk.
type buildFS struct {
	*guardFS
	kustomization string // resolved path
	patched       []byte
}

func (b *buildFS) ReadFile(name string) ([]byte, error) {
	real, err := b.resolve(name)
	if err != nil {
		return nil, err
	}
	if real == b.kustomization {
		return b.patched, nil
	}
	return b.guardFS.ReadFile(name)
}

// readBounded reads a regular file of at most repofs.ManifestFile bytes:
// inside the boundary, or a remote clone in scratch, which is read the
// same way inside the temporary directory.
func (g *guardFS) readBounded(name string) ([]byte, error) {
	data, err := g.boundary.ReadFile(name, repofs.ManifestFile)
	if !errors.Is(err, repofs.ErrOutside) || len(g.scratch) == 0 {
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

func (g *guardFS) Open(name string) (filesys.File, error) {
	real, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	g.reads.file(real)
	if g.boundary.Contains(real) {
		return g.boundary.Open(real)
	}
	return g.disk.Open(real)
}

func (g *guardFS) ReadDir(name string) ([]string, error) {
	real, err := g.resolve(name)
	if err != nil {
		return nil, err
	}
	g.reads.dir(real)
	names, err := g.listDir(real)
	if err != nil || g.excluded == nil {
		return names, err
	}
	return slices.DeleteFunc(names, func(n string) bool { return g.excludes(filepath.Join(real, n)) }), nil
}

func (g *guardFS) Glob(pattern string) ([]string, error) {
	matches, err := g.disk.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, m := range matches {
		if _, err := g.resolve(m); err == nil {
			out = append(out, m)
		}
	}
	return out, nil
}

func (g *guardFS) Walk(path string, walkFn filepath.WalkFunc) error {
	real, err := g.resolve(path)
	if err != nil {
		return err
	}
	// Everything below may matter: the directory stands for all of it.
	g.reads.dir(real)
	if g.boundary.Contains(real) {
		return g.boundary.Walk(path, walkFn)
	}
	return g.disk.Walk(path, walkFn)
}

// listDir lists a directory (resolved) by name: the boundary's through
// the repository's reader, a remote clone's in scratch from the disk.
func (g *guardFS) listDir(real string) ([]string, error) {
	if !g.boundary.Contains(real) {
		return g.disk.ReadDir(real)
	}
	entries, err := g.boundary.ReadDir(real)
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
func (g *guardFS) CleanedAbs(path string) (filesys.ConfirmedDir, string, error) {
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
func (g *guardFS) Exists(name string) bool {
	if g.boundary.Exists(name) || g.scratchPath(name) && g.disk.Exists(name) {
		return !g.excludedPath(name)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	_, ok := g.generatedPath(abs)
	return ok
}
func (g *guardFS) IsDir(name string) bool {
	return (g.boundary.IsDir(name) || g.scratchPath(name) && g.disk.IsDir(name)) && !g.excludedPath(name)
}

// scratchPath: name is in a remote clone.
func (g *guardFS) scratchPath(name string) bool {
	if len(g.scratch) == 0 {
		return false
	}
	real, err := repofs.RealPath(name)
	return err == nil && g.inScratch(real)
}

// excludedPath: name, as kustomize asks about it, is left out.
func (g *guardFS) excludedPath(name string) bool {
	if g.excluded == nil {
		return false
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return false
	}
	real, err := g.boundary.Resolve(abs)
	return err == nil && g.excludes(real)
}

func (g *guardFS) writable(name string) error {
	abs, err := filepath.Abs(name)
	if err != nil {
		return err
	}
	if !g.inScratch(abs) {
		return fmt.Errorf("%s: %w", name, errReadOnly)
	}
	return nil
}

func (g *guardFS) Create(name string) (filesys.File, error) {
	if err := g.writable(name); err != nil {
		return nil, err
	}
	return g.disk.Create(name)
}

func (g *guardFS) Mkdir(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.Mkdir(name)
}

func (g *guardFS) MkdirAll(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.MkdirAll(name)
}

func (g *guardFS) RemoveAll(name string) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.RemoveAll(name)
}

func (g *guardFS) WriteFile(name string, data []byte) error {
	if err := g.writable(name); err != nil {
		return err
	}
	return g.disk.WriteFile(name, data)
}

// realOrSelf is p with symlinks resolved, or p when it does not exist.
func (g *guardFS) realOrSelf(p string) string {
	if r, err := g.boundary.Resolve(p); err == nil {
		return r
	}
	return p
}
