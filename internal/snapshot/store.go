package snapshot

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/model"
)

// ErrNotFound is wrapped by Read's error when the branch or the
// environment's folder does not exist: there is no snapshot yet, which is
// not the same as an unreadable one.
var ErrNotFound = errors.New("no snapshot")

// Store is the snapshot branch of one git repository. It talks to the
// repository through the git CLI only (docs/snapshots.md says why), never
// touching a working tree, the index or HEAD.
type Store struct {
	git    *gitRepo
	branch string
	// remote is the name of the remote to fetch from and push to; empty for
	// a repository without one, whose local branch is the store.
	remote string
	// cache is a bare clone made for a URL, removed by Close.
	cache string
	// isShallow: the repository is a shallow clone (shallow).
	shallowOnce sync.Once
	isShallow   bool
	// reader reads blobs for the many targets of a run (List), nil
	// before.
	reader *gitexec.BlobReader
}

// Open opens the snapshot branch of a repository: repo is a path to a
// repository (its work tree, a subdirectory or a bare repository), a URL
// (cloned bare into a temporary directory and pushed back), a git bundle
// file (*.bundle, read only), or "" for the working directory's
// repository. Call Close when done.
func Open(ctx context.Context, repo, branch string) (*Store, error) {
	if branch == "" {
		branch = model.DefaultSnapshotBranch
	}
	if err := gitexec.CheckRefFormat(ctx, "refs/heads/"+branch); err != nil {
		var ge *gitexec.Error
		if errors.As(err, &ge) && ge.ExitCode > 0 {
			return nil, fmt.Errorf("snapshot branch %q: not a valid branch name", branch)
		}
		return nil, fmt.Errorf("%w (ownership-check needs the git CLI for snapshots)", err)
	}
	if isURL(repo) {
		return openURL(ctx, repo, branch)
	}
	if bundle, ok := bundlePath(repo); ok {
		return openURL(ctx, bundle, branch)
	}
	dir := repo
	if dir == "" {
		dir = "."
	}
	gitDir, err := discoverGitDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	s := &Store{git: &gitRepo{gitDir: gitDir}, branch: branch}
	if s.remote, err = s.pickRemote(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

var scpLike = regexp.MustCompile(`^[A-Za-z0-9._-]+@[A-Za-z0-9._-]+:`)

// isURL tells a remote repository from a local path; an existing local path
// wins, as it does for git.
func isURL(repo string) bool {
	if repo == "" {
		return false
	}
	if _, err := os.Stat(repo); err == nil {
		return false
	}
	return strings.Contains(repo, "://") || scpLike.MatchString(repo)
}

func discoverGitDir(ctx context.Context, dir string) (string, error) {
	gitDir, err := gitexec.GitDir(ctx, dir)
	if err != nil {
		// No advice on which flag to set: the caller's front end words it
		// once (the command line's --snapshot-repo, the action's input).
		abs, _ := filepath.Abs(dir)
		return "", fmt.Errorf("snapshot repository %s: not a git repository: %w", abs, err)
	}
	return gitDir, nil
}

func openURL(ctx context.Context, url, branch string) (*Store, error) {
	dir, err := os.MkdirTemp("", "ownership-check-snapshots-*")
	if err != nil {
		return nil, err
	}
	s := &Store{git: &gitRepo{gitDir: dir}, branch: branch, remote: "origin", cache: dir}
	if err := gitexec.InitBare(ctx, s.git.where(), dir); err != nil {
		s.Close()
		return nil, err
	}
	if err := gitexec.AddRemote(ctx, s.git.where(), "origin", url); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// pickRemote chooses origin, or the only remote; none means local-only.
func (s *Store) pickRemote(ctx context.Context) (string, error) {
	remotes, err := gitexec.Remotes(ctx, s.git.where())
	if err != nil {
		return "", err
	}
	for _, r := range remotes {
		if r == "origin" {
			return r, nil
		}
	}
	if len(remotes) == 1 {
		return remotes[0], nil
	}
	return "", nil
}

// Close removes the temporary clone of a URL repository.
func (s *Store) Close() error {
	if s.reader != nil {
		s.reader.Close()
	}
	if s.cache == "" {
		return nil
	}
	return os.RemoveAll(s.cache)
}

// Branch is the snapshot branch's name.
func (s *Store) Branch() string { return s.branch }

// Remote is the remote the store pushes to, or "" for a local-only store.
func (s *Store) Remote() string { return s.remote }

// trackingRef is where the remote branch is fetched to: outside
// refs/heads and refs/remotes, so no branch of the user's changes.
func (s *Store) trackingRef() string { return "refs/ownership-check/" + s.branch }

// shallow tells whether the branch is fetched at depth 1: into the
// store's own clone of a URL, or into a repository that is shallow
// already (a CI checkout, such as actions/checkout's default depth 1).
// A full clone of the user's is never made shallow by a fetch of ours.
func (s *Store) shallow(ctx context.Context) bool {
	if s.cache != "" {
		return true
	}
	s.shallowOnce.Do(func() {
		s.isShallow = gitexec.IsShallow(ctx, s.git.where())
	})
	return s.isShallow
}

// fetchTip returns the branch's current tip, fetching it first when the
// store has a remote; "" when the branch does not exist yet.
func (s *Store) fetchTip(ctx context.Context) (string, error) {
	return s.fetch(ctx, false)
}

// fetchOlder fetches an older commit of the branch: in a shallow
// repository that commit alone (a full commit id), else the branch whole.
func (s *Store) fetchOlder(ctx context.Context, rev string) error {
	if s.shallow(ctx) && fullCommitID.MatchString(rev) {
		return gitexec.Fetch(ctx, s.git.where(), s.remote, rev, true)
	}
	_, err := s.fetch(ctx, true)
	return err
}

// fetch is fetchTip; whole fetches the branch's history whole.
func (s *Store) fetch(ctx context.Context, whole bool) (string, error) {
	if s.remote == "" {
		return s.git.resolveCommit(ctx, "refs/heads/"+s.branch)
	}
	// The tip's tree is all a run reads and all a new commit needs (its
	// parent is named, not read): a year of snapshots is thousands of
	// commits a job has no use for.
	shallow := !whole && s.shallow(ctx)
	err := gitexec.Fetch(ctx, s.git.where(), s.remote, "+refs/heads/"+s.branch+":"+s.trackingRef(), shallow)
	if err != nil {
		if strings.Contains(err.Error(), "couldn't find remote ref") {
			// Forget a tip fetched before the branch was deleted.
			gitexec.DeleteRef(ctx, s.git.where(), s.trackingRef())
			return "", nil
		}
		return "", fmt.Errorf("fetch snapshot branch %s from %s: %w", s.branch, s.remote, err)
	}
	return s.git.resolveCommit(ctx, s.trackingRef())
}

// Environments lists the environments with a folder at a commit of the
// branch ("" = the tip): a folder with an index, or `namespace/name` (and
// `cluster/namespace/name`) where a folder without one holds folders with
// one.
func (s *Store) Environments(ctx context.Context, commit string) ([]string, error) {
	c, err := s.commitOf(ctx, commit)
	if err != nil {
		if errors.Is(err, ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	top, err := s.git.lsTree(ctx, c, false)
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, e := range top {
		// Log folders (_history) are no environment.
		if e.typ == "tree" && ValidateEnvironment(e.path) == nil {
			dirs = append(dirs, e.path+"/")
		}
	}
	// Level by level: a folder's index makes it an environment; its other
	// folders may hold a namespace's (or a cluster's) environments.
	var envs []string
	// ValidateEnvironment bounds the depth.
	for len(dirs) > 0 {
		children, err := s.git.lsTree(ctx, c, false, dirs...)
		if err != nil {
			return nil, err
		}
		dirs = nil
		for _, e := range children {
			dir, base := path.Split(e.path)
			switch {
			case e.typ == "blob" && base == indexFile:
				envs = append(envs, strings.TrimSuffix(dir, "/"))
			case e.typ == "tree" && base != objectsDir && ValidateEnvironment(e.path) == nil:
				dirs = append(dirs, e.path+"/")
			}
		}
	}
	sort.Strings(envs)
	return envs, nil
}

// commitOf resolves a commit of the branch; "" is the tip, fetched first.
func (s *Store) commitOf(ctx context.Context, rev string) (string, error) {
	if rev == "" {
		tip, err := s.fetchTip(ctx)
		if err != nil {
			return "", err
		}
		if tip == "" {
			return "", fmt.Errorf("snapshot branch %s does not exist yet: %w", s.branch, ErrNotFound)
		}
		return tip, nil
	}
	c, err := s.git.resolveCommit(ctx, rev)
	if err == nil && c == "" && s.remote != "" {
		// An older commit of the branch that this clone has not fetched.
		if err = s.fetchOlder(ctx, rev); err == nil {
			c, err = s.git.resolveCommit(ctx, rev)
		}
	}
	if err != nil {
		return "", err
	}
	if c == "" {
		return "", fmt.Errorf("snapshot commit %s: not found in the repository (snapshot branch %s)", rev, s.branch)
	}
	return c, nil
}
