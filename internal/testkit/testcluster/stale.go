package testcluster

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

const (
	dataDirPattern = "ownership-check-testcluster-*"
	ownerFile      = "owner.pid"
)

// markOwner records the test binary's pid in the data dir. Pdeathsig kills
// the servers when the binary dies without Stop (a panicking test, -timeout),
// but nothing removes the dir then; the next Start does, by that pid.
func markOwner(dir string) error {
	return os.WriteFile(filepath.Join(dir, ownerFile), []byte(strconv.Itoa(os.Getpid())), 0o600)
}

// removeStaleDirs deletes data dirs whose owner process is gone. Errors are
// ignored: this is housekeeping, and the dirs may belong to another user.
func removeStaleDirs() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), dataDirPattern))
	for _, dir := range dirs {
		data, err := os.ReadFile(filepath.Join(dir, ownerFile))
		if err != nil {
			continue // being created, or not ours
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		if err != nil || pid <= 0 {
			continue
		}
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			os.RemoveAll(dir)
		}
	}
}
