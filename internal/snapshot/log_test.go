package snapshot

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestLogAppendKeepsTheLastFiles(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	if files, c, err := s.ReadLog(ctx, "_history/staging", "", 0); err != nil || len(files) != 0 || c != "" {
		t.Fatalf("no branch yet: %v %q %v", files, c, err)
	}
	for i := 0; i < 7; i++ {
		if _, err := s.AppendLog(ctx, "_history/staging", fmt.Sprintf("%03d.json", i), []byte(fmt.Sprintf("{\"n\": %d}\n", i)), 5, "record"); err != nil {
			t.Fatal(err)
		}
	}
	files, _, err := s.ReadLog(ctx, "_history/staging", "", 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "002.json,003.json,004.json,005.json,006.json" {
		t.Errorf("kept %v, want the last 5", names)
	}
	last, _, err := s.ReadLog(ctx, "_history/staging", "", 2)
	if err != nil || len(last) != 2 || string(last[1].Data) != "{\"n\": 6}\n" {
		t.Errorf("last 2: %+v %v", last, err)
	}
	if other, _, _ := s.ReadLog(ctx, "_history/prod", "", 0); len(other) != 0 {
		t.Errorf("another environment's log holds %d files", len(other))
	}
}

// A snapshot replaces its environment's folder only: the log beside it
// survives, and appending to the log keeps the snapshot.
func TestLogAndSnapshotKeepEachOther(t *testing.T) {
	dir := newWorkRepo(t)
	s := openStore(t, dir)
	if _, err := s.AppendLog(ctx, "_history/staging", "a.json", []byte("{}\n"), 50, "record"); err != nil {
		t.Fatal(err)
	}
	snap := newSnapshot("staging", hasher(t), fixtures()...)
	mustWrite(t, s, snap)
	if _, err := s.AppendLog(ctx, "_history/staging", "b.json", []byte("{}\n"), 50, "record"); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, s, newSnapshot("staging", hasher(t), fixtures()...))
	files, _, err := s.ReadLog(ctx, "_history/staging", "", 0)
	if err != nil || len(files) != 2 {
		t.Fatalf("log after two snapshots: %d files, %v", len(files), err)
	}
	if _, err := s.Read(ctx, "staging", ""); err != nil {
		t.Fatal(err)
	}
	envs, err := s.Environments(ctx, "")
	if err != nil || strings.Join(envs, ",") != "staging" {
		t.Errorf("environments %v (%v), want only staging", envs, err)
	}
}

// Deploy jobs of several environments record and snapshot at the same time
// into one remote: every record and every snapshot is there afterwards.
func TestLogConcurrentWithSnapshots(t *testing.T) {
	const n = 4
	bare, clones := newRemote(t, n)
	var wg sync.WaitGroup
	errs := make([]error, 2*n)
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		s := openStore(t, clones[i])
		env := fmt.Sprintf("env-%d", i)
		snap := newSnapshot(env, hasher(t), fixtures()...)
		wg.Add(2)
		go func() {
			defer wg.Done()
			<-start
			_, errs[2*i] = s.AppendLog(ctx, "_history/"+env, "1.json", []byte("{}\n"), 50, "record "+env)
		}()
		go func() {
			defer wg.Done()
			<-start
			_, errs[2*i+1] = s.Write(ctx, snap, "snapshot "+env)
		}()
	}
	close(start)
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("writer %d: %v", i, err)
		}
	}
	tip := "refs/heads/ownership-snapshots"
	for i := 0; i < n; i++ {
		if files := git(t, bare, "ls-tree", "-r", "--name-only", tip, fmt.Sprintf("_history/env-%d/", i)); files != fmt.Sprintf("_history/env-%d/1.json", i) {
			t.Errorf("env-%d: log holds %q", i, files)
		}
		if index := git(t, bare, "ls-tree", "--name-only", tip, fmt.Sprintf("env-%d/index.json", i)); index == "" {
			t.Errorf("env-%d: snapshot lost", i)
		}
	}
}

func TestLogFolderNames(t *testing.T) {
	for _, bad := range []string{"staging", "_history", "history/staging", "_history/../x", "_history/_x"} {
		if ValidateLogFolder(bad) == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if err := ValidateLogFolder("_history/staging"); err != nil {
		t.Error(err)
	}
}
