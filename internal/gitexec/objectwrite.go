package gitexec

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// The commands that write a repository's objects, for a caller whose
// format is git's own objects (the snapshot store): blobs, trees and
// commits, none of them touching a working tree, the index or HEAD.

// WriteBlobs stores contents as blobs with one git process and returns
// their ids in order. fast-import takes them from a stream, so there is no
// temporary file per blob.
func WriteBlobs(ctx context.Context, w Where, contents [][]byte) ([]string, error) {
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
	if _, err := Run(ctx, w, in.Bytes(), "fast-import", "--quiet", "--done", "--export-marks="+marks); err != nil {
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

// IndexEntry is a blob at a path of a tree BuildTree builds.
type IndexEntry struct {
	OID, Path string
}

// BuildTree writes the tree that holds each blob at its path (a regular
// file, folders made as the paths say) and returns its id. It goes through
// a temporary index file, never the repository's.
func BuildTree(ctx context.Context, w Where, entries []IndexEntry) (string, error) {
	var info bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&info, "100644 %s\t%s\x00", e.OID, e.Path)
	}
	tmp, err := os.MkdirTemp("", "ownership-check-index-*")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	w.Env = append(w.Env[:len(w.Env):len(w.Env)], "GIT_INDEX_FILE="+filepath.Join(tmp, "index"))
	if _, err := Run(ctx, w, info.Bytes(), "update-index", "--add", "-z", "--index-info"); err != nil {
		return "", err
	}
	out, err := Run(ctx, w, nil, "write-tree")
	if err != nil {
		return "", err
	}
	tree, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(tree), nil
}

// MakeTree writes the tree of exactly entries (`mktree`) and returns its
// id.
func MakeTree(ctx context.Context, w Where, entries []TreeEntry) (string, error) {
	var in bytes.Buffer
	for _, e := range entries {
		in.WriteString(e.Mode + " " + e.Type + " " + e.OID + "\t" + e.Path + "\x00")
	}
	out, err := Run(ctx, w, in.Bytes(), "mktree", "-z")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// CommitTree writes a commit of tree with message (a newline added), on
// top of parent ("": a first commit), unsigned, and returns its id.
func CommitTree(ctx context.Context, w Where, tree, parent, message string) (string, error) {
	args := []string{"commit-tree", "--no-gpg-sign", tree, "-F", "-"}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	out, err := Run(ctx, w, []byte(message+"\n"), args...)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
