package testcluster

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"testing"
)

// Run is a package's TestMain body: it starts a cluster into *c, runs the
// tests and stops the cluster. With -short it starts nothing and leaves *c
// nil, so Require skips the tests that need it. It returns the exit code.
func Run(m *testing.M, c **Cluster) int {
	flag.Parse()
	if testing.Short() {
		return m.Run()
	}
	cl, err := Start(context.Background())
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		return 1
	}
	*c = cl

	// go test forwards Ctrl-C to the test binary; without this the deferred
	// Stop would not run. Panics and timeouts are covered by Pdeathsig.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			cl.Stop()
			fmt.Fprintf(os.Stderr, "testcluster: stopped on %v\n", sig)
			os.Exit(2)
		case <-done:
		}
	}()
	defer func() {
		signal.Stop(sigs)
		close(done)
		if err := cl.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "%v\n", err)
		}
	}()
	return m.Run()
}

// Require skips the test when no cluster runs (in -short mode).
func Require(t testing.TB, c *Cluster) {
	t.Helper()
	if c == nil {
		t.Skip("needs the API server; run without -short")
	}
}
