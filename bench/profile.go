package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/ownership-check/ownership-check/internal/cli"
)

// profileChildArg makes the bench binary run one check in-process under
// the CPU profiler, in a process of its own so that the allocation profile
// holds the check's allocations only.
const profileChildArg = "profile-child"

// profileCheck writes cpu-N.pprof, allocs-N.pprof and heap-N.pprof (near
// the peak) of one check.
func profileCheck(o options, n int, work, kubeconfig, repo string) error {
	dir, self, err := profileDir(o.profileDir)
	if err != nil {
		return err
	}
	progress("%d objects: profiling one check into %s", n, dir)
	cmd := exec.Command(self, profileChildArg, filepath.Join(dir, fmt.Sprintf("%%s-%d.pprof", n)),
		"check", "manifests", "--field-manager", deployer, "--kubeconfig", kubeconfig, "--snapshot-repo", repo,
		"--output", "json", "--concurrency", strconv.Itoa(o.concurrency))
	cmd.Dir = work
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	return cmd.Run()
}

// profileChild: profile-child PATTERN ARGS...; PATTERN has a %s for the
// profile's name. It prints the peak heap in use.
func profileChild(args []string) int {
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: bench profile-child PATTERN CHECK-ARGS...")
		return 2
	}
	pattern := args[0]
	cpu, err := os.Create(fmt.Sprintf(pattern, "cpu"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	stop := make(chan struct{})
	peak := make(chan [2]uint64)
	go func() {
		var maxInuse, maxLive, written uint64
		var ms runtime.MemStats
		live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				runtime.ReadMemStats(&ms)
				maxInuse = maxU(maxInuse, ms.HeapInuse)
				metrics.Read(live)
				maxLive = maxU(maxLive, live[0].Value.Uint64())
				// The heap profile at the peak of the live heap (what the
				// last collection kept), which the heap's peak follows:
				// rewritten each time it grew by a tenth since the last.
				if maxLive > written+written/10 {
					written = maxLive
					writeHeap(fmt.Sprintf(pattern, "heap"))
				}
			case <-stop:
				peak <- [2]uint64{maxInuse, maxLive}
				return
			}
		}
	}()
	if err := pprof.StartCPUProfile(cpu); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	start := time.Now()
	code := cli.Run("bench", args[1:], io.Discard, os.Stderr)
	wall := time.Since(start)
	pprof.StopCPUProfile()
	cpu.Close()
	close(stop)
	p := <-peak
	fmt.Printf("profiled check: exit %d, %.2f s, peak heap in use %.0f MiB, peak live heap %.0f MiB\n", code, wall.Seconds(), float64(p[0])/(1<<20), float64(p[1])/(1<<20))
	allocs, err := os.Create(fmt.Sprintf(pattern, "allocs"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer allocs.Close()
	if err := pprof.Lookup("allocs").WriteTo(allocs, 0); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return 0
}

func writeHeap(path string) {
	f, err := os.Create(path)
	if err != nil {
		return
	}
	defer f.Close()
	_ = pprof.Lookup("heap").WriteTo(f, 0)
}

func maxU(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}
