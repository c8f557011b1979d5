package gitexec

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// BlobWriter is one `git fast-import` stream that stores the blobs of many
// writes: a run of thousands of targets writes each target's files into it
// instead of starting a git process per target. A blob is known by its
// mark until Finish, which ends the stream and says each mark's object id;
// the blobs are readable from the repository only then. Close ends a
// stream that was not finished.
type BlobWriter struct {
	ctx context.Context
	w   Where

	mu     sync.Mutex
	cmd    *exec.Cmd
	in     io.WriteCloser
	buf    *bufio.Writer
	stderr bytes.Buffer
	dir    string
	next   int
	err    error
}

// NewBlobWriter writes blobs into the repository w names; ctx bounds the
// git process.
func NewBlobWriter(ctx context.Context, w Where) *BlobWriter {
	return &BlobWriter{ctx: ctx, w: w}
}

// Write streams contents as blobs and returns their marks, in order. After
// a failure every later Write and Finish fails the same way: the stream's
// objects are not written.
func (b *BlobWriter) Write(contents [][]byte) ([]int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return nil, b.err
	}
	if b.cmd == nil {
		if b.err = b.start(); b.err != nil {
			return nil, b.err
		}
	}
	marks := make([]int, len(contents))
	for i, c := range contents {
		b.next++
		marks[i] = b.next
		fmt.Fprintf(b.buf, "blob\nmark :%d\ndata %d\n", b.next, len(c))
		b.buf.Write(c)
		if _, err := b.buf.WriteString("\n"); err != nil {
			b.fail(err)
			return nil, b.err
		}
	}
	return marks, nil
}

func (b *BlobWriter) start() error {
	dir, err := os.MkdirTemp("", "ownership-check-blobs-*")
	if err != nil {
		return err
	}
	args := []string{"fast-import", "--quiet", "--done", "--export-marks=" + filepath.Join(dir, "marks")}
	cmd := command(b.ctx, b.w, args...)
	cmd.Stderr = &b.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		os.RemoveAll(dir)
		return err
	}
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return newError(args, nil, "", err)
	}
	b.cmd, b.in, b.buf, b.dir = cmd, in, bufio.NewWriterSize(in, 1<<16), dir
	return nil
}

// fail records err and ends the process; the caller holds mu.
func (b *BlobWriter) fail(err error) {
	b.stop()
	if b.stderr.Len() > 0 {
		err = fmt.Errorf("git fast-import: %w: %s", err, strings.TrimSpace(b.stderr.String()))
	}
	b.err = err
}

// stop kills the process, which leaves its pack unfinished (git removes
// it); the caller holds mu.
func (b *BlobWriter) stop() {
	if b.cmd != nil {
		b.cmd.Process.Kill()
		b.in.Close()
		b.cmd.Wait()
		b.cmd = nil
	}
	if b.dir != "" {
		os.RemoveAll(b.dir)
		b.dir = ""
	}
}

// Finish ends the stream and returns the object id of every mark (index
// mark-1); nothing written is an empty list.
func (b *BlobWriter) Finish() ([]string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return nil, b.err
	}
	if b.cmd == nil {
		return nil, nil
	}
	b.buf.WriteString("done\n")
	if err := b.buf.Flush(); err != nil {
		b.fail(err)
		return nil, b.err
	}
	b.in.Close()
	if err := b.cmd.Wait(); err != nil {
		b.cmd = nil
		b.fail(err)
		return nil, b.err
	}
	b.cmd = nil
	defer b.stop()
	raw, err := os.ReadFile(filepath.Join(b.dir, "marks"))
	if err != nil {
		b.err = err
		return nil, err
	}
	oids := make([]string, b.next)
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		mark, oid, ok := strings.Cut(line, " ")
		n, err := strconv.Atoi(strings.TrimPrefix(mark, ":"))
		if !ok || err != nil || n < 1 || n > len(oids) {
			b.err = fmt.Errorf("git fast-import: unexpected mark %q", line)
			return nil, b.err
		}
		oids[n-1] = oid
	}
	for i, oid := range oids {
		if oid == "" {
			b.err = fmt.Errorf("git fast-import: no id for blob %d", i+1)
			return nil, b.err
		}
	}
	b.err = fmt.Errorf("git fast-import: the stream is finished")
	return oids, nil
}

// Close ends a stream that was not finished; its blobs are not written.
func (b *BlobWriter) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.stop()
	if b.err == nil {
		b.err = fmt.Errorf("git fast-import: the stream is closed")
	}
}
