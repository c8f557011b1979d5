package gitexec

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestBlobWriterMarks: blobs streamed by several writes are known by their
// marks, readable once the stream is finished and not before; a closed
// stream writes nothing.
func TestBlobWriterMarks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--bare", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	w := Where{GitDir: dir}
	b := NewBlobWriter(ctx, w)
	first, err := b.Write([][]byte{[]byte("one\n"), []byte("two\n")})
	if err != nil {
		t.Fatal(err)
	}
	second, err := b.Write([][]byte{[]byte("one\n")})
	if err != nil {
		t.Fatal(err)
	}
	if first[0] != 1 || first[1] != 2 || second[0] != 3 {
		t.Fatalf("marks %v %v, want 1 2 and 3", first, second)
	}
	oids, err := b.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if len(oids) != 3 || oids[0] != oids[2] || oids[0] == oids[1] {
		t.Fatalf("ids %v: want three, the first and last the same blob", oids)
	}
	for i, want := range []string{"one\n", "two\n"} {
		out, err := Run(ctx, w, nil, "cat-file", "blob", oids[i])
		if err != nil || string(out) != want {
			t.Errorf("blob %s = %q, %v; want %q", oids[i], out, err, want)
		}
	}
	if _, err := b.Write([][]byte{[]byte("late")}); err == nil {
		t.Error("a write after Finish succeeded")
	}

	closed := NewBlobWriter(ctx, w)
	if _, err := closed.Write([][]byte{[]byte("never\n")}); err != nil {
		t.Fatal(err)
	}
	closed.Close()
	out, _ := Run(ctx, w, []byte("never\n"), "hash-object", "--stdin")
	if _, err := Run(ctx, w, nil, "cat-file", "-e", strings.TrimSpace(string(out))); err == nil {
		t.Error("a closed stream's blob was written")
	}
	if _, err := closed.Finish(); err == nil {
		t.Error("Finish after Close succeeded")
	}
}
