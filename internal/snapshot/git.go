package snapshot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/gitexec"
)

// gitRepo runs the git CLI against one repository through GIT_DIR only, so
// the user's working tree, index and HEAD are never read or written.
type gitRepo struct {
	gitDir string
	// extraEnv is added to every command (GIT_INDEX_FILE for one call).
	extraEnv []string
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
	return gitexec.Where{GitDir: g.gitDir, Env: append(identity(), g.extraEnv...)}
}

// run runs git with optional stdin and returns its stdout; a failure is a
// *gitexec.Error.
func (g *gitRepo) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return gitexec.Run(ctx, g.where(), stdin, args...)
}

// line runs git and returns its stdout's first line.
func (g *gitRepo) line(ctx context.Context, args ...string) (string, error) {
	out, err := g.run(ctx, nil, args...)
	if err != nil {
		return "", err
	}
	s, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(s), nil
}

// resolveCommit gives the full id of a commit, or "" when rev names none.
func (g *gitRepo) resolveCommit(ctx context.Context, rev string) (string, error) {
	out, err := g.run(ctx, nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	var ge *gitexec.Error
	if errors.As(err, &ge) && ge.ExitCode == 1 {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// treeEntry is one line of git ls-tree.
type treeEntry struct {
	mode, typ, oid, path string
}

func (t treeEntry) String() string { return t.mode + " " + t.typ + " " + t.oid + "\t" + t.path }

// lsTree lists a tree-ish's entries, recursively (blobs only) or one level.
func (g *gitRepo) lsTree(ctx context.Context, treeish string, recursive bool, paths ...string) ([]treeEntry, error) {
	args := []string{"ls-tree", "-z", "--full-tree"}
	if recursive {
		args = append(args, "-r")
	}
	args = append(args, treeish, "--")
	out, err := g.run(ctx, nil, append(args, paths...)...)
	if err != nil {
		return nil, err
	}
	parsed, err := gitexec.ParseTree(out)
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

// writeBlobs stores contents as blobs with one git process and returns their
// ids in order. fast-import takes them from a stream, so there is no
// temporary file per blob.
func (g *gitRepo) writeBlobs(ctx context.Context, contents [][]byte) ([]string, error) {
	tmp, err := os.MkdirTemp("", "ownership-check-blobs-*")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	marks := filepath.Join(tmp, "marks")
	var in bytes.Buffer
	for i, c := range contents {
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n", i+1, len(c))
		in.Write(c)
		in.WriteString("\n")
	}
	in.WriteString("done\n")
	if _, err := g.run(ctx, in.Bytes(), "fast-import", "--quiet", "--done", "--export-marks="+marks); err != nil {
		return nil, err
	}
	b, err := os.ReadFile(marks)
	if err != nil {
		return nil, err
	}
	oids := make([]string, len(contents))
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		mark, oid, ok := strings.Cut(line, " ")
		n, err := strconv.Atoi(strings.TrimPrefix(mark, ":"))
		if !ok || err != nil || n < 1 || n > len(oids) {
			return nil, fmt.Errorf("git fast-import: unexpected mark %q", line)
		}
		oids[n-1] = oid
	}
	for i, oid := range oids {
		if oid == "" {
			return nil, fmt.Errorf("git fast-import: no id for blob %d", i+1)
		}
	}
	return oids, nil
}
