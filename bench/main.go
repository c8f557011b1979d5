// Command bench measures `ownership-check check` against the real API server
// of internal/testkit/testcluster, beside `check --offline`, `kubectl diff
// --server-side --force-conflicts` and a floor (the dry-run PATCHes alone), in
// one run on the same server. See docs/benchmarks.md for the numbers and how
// to read them.
//
//	go run ./bench -n 100,1000 -runs 3
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

type options struct {
	sizes       []int
	runs        int
	concurrency int
	binary      string
	base        string
	kubectl     string
	measure     string
	floor       string
	markdown    string
	profileDir  string
	keep        bool
	pause       bool
	// latency, when set, also times check and kubectl diff through a TCP
	// proxy that delays every byte this much each way (a round trip of
	// twice it): a remote cluster as a hosted runner sees one.
	latency time.Duration
}

func main() {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case profileChildArg:
			os.Exit(profileChild(os.Args[2:]))
		case monorepoArg:
			os.Exit(monorepoMain(os.Args[2:]))
		case yearArg:
			os.Exit(yearMain(os.Args[2:]))
		}
	}
	o, err := parseFlags()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(2)
	}
	if err := run(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func parseFlags() (options, error) {
	var o options
	sizes := flag.String("n", "100,1000", "comma list of object counts (each run on a fresh API server)")
	flag.IntVar(&o.runs, "runs", 3, "timed runs of each tool per size; the table shows medians")
	flag.IntVar(&o.concurrency, "concurrency", 16, "parallel requests of check, the floor and kubectl diff --concurrency")
	flag.StringVar(&o.binary, "binary", "dist/ownership-check", "the ownership-check binary to time (make build)")
	flag.StringVar(&o.base, "base", "", "another ownership-check binary (e.g. built at the merge base) to time beside -binary: only the two checks run, interleaved")
	flag.StringVar(&o.kubectl, "kubectl", ".bin/kubectl", "kubectl to time (make test-deps builds it)")
	flag.StringVar(&o.measure, "measure", "dist/bench-measure", "the measuring wrapper (go build -o dist/bench-measure ./bench/measure)")
	flag.StringVar(&o.floor, "floor", "dist/bench-floor", "the floor program (go build -o dist/bench-floor ./bench/floor)")
	flag.StringVar(&o.markdown, "markdown", "", "also write the table as markdown to this file")
	flag.StringVar(&o.profileDir, "profile", "", "write CPU and heap profiles of one in-process check per size into this directory")
	flag.BoolVar(&o.keep, "keep", false, "keep the generated manifests and reports (printed at the end)")
	flag.DurationVar(&o.latency, "latency", 0, "also time check and kubectl diff through a proxy adding this delay each way (15ms: a 30 ms round trip)")
	flag.BoolVar(&o.pause, "pause", false, "set up the first size, print where, and wait for Ctrl-C instead of timing (for profiling by hand)")
	flag.Parse()
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < minObjects {
			return o, fmt.Errorf("-n %q: want comma-separated counts of at least %d", *sizes, minObjects)
		}
		o.sizes = append(o.sizes, n)
	}
	if o.runs < 1 {
		return o, fmt.Errorf("-runs %d: want at least 1", o.runs)
	}
	bin, err := filepath.Abs(o.binary)
	if err != nil {
		return o, err
	}
	if _, err := os.Stat(bin); err != nil {
		return o, fmt.Errorf("-binary: %w (run `make build` first)", err)
	}
	o.binary = bin
	paths := []*string{&o.measure, &o.floor}
	if o.base != "" {
		paths = append(paths, &o.base)
	}
	if strings.ContainsRune(o.kubectl, filepath.Separator) {
		// The tools run in the bench's temporary directory.
		paths = append(paths, &o.kubectl)
	}
	return o, builtTools(paths...)
}

func run(ctx context.Context, o options) error {
	m, err := describeMachine()
	if err != nil {
		return err
	}
	fmt.Printf("machine: %s\n", m)
	var all []sizeResult
	for _, n := range o.sizes {
		r, err := benchSize(ctx, o, n)
		if err != nil {
			return fmt.Errorf("%d objects: %w", n, err)
		}
		all = append(all, r)
		printSize(os.Stdout, r)
	}
	fmt.Println()
	printTable(os.Stdout, all)
	if o.markdown != "" {
		f, err := os.Create(o.markdown)
		if err != nil {
			return err
		}
		fmt.Fprintf(f, "Machine: %s\n\n", m)
		writeMarkdown(f, all, o.runs)
		if err := f.Close(); err != nil {
			return err
		}
	}
	return nil
}
