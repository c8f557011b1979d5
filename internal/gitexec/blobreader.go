package gitexec

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os/exec"
	"sync"
)

// BlobReader is one `git cat-file --batch` that answers many reads, one
// at a time: a run of thousands of targets reads each target's files with
// it instead of starting a git process per target. It starts on the first
// Read, and again after a read that failed. Close ends it.
type BlobReader struct {
	ctx context.Context
	w   Where

	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// NewBlobReader reads blobs of the repository w names; ctx bounds the
// git process.
func NewBlobReader(ctx context.Context, w Where) *BlobReader {
	return &BlobReader{ctx: ctx, w: w}
}

// Read is CatBlobs through the reader's process.
func (r *BlobReader) Read(oids []string, each func(i int, data []byte) error) error {
	if len(oids) == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		if err := r.start(); err != nil {
			return err
		}
	}
	var ids bytes.Buffer
	for _, oid := range oids {
		ids.WriteString(oid + "\n")
	}
	// Fed while the answers are read, or both pipes fill up; the feeder
	// is waited for before returning.
	fed := make(chan error, 1)
	// Its own copy: stop clears r.in while the feeder may still write.
	in := r.in
	go func() {
		_, err := in.Write(ids.Bytes())
		fed <- err
	}()
	var readErr error
	for i, oid := range oids {
		if readErr = readBlob(r.out, oid, false, func(b []byte, _ bool) error { return each(i, b) }); readErr != nil {
			break
		}
	}
	if readErr != nil {
		// The answers left would come out of step: a new process next
		// time.
		r.stop()
		<-fed
		return readErr
	}
	if err := <-fed; err != nil {
		r.stop()
		return err
	}
	return nil
}

func (r *BlobReader) start() error {
	args := []string{"cat-file", "--batch"}
	cmd := command(r.ctx, r.w, args...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return newError(args, nil, "", err)
	}
	r.cmd, r.in, r.out = cmd, in, bufio.NewReaderSize(out, 1<<16)
	return nil
}

// stop ends the process; the caller holds mu.
func (r *BlobReader) stop() {
	if r.cmd == nil {
		return
	}
	r.cmd.Process.Kill()
	r.in.Close()
	io.Copy(io.Discard, r.out)
	r.cmd.Wait()
	r.cmd, r.in, r.out = nil, nil, nil
}

// Close ends the reader's process.
func (r *BlobReader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cmd == nil {
		return nil
	}
	r.in.Close()
	io.Copy(io.Discard, r.out)
	err := r.cmd.Wait()
	r.cmd, r.in, r.out = nil, nil, nil
	return err
}
