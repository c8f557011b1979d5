package snapshot

import (
	"context"
	"os"

	"github.com/ownership-check/ownership-check/internal/gitexec"
)

// gitRepo is one repository, which the store's git commands (gitexec's)
// reach through GIT_DIR only, so the user's working tree, index and HEAD
// are never read or written.
type gitRepo struct {
	gitDir string
}

// Identity used when the environment sets none, so commits work on a runner
// without any git configuration. The .invalid domain cannot belong to anyone.
const (
	defaultName  = "ownership-check"
	defaultEmail = "ownership-check@users.invalid"
)

// identity is the committer when the environment names none.
func identity() []string {
	var env []string
	for _, kv := range [][2]string{
		{"GIT_AUTHOR_NAME", defaultName}, {"GIT_AUTHOR_EMAIL", defaultEmail},
		{"GIT_COMMITTER_NAME", defaultName}, {"GIT_COMMITTER_EMAIL", defaultEmail},
	} {
		if os.Getenv(kv[0]) == "" {
			env = append(env, kv[0]+"="+kv[1])
		}
	}
	return env
}

func (g *gitRepo) where() gitexec.Where {
	return gitexec.Where{GitDir: g.gitDir, Env: identity()}
}

// resolveCommit gives the full id of a commit, or "" when rev names none.
func (g *gitRepo) resolveCommit(ctx context.Context, rev string) (string, error) {
	return gitexec.ResolveCommit(ctx, g.where(), rev)
}

// treeEntry is one line of git ls-tree.
type treeEntry struct {
	mode, typ, oid, path string
}

// lsTree lists a tree-ish's entries, recursively (blobs only) or one level.
func (g *gitRepo) lsTree(ctx context.Context, treeish string, recursive bool, paths ...string) ([]treeEntry, error) {
	parsed, err := gitexec.ListTree(ctx, g.where(), treeish, recursive, paths...)
	if err != nil {
		return nil, err
	}
	entries := make([]treeEntry, len(parsed))
	for i, e := range parsed {
		entries[i] = treeEntry{mode: e.Mode, typ: e.Type, oid: e.OID, path: e.Path}
	}
	return entries, nil
}

// catBlobs reads many blobs with one git process.
func (g *gitRepo) catBlobs(ctx context.Context, oids []string) ([][]byte, error) {
	blobs := make([][]byte, len(oids))
	err := gitexec.CatBlobs(ctx, g.where(), oids, func(i int, b []byte) error {
		blobs[i] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	return blobs, nil
}
