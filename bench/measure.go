package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// tool is one command timed against the same objects.
type tool struct {
	name string
	args []string
	// ok tells whether an exit code means the tool did its job (check and
	// kubectl diff exit 1 when they find something).
	ok func(code int) bool
	// skip returns a reason not to time the tool any further, judged from
	// a failed run's stderr (the offline engine may not exist yet).
	skip func(stderr string) string
	// check validates a successful run's stdout.
	check func(stdout []byte) error
}

// sample is one timed run.
type sample struct {
	wall   time.Duration
	maxRSS int64 // bytes
	// cpu is the tool's user + system time, server the API server's and
	// etcd's during the run.
	cpu, server time.Duration
	stdout      []byte
}

type toolResult struct {
	name    string
	samples []sample
	skipped string
	// rejected counts the 429s the API server answered during the timed
	// runs.
	rejected int
}

// runTool runs t once in dir, through the wrapper of bench/measure, and
// returns its wall time and peak RSS (ru_maxrss, which covers the children
// it waited for, such as kubectl diff's diff).
func runTool(measure, dir string, server *serverProcs, t tool, outDir string, i int) (sample, string, error) {
	cmd := exec.Command(measure, t.args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	mr, mw, err := os.Pipe()
	if err != nil {
		return sample{}, "", err
	}
	defer mr.Close()
	cmd.ExtraFiles = []*os.File{mw}
	serverBefore := server.cpu()
	err = cmd.Start()
	mw.Close()
	if err != nil {
		return sample{}, "", fmt.Errorf("%s: %w", t.name, err)
	}
	measured, _ := io.ReadAll(mr)
	err = cmd.Wait()
	serverCPU := server.cpu() - serverBefore
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			return sample{}, "", fmt.Errorf("%s: %w", t.name, err)
		}
		code = ee.ExitCode()
	}
	if outDir != "" {
		base := filepath.Join(outDir, fmt.Sprintf("%s-%d", strings.ReplaceAll(t.name, " ", "_"), i))
		_ = os.WriteFile(base+".stdout", stdout.Bytes(), 0o644)
		_ = os.WriteFile(base+".stderr", stderr.Bytes(), 0o644)
	}
	if !t.ok(code) {
		if t.skip != nil {
			if why := t.skip(stderr.String()); why != "" {
				return sample{}, why, nil
			}
		}
		return sample{}, "", fmt.Errorf("%s exited %d: %s", t.name, code, tail(stderr.String(), 2000))
	}
	if t.check != nil {
		if err := t.check(stdout.Bytes()); err != nil {
			return sample{}, "", fmt.Errorf("%s: %w", t.name, err)
		}
	}
	var secs, cpu float64
	s := sample{stdout: stdout.Bytes(), server: serverCPU}
	if _, err := fmt.Sscanf(string(measured), "%f %d %f", &secs, &s.maxRSS, &cpu); err != nil {
		return sample{}, "", fmt.Errorf("%s: no measurement from the wrapper (%q)", t.name, measured)
	}
	s.wall = seconds(secs)
	s.cpu = seconds(cpu)
	return s, "", nil
}

func seconds(f float64) time.Duration { return time.Duration(f * float64(time.Second)) }

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

func (r toolResult) medianWall() time.Duration {
	ws := make([]time.Duration, len(r.samples))
	for i, s := range r.samples {
		ws[i] = s.wall
	}
	return median(ws)
}

func (r toolResult) minMaxWall() (time.Duration, time.Duration) {
	lo, hi := r.samples[0].wall, r.samples[0].wall
	for _, s := range r.samples {
		lo, hi = min(lo, s.wall), max(hi, s.wall)
	}
	return lo, hi
}

func (r toolResult) medianCPU() (client, server time.Duration) {
	cs := make([]time.Duration, len(r.samples))
	ss := make([]time.Duration, len(r.samples))
	for i, s := range r.samples {
		cs[i], ss[i] = s.cpu, s.server
	}
	return median(cs), median(ss)
}

func (r toolResult) medianRSS() int64 {
	rs := make([]int64, len(r.samples))
	for i, s := range r.samples {
		rs[i] = s.maxRSS
	}
	return median(rs)
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
