package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/gitexec"
	"github.com/ownership-check/ownership-check/internal/history"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// yearArg runs the year of snapshots (issue 39): bench year -commits 10000.
const yearArg = "year"

type yearOptions struct {
	commits, envs, objects, runs int
	binary, measure              string
	keep                         bool
}

func yearMain(args []string) int {
	var o yearOptions
	fs := flag.NewFlagSet("bench year", flag.ExitOnError)
	fs.IntVar(&o.commits, "commits", 10000, "snapshot commits added to the branch (a year of deploys: ~27 a day)")
	fs.IntVar(&o.envs, "envs", 3, "environments on the branch")
	fs.IntVar(&o.objects, "objects", 200, "objects in each environment's snapshot")
	fs.IntVar(&o.runs, "runs", 5, "timed runs of each read, fresh branch and year alternated")
	fs.StringVar(&o.binary, "binary", "dist/ownership-check", "the ownership-check binary whose history command is timed")
	fs.StringVar(&o.measure, "measure", "dist/bench-measure", "the measuring wrapper")
	fs.BoolVar(&o.keep, "keep", false, "keep the repositories")
	_ = fs.Parse(args)
	if err := builtTools(&o.binary, &o.measure); err != nil {
		fmt.Fprintln(os.Stderr, "bench year:", err)
		return 2
	}
	if err := benchYear(context.Background(), o); err != nil {
		fmt.Fprintln(os.Stderr, "bench year:", err)
		return 1
	}
	return 0
}

// benchYear makes two remotes holding the same environments' snapshots
// and deploy histories, one fresh and one with o.commits more snapshot
// commits on the branch, and times, as a CI job on a depth-1 checkout of
// each sees them, a check's read of the snapshot (fetch included) and
// `history`, alternated.
func benchYear(ctx context.Context, o yearOptions) error {
	work, done, err := workDir("ownership-check-bench-year-", "", o.keep)
	if err != nil {
		return err
	}
	defer done()
	fresh := filepath.Join(work, "fresh.git")
	progress("year: a fresh branch of %d environments, %d objects each, %d deploys of history each", o.envs, o.objects, history.Keep)
	if err := freshRemote(ctx, work, fresh, o); err != nil {
		return err
	}
	year := filepath.Join(work, "year.git")
	if err := runIn(work, "clone", "-q", "--bare", fresh, year); err != nil {
		return err
	}
	progress("year: %d snapshot commits with git fast-import", o.commits)
	start := time.Now()
	if err := addYear(year, o); err != nil {
		return err
	}
	progress("year: written in %s", time.Since(start).Round(time.Millisecond))
	type result struct {
		name       string
		read, hist []time.Duration
		// histCPU is history's CPU time, its git processes included:
		// on a shared machine the figure that load does not move.
		histCPU []time.Duration
		fetched int64
		commits string
	}
	results := []*result{{name: "fresh branch"}, {name: fmt.Sprintf("after %d commits", o.commits)}}
	remotes := []string{fresh, year}
	for round := 0; round < o.runs; round++ {
		for i, r := range results {
			if round%2 == 1 {
				// Alternate which goes first.
				i = len(results) - 1 - i
				r = results[i]
			}
			ci := filepath.Join(work, fmt.Sprintf("ci-%d-%d", round, i))
			// actions/checkout's default: the code at depth 1.
			if err := runIn(work, "clone", "-q", "--depth=1", "--branch", "main", "file://"+remotes[i], ci); err != nil {
				return err
			}
			before := dirSize(filepath.Join(ci, ".git"))
			d, err := timeRead(ctx, ci)
			if err != nil {
				return err
			}
			r.read = append(r.read, d)
			r.fetched = dirSize(filepath.Join(ci, ".git")) - before
			out, _ := gitIn(ci, nil, "rev-list", "--count", "refs/ownership-check/"+model.DefaultSnapshotBranch)
			r.commits = strings.TrimSpace(string(out))
			// history from a checkout of its own, so that it fetches too.
			ci2 := ci + "-history"
			if err := runIn(work, "clone", "-q", "--depth=1", "--branch", "main", "file://"+remotes[i], ci2); err != nil {
				return err
			}
			t := tool{name: "history", args: []string{o.binary, "history", "--environment", "env0", "--output", "json"},
				ok: func(code int) bool { return code == 0 }}
			s, _, err := runTool(o.measure, ci2, nil, t, "", round)
			if err != nil {
				return err
			}
			r.hist = append(r.hist, s.wall)
			r.histCPU = append(r.histCPU, s.cpu)
		}
	}
	fmt.Printf("\n%d environments × %d objects, %d deploys of history each; %d runs, medians (min–max)\n\n", o.envs, o.objects, history.Keep, o.runs)
	fmt.Println("| branch | snapshot read (fetch at depth 1 included) | history | history's CPU | commits fetched | fetched into .git |")
	fmt.Println("|---|---|---|---|---:|---:|")
	for _, r := range results {
		fmt.Printf("| %s | %s | %s | %s | %s | %d KiB |\n", r.name, spread(r.read), spread(r.hist), spread(r.histCPU), r.commits, r.fetched>>10)
	}
	for _, remote := range remotes {
		out, _ := gitIn(remote, nil, "count-objects", "-vH")
		fmt.Printf("\n%s: %s\n", filepath.Base(remote), strings.Join(strings.Fields(string(out)), " "))
	}
	return nil
}

// spread is the median and the range of ds.
func spread(ds []time.Duration) string {
	lo, hi := ds[0], ds[0]
	for _, d := range ds {
		lo, hi = min(lo, d), max(hi, d)
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }
	return fmt.Sprintf("%s (%s–%s)", ms(median(ds)), ms(lo), ms(hi))
}

// timeRead is what a check does with the snapshot branch first: open it,
// fetch the tip, read one environment's snapshot.
func timeRead(ctx context.Context, repo string) (time.Duration, error) {
	start := time.Now()
	store, err := snapshot.Open(ctx, repo, "")
	if err != nil {
		return 0, err
	}
	defer store.Close()
	snap, err := store.Read(ctx, "env0", "")
	if err != nil {
		return 0, err
	}
	if _, _, err := store.ReadLog(ctx, history.Folder("env0"), snap.Commit, history.Window); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// freshRemote makes a bare remote with a main branch and the snapshot
// branch: every environment's snapshot and a full deploy history.
func freshRemote(ctx context.Context, work, bare string, o yearOptions) error {
	src := filepath.Join(work, "src")
	if err := os.MkdirAll(src, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(src, "README.md"), []byte("# platform\n"), 0o644); err != nil {
		return err
	}
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "-A"}, {"commit", "-q", "-m", "platform"}} {
		if err := runIn(src, append([]string{"-c", "user.name=bench", "-c", "user.email=bench@example.com"}, args...)...); err != nil {
			return err
		}
	}
	store, err := snapshot.Open(ctx, src, "")
	if err != nil {
		return err
	}
	defer store.Close()
	h, err := secrets.New(secrets.NewSalt(), nil)
	if err != nil {
		return err
	}
	at := time.Now().Add(-365 * 24 * time.Hour)
	for e := range o.envs {
		env := fmt.Sprintf("env%d", e)
		snap := &snapshot.Snapshot{
			Index: snapshot.Index{Environment: env, FieldManager: deployer, ToolVersion: "bench",
				SourceCommit: strings.Repeat("0", 40), DeployedAt: at, Secrets: snapshot.HashingOf(h)},
			Objects: map[model.ID]*snapshot.Entry{},
		}
		for i := range o.objects {
			cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": fmt.Sprintf("cm-%04d", i), "namespace": env},
				"data":     map[string]any{"mode": "fast"}}}
			ro := model.Object{ID: model.IDOf(cm), Object: cm}
			live := cm.DeepCopy()
			live.SetManagedFields(nil)
			snap.Objects[ro.ID] = snapshot.NewEntry(ro, live, h)
		}
		if _, err := store.Write(ctx, snap, "snapshot "+env); err != nil {
			return err
		}
		for d := range history.Keep {
			f, err := history.Encode(&history.Deploy{Environment: env, FieldManager: deployer,
				RecordedAt: at.Add(time.Duration(d) * time.Hour),
				Objects: []history.Object{{ID: model.ID{Kind: "ConfigMap", Namespace: env, Name: "cm-0000"},
					Findings: []history.Finding{{Category: model.Drift, Path: ".data.mode"}}}}})
			if err != nil {
				return err
			}
			if _, err := store.AppendLog(ctx, history.Folder(env), f.Name, f.Data, history.Keep, "history "+env); err != nil {
				return err
			}
		}
	}
	return runIn(work, "clone", "-q", "--bare", src, bare)
}

var deployedAt = regexp.MustCompile(`"deployedAt": *"[^"]*"`)

// addYear adds o.commits snapshot commits to the branch of the bare
// repository, each a new deploy of one environment (its index's time
// changed), with one git fast-import.
func addYear(bare string, o yearOptions) error {
	branch := "refs/heads/" + model.DefaultSnapshotBranch
	tip, err := gitIn(bare, nil, "rev-parse", branch)
	if err != nil {
		return err
	}
	indexes := make([][]byte, o.envs)
	for e := range o.envs {
		b, err := gitIn(bare, nil, "show", fmt.Sprintf("%s:env%d/index.json", branch, e))
		if err != nil {
			return err
		}
		indexes[e] = b
	}
	var in bytes.Buffer
	start := time.Now().Add(-365 * 24 * time.Hour)
	for i := range o.commits {
		e := i % o.envs
		at := start.Add(time.Duration(i) * 365 * 24 * time.Hour / time.Duration(o.commits))
		index := deployedAt.ReplaceAll(indexes[e], []byte(`"deployedAt": "`+at.UTC().Format(time.RFC3339)+`"`))
		msg := fmt.Sprintf("snapshot env%d at %040d", e, i)
		fmt.Fprintf(&in, "commit %s\ncommitter ownership-check <ownership-check@users.invalid> %d +0000\ndata %d\n%s\n", branch, at.Unix(), len(msg), msg)
		if i == 0 {
			fmt.Fprintf(&in, "from %s\n", strings.TrimSpace(string(tip)))
		}
		fmt.Fprintf(&in, "M 100644 inline env%d/index.json\ndata %d\n%s\n", e, len(index), index)
	}
	in.WriteString("done\n")
	_, err = gitIn(bare, in.Bytes(), "fast-import", "--quiet", "--done")
	return err
}

// runIn runs git in dir.
func runIn(dir string, args ...string) error {
	_, err := gitIn(dir, nil, args...)
	return err
}

func gitIn(dir string, stdin []byte, args ...string) ([]byte, error) {
	return gitexec.Run(context.Background(), gitexec.Where{Dir: dir}, stdin, args...)
}

func dirSize(dir string) int64 {
	var n int64
	filepath.Walk(dir, func(_ string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			n += info.Size()
		}
		return nil
	})
	return n
}
