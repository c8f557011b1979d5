// Command measure runs a command and writes its wall time, peak RSS and CPU
// time (user + system) to fd 3 as "SECONDS MAXRSS_BYTES CPU_SECONDS". The bench runs every timed tool through
// it.
//
// It is a program of its own, importing nothing heavy, because Linux
// charges a child, at exec, with the peak RSS of the memory it was forked
// from, and Go starts children by vfork from its own memory: started from
// the bench (which links client-go, tens of MiB before main runs) every
// tool would show the bench's peak instead of its own. This wrapper's
// memory is a couple of MiB, under anything measured.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"
)

func main() {
	out := os.NewFile(3, "measurements")
	if len(os.Args) < 2 || out == nil {
		fmt.Fprintln(os.Stderr, "usage: measure CMD ARGS... (with fd 3 open)")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		fmt.Fprintln(os.Stderr, "measure:", err)
		os.Exit(125)
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // KiB on Linux
	}
	cpu := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	fmt.Fprintf(out, "%.6f %d %.6f\n", wall.Seconds(), rss, cpu.Seconds())
	out.Close()
	os.Exit(code)
}
