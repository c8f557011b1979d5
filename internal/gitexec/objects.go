package gitexec

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ownership-check/ownership-check/internal/repofs"
)

// TopLevel is the top of the git repository holding dir, symlinks resolved
// (the checkout may sit behind one, as macOS's /tmp does), as git compares
// paths. It is repofs' one finder of a repository's root, which asks no git
// process (a run finds it for every target); an error outside a repository.
func TopLevel(_ context.Context, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	top, ok := repofs.FindRepository(abs)
	if !ok {
		return "", fmt.Errorf("%s: not in a git repository", dir)
	}
	return top, nil
}

// TreeEntry is one record of `git ls-tree -z`.
type TreeEntry struct {
	Mode, Type, OID, Path string
}

// ParseTree reads the output of `git ls-tree -z`.
func ParseTree(out []byte) ([]TreeEntry, error) {
	var entries []TreeEntry
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-tree: unexpected line %q", rec)
		}
		entries = append(entries, TreeEntry{Mode: f[0], Type: f[1], OID: f[2], Path: p})
	}
	return entries, nil
}

// ListTree lists a tree-ish's entries (`ls-tree --full-tree`), under
// paths when given: recursive, its blobs at every depth; else one level.
func ListTree(ctx context.Context, w Where, treeish string, recursive bool, paths ...string) ([]TreeEntry, error) {
	args := []string{"ls-tree", "-z", "--full-tree"}
	if recursive {
		args = append(args, "-r")
	}
	args = append(args, treeish, "--")
	out, err := Run(ctx, w, nil, append(args, paths...)...)
	if err != nil {
		return nil, err
	}
	return ParseTree(out)
}

// CatBlobs reads the blobs oids with one `git cat-file --batch` and hands
// each to each, in order, as soon as it is read, so that a caller writing
// them out never holds them all. An error of each stops the reading.
func CatBlobs(ctx context.Context, w Where, oids []string, each func(i int, data []byte) error) error {
	return catBlobs(ctx, w, oids, false, func(i int, data []byte, _ bool) error { return each(i, data) })
}

// CatFiles reads the blobs of the files specs name (`<commit>:<path>`, a
// path without a newline) with one `git cat-file --batch`, as CatBlobs,
// handing each whether it is there: a caller that reads one file in each
// of thousands of folders needs no listing of the tree first.
func CatFiles(ctx context.Context, w Where, specs []string, each func(i int, data []byte, found bool) error) error {
	return catBlobs(ctx, w, specs, true, each)
}

func catBlobs(ctx context.Context, w Where, oids []string, orMissing bool, each func(i int, data []byte, found bool) error) error {
	if len(oids) == 0 {
		return nil
	}
	args := []string{"cat-file", "--batch"}
	cmd := command(ctx, w, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var ids bytes.Buffer
	for _, oid := range oids {
		ids.WriteString(oid + "\n")
	}
	if err := cmd.Start(); err != nil {
		return newError(args, ids.Bytes(), "", err)
	}
	// Feed the ids while reading the answers, or both pipes fill up. The
	// feeder ends with git at the latest: Wait closes its pipe.
	fed := make(chan struct{})
	go func() {
		defer close(fed)
		in.Write(ids.Bytes())
		in.Close()
	}()
	r := bufio.NewReaderSize(out, 1<<16)
	var readErr error
	for i, oid := range oids {
		if readErr = readBlob(r, oid, orMissing, func(b []byte, found bool) error { return each(i, b, found) }); readErr != nil {
			break
		}
	}
	if readErr != nil {
		cmd.Process.Kill()
	}
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil && readErr == nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		readErr = newError(args, ids.Bytes(), stderr.String(), err)
	}
	<-fed
	return readErr
}

// readBlob reads one answer of cat-file --batch: a header, the content and
// its trailing newline.
func readBlob(r *bufio.Reader, oid string, orMissing bool, use func([]byte, bool) error) error {
	header, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("git cat-file: reading %s: %w", oid, err)
	}
	if orMissing && header == oid+" missing\n" {
		return use(nil, false)
	}
	// The object's id, its type and size: a name asked by path answers
	// with the id.
	f := strings.Fields(header)
	if len(f) != 3 || f[1] != "blob" {
		return fmt.Errorf("git cat-file: %s: %s", oid, strings.TrimSpace(header))
	}
	size, err := strconv.Atoi(f[2])
	if err != nil {
		return fmt.Errorf("git cat-file: %s: bad size %q", oid, f[2])
	}
	buf := make([]byte, size+1)
	if _, err := io.ReadFull(r, buf); err != nil {
		return fmt.Errorf("git cat-file: reading %s: %w", oid, err)
	}
	return use(buf[:size], true)
}
