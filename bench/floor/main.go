// Command floor is the least any prediction of a Server-Side Apply must do:
// the dry-run PATCHes with force, and nothing else, concurrency at a time.
// The bench times it as a process like check and kubectl so that wall
// times compare (process start and the TLS connection included);
// discovery, rendering, reading live and the analysis are left out, the
// resources being resolved by the bench.
//
//	floor KUBECONFIG REQUESTS CONCURRENCY
//
// REQUESTS holds one JSON object a line: {"gvr":{…},"namespace","name","body"}.
// It prints the seconds the PATCHes alone took.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/ownership-check/ownership-check/internal/parallel"
)

// Request is one PATCH; the bench writes them.
type Request struct {
	GVR       schema.GroupVersionResource `json:"gvr"`
	Namespace string                      `json:"namespace,omitempty"`
	Name      string                      `json:"name"`
	Body      json.RawMessage             `json:"body"`
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 3 {
		return fmt.Errorf("usage: floor KUBECONFIG REQUESTS CONCURRENCY")
	}
	concurrency, err := strconv.Atoi(args[2])
	if err != nil || concurrency < 1 {
		return fmt.Errorf("bad concurrency %q", args[2])
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", args[0])
	if err != nil {
		return err
	}
	// No client-side rate limit: the floor goes at the server's pace.
	cfg.QPS = -1
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	reqs, err := read(args[1])
	if err != nil {
		return err
	}
	force := true
	opts := metav1.PatchOptions{FieldManager: "deployer", Force: &force, DryRun: []string{metav1.DryRunAll}}
	ctx := context.Background()
	start := time.Now()
	var failed atomic.Int32
	var first atomic.Value
	parallel.For(len(reqs), concurrency, func(i int) {
		r := reqs[i]
		ri := dyn.Resource(r.GVR).Namespace(r.Namespace)
		if _, err := ri.Patch(ctx, r.Name, types.ApplyPatchType, r.Body, opts); err != nil {
			if failed.Add(1) == 1 {
				first.Store(fmt.Errorf("%s/%s: %w", r.Namespace, r.Name, err))
			}
		}
	})
	if n := failed.Load(); n > 0 {
		return fmt.Errorf("%d PATCHes failed, the first: %v", n, first.Load())
	}
	fmt.Printf("%.6f\n", time.Since(start).Seconds())
	return nil
}

func read(path string) ([]Request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Request
	dec := json.NewDecoder(bufio.NewReader(f))
	for dec.More() {
		var r Request
		if err := dec.Decode(&r); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}
