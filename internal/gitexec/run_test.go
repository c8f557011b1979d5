package gitexec

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestRunErrorKeepsWhatWasAsked(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := Run(ctx, Where{Dir: dir}, nil, "init", "-q"); err != nil {
		t.Fatal(err)
	}
	_, err := Run(ctx, Where{Dir: dir}, []byte("not a tree line\n"), "mktree")
	var ge *Error
	if !errors.As(err, &ge) {
		t.Fatalf("error %T %v, want *Error", err, err)
	}
	if ge.ExitCode <= 0 || ge.Stdin != "not a tree line\n" || ge.StdinSize != 16 || strings.Join(ge.Args, " ") != "mktree" || ge.Stderr == "" {
		t.Errorf("error = %+v", ge)
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || !strings.HasPrefix(err.Error(), "git mktree: ") {
		t.Errorf("%q: no exit error in the chain, or not git's words", err)
	}

	big := make([]byte, maxStdin+1)
	_, err = Run(ctx, Where{Dir: dir}, big, "mktree")
	if !errors.As(err, &ge) || ge.Stdin != "" || ge.StdinSize != len(big) {
		t.Errorf("a large input: %+v, want its size only", ge)
	}

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Run(cancelled, Where{Dir: dir}, nil, "status"); !errors.Is(err, context.Canceled) || !errors.As(err, &ge) || ge.ExitCode != -1 {
		t.Errorf("cancelled: %v", err)
	}
}

// TestTreesCloseWhileReading: Close waits for the trees being read and
// removes them too, so a run that closes while a target still reads the
// base leaves no directory behind.
func TestTreesCloseWhileReading(t *testing.T) {
	ctx := context.Background()
	repo := t.TempDir()
	for _, f := range []string{"a.yaml", "dir/b.yaml"} {
		if err := os.MkdirAll(repo+"/dir", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(repo+"/"+f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x"}} {
		if _, err := Run(ctx, Where{Dir: repo}, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	var one Trees
	dir, err := one.Tree(ctx, repo, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dir + "/dir/b.yaml"); err != nil || string(b) != "dir/b.yaml" {
		t.Fatalf("tree read: %q, %v", b, err)
	}
	one.Close()
	for range 20 {
		var ts Trees
		done := make(chan string, 4)
		for range 4 {
			go func() {
				dir, _ := ts.Tree(ctx, repo, "HEAD")
				done <- dir
			}()
		}
		if err := ts.Close(); err != nil {
			t.Fatal(err)
		}
		for range 4 {
			<-done
		}
		left, err := os.ReadDir(tmp)
		if err != nil {
			t.Fatal(err)
		}
		if len(left) != 0 {
			t.Fatalf("after Close: %d directories left in the temporary directory", len(left))
		}
		if _, err := ts.Tree(ctx, repo, "HEAD"); err == nil {
			t.Fatal("a tree read after Close")
		}
	}
}
