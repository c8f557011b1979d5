package main

import (
	"bufio"
	"fmt"
	"os"
	"runtime"
	"strings"
)

// describeMachine names what the numbers were measured on.
func describeMachine() (string, error) {
	model := field("/proc/cpuinfo", "model name")
	mem := field("/proc/meminfo", "MemTotal")
	load, _ := os.ReadFile("/proc/loadavg")
	return fmt.Sprintf("%d CPUs (%s), %s memory, %s, %s/%s, load average at start %s",
		runtime.NumCPU(), model, mem, runtime.Version(), runtime.GOOS, runtime.GOARCH,
		strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " ")), nil
}

// field returns the value of the first "key: value" line of a /proc file.
func field(path, key string) string {
	f, err := os.Open(path)
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
