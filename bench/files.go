package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// builtTools makes each path absolute (the tools run in the bench's
// temporary directory) and checks it exists; an empty path names no tool.
func builtTools(paths ...*string) error {
	for _, p := range paths {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err == nil {
			_, err = os.Stat(abs)
		}
		if err != nil {
			return fmt.Errorf("%w (bench/run builds it)", err)
		}
		*p = abs
	}
	return nil
}

// workDir is a new temporary directory for one bench and what removes it
// when done; with keep it stays, and the bench says where (what names the
// bench in that line).
func workDir(prefix, what string, keep bool) (string, func(), error) {
	work, err := os.MkdirTemp("", prefix)
	if err != nil {
		return "", nil, err
	}
	if keep {
		fmt.Fprintf(os.Stderr, "bench: %sfiles kept in %s\n", what, work)
		return work, func() {}, nil
	}
	return work, func() { os.RemoveAll(work) }, nil
}

// profileDir makes dir, absolute, for the profiles of a check run by this
// bench binary in a process of its own (self).
func profileDir(dir string) (abs, self string, err error) {
	if abs, err = filepath.Abs(dir); err != nil {
		return "", "", err
	}
	if err = os.MkdirAll(abs, 0o755); err != nil {
		return "", "", err
	}
	self, err = os.Executable()
	return abs, self, err
}
