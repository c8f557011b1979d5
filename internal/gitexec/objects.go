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
)

// Output runs git and returns its stdout; an error keeps git's own words
// (its stderr on one line), which say what went wrong and where.
func Output(ctx context.Context, w Where, args ...string) ([]byte, error) {
	cmd := Command(ctx, w, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", args[0], ctx.Err())
		}
		msg := strings.Join(strings.Fields(stderr.String()), " ")
		if msg == "" {
			msg = err.Error()
		}
		return nil, fmt.Errorf("git %s: %s", args[0], msg)
	}
	return stdout.Bytes(), nil
}

// TopLevel is the top of the git repository holding dir, symlinks resolved
// (the checkout may sit behind one, as macOS's /tmp does), as git compares
// paths.
func TopLevel(ctx context.Context, dir string) (string, error) {
	out, err := Output(ctx, Where{Dir: dir}, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	top := strings.TrimSpace(string(out))
	if real, err := filepath.EvalSymlinks(top); err == nil {
		top = real
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

// CatBlobs reads the blobs oids with one `git cat-file --batch` and hands
// each to each, in order, as soon as it is read, so that a caller writing
// them out never holds them all. An error of each stops the reading.
func CatBlobs(ctx context.Context, w Where, oids []string, each func(i int, data []byte) error) error {
	if len(oids) == 0 {
		return nil
	}
	cmd := Command(ctx, w, "cat-file", "--batch")
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
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	// Feed the ids while reading the answers, or both pipes fill up.
	go func() {
		bw := bufio.NewWriter(in)
		for _, oid := range oids {
			bw.WriteString(oid + "\n")
		}
		bw.Flush()
		in.Close()
	}()
	r := bufio.NewReaderSize(out, 1<<16)
	var readErr error
	for i, oid := range oids {
		if readErr = readBlob(r, oid, func(b []byte) error { return each(i, b) }); readErr != nil {
			break
		}
	}
	if readErr != nil {
		cmd.Process.Kill()
	}
	io.Copy(io.Discard, r)
	if err := cmd.Wait(); err != nil && readErr == nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		readErr = fmt.Errorf("git cat-file --batch: %s", msg)
	}
	return readErr
}

// readBlob reads one answer of cat-file --batch: a header, the content and
// its trailing newline.
func readBlob(r *bufio.Reader, oid string, use func([]byte) error) error {
	header, err := r.ReadString('\n')
	if err != nil {
		return fmt.Errorf("git cat-file: reading %s: %w", oid, err)
	}
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
	return use(buf[:size])
}
