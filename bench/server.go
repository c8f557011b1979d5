package main

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// serverProcs are the API server's and etcd's processes, whose CPU time
// around each run tells how much of the run was the server's work: on a
// machine with few cores that work, not the client's, sets the pace.
type serverProcs struct {
	pids []int
}

// clockTick is USER_HZ, the unit of /proc/PID/stat times: 100 on every
// Linux architecture Go supports.
const clockTick = 100

// findServer finds the kube-apiserver listening on host's port and the
// etcd it uses, from their command lines.
func findServer(host string) (*serverProcs, error) {
	u, err := url.Parse(host)
	if err != nil {
		return nil, err
	}
	cmdlines := map[int][]string{}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		pid, err := strconv.Atoi(filepath.Base(d))
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		cmdlines[pid] = strings.Split(strings.TrimRight(string(data), "\x00"), "\x00")
	}
	apiserver, etcdURL := 0, ""
	for pid, args := range cmdlines {
		if hasArg(args, "--secure-port="+u.Port()) {
			apiserver = pid
			etcdURL = argValue(args, "--etcd-servers=")
		}
	}
	if apiserver == 0 || etcdURL == "" {
		return nil, fmt.Errorf("kube-apiserver on port %s not found in /proc", u.Port())
	}
	for pid, args := range cmdlines {
		if hasArg(args, "--listen-client-urls="+etcdURL) {
			return &serverProcs{pids: []int{apiserver, pid}}, nil
		}
	}
	return nil, fmt.Errorf("etcd at %s not found in /proc", etcdURL)
}

func hasArg(args []string, want string) bool {
	for _, a := range args {
		if a == want {
			return true
		}
	}
	return false
}

func argValue(args []string, prefix string) string {
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, prefix); ok {
			return v
		}
	}
	return ""
}

// cpu is the user + system time the server processes have used so far.
func (s *serverProcs) cpu() time.Duration {
	if s == nil {
		return 0
	}
	var total time.Duration
	for _, pid := range s.pids {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		// The command name (field 2) may hold spaces; fields after it are
		// fixed: utime and stime are the 14th and 15th.
		rest := string(data)
		if i := strings.LastIndexByte(rest, ')'); i >= 0 {
			rest = rest[i+1:]
		}
		f := strings.Fields(rest)
		if len(f) < 13 {
			continue
		}
		ut, _ := strconv.ParseInt(f[11], 10, 64)
		st, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(ut+st) * time.Second / clockTick
	}
	return total
}
