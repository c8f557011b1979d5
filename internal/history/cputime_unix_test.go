//go:build unix

package history

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) of this process and of the
// git processes it waited for: on a shared machine it varies far less
// than wall time.
func processCPU() time.Duration {
	var self, children syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &self) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children) != nil {
		return 0
	}
	return time.Duration(self.Utime.Nano() + self.Stime.Nano() + children.Utime.Nano() + children.Stime.Nano())
}
