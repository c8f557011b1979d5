package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// row is one line of the table.
type row struct {
	n, tool, wall, rate, rss, cpu, server string
}

func rows(r sizeResult) []row {
	var out []row
	for _, t := range r.tools {
		n := strconv.Itoa(r.n)
		if t.skipped != "" || len(t.samples) == 0 {
			why := t.skipped
			if why == "" {
				why = "not run"
			}
			out = append(out, row{n: n, tool: t.name, wall: why})
			continue
		}
		med := t.medianWall()
		lo, hi := t.minMaxWall()
		wall := fmt.Sprintf("%.2f s (%.2f–%.2f)", med.Seconds(), lo.Seconds(), hi.Seconds())
		if t.name == toolFloor {
			wall += fmt.Sprintf("; PATCH loop %.2f s", floorLoop(t).Seconds())
		}
		rate := fmt.Sprintf("%.0f", float64(r.n)/med.Seconds())
		rss := fmt.Sprintf("%.0f MiB", float64(t.medianRSS())/(1<<20))
		cpu, server := t.medianCPU()
		out = append(out, row{n, t.name, wall, rate, rss,
			fmt.Sprintf("%.2f s", cpu.Seconds()), fmt.Sprintf("%.2f s", server.Seconds())})
	}
	return out
}

// floorLoop is the median time of the floor's PATCHes alone, as the floor
// child printed it.
func floorLoop(t toolResult) time.Duration {
	var ds []time.Duration
	for _, s := range t.samples {
		f, err := strconv.ParseFloat(strings.TrimSpace(string(s.stdout)), 64)
		if err == nil {
			ds = append(ds, time.Duration(f*float64(time.Second)))
		}
	}
	if len(ds) == 0 {
		return 0
	}
	return median(ds)
}

// ratios are the targets for one size.
func ratios(r sizeResult) []string {
	var out []string
	ratio := func(label, a, b string) {
		ta, tb := r.tool(a), r.tool(b)
		if ta == nil || tb == nil {
			return
		}
		out = append(out, fmt.Sprintf("%s %.2f", label, ta.medianWall().Seconds()/tb.medianWall().Seconds()))
	}
	ratio("check/floor", toolCheck, toolFloor)
	ratio("check/check (-base binary)", toolCheck, toolCheckBase)
	ratio("check --base/check", toolCheckGit, toolCheck)
	ratio("check remote/local", toolCheckRemote, toolCheck)
	ratio("kubectl diff --concurrency remote/check remote", toolKubectlRemote, toolCheckRemote)
	ratio("kubectl diff/check", toolKubectl, toolCheck)
	ratio("kubectl diff --concurrency/check", toolKubectlPar, toolCheck)
	var rejected []string
	for _, t := range r.tools {
		if t.rejected > 0 {
			rejected = append(rejected, fmt.Sprintf("%s %d", t.name, t.rejected))
		}
	}
	if len(rejected) == 0 {
		rejected = []string{"none"}
	}
	out = append(out, "429s answered: "+strings.Join(rejected, ", "))
	return out
}

func printSize(w io.Writer, r sizeResult) {
	fmt.Fprintf(w, "\n%d objects (%d drifted): deploy %.1f s, snapshot %.1f s\n", r.n, r.drifted, r.deploy.Seconds(), r.snapshot.Seconds())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, x := range rows(r) {
		fmt.Fprintf(tw, "  %s\t%s\t%s/s\t%s\tCPU %s\tserver CPU %s\n", x.tool, x.wall, x.rate, x.rss, x.cpu, x.server)
	}
	tw.Flush()
	fmt.Fprintf(w, "  %s\n", strings.Join(ratios(r), ", "))
}

func printTable(w io.Writer, all []sizeResult) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "objects\ttool\twall (median, min–max)\tobjects/s\tpeak RSS\tCPU\tserver CPU")
	for _, r := range all {
		for _, x := range rows(r) {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", x.n, x.tool, x.wall, x.rate, x.rss, x.cpu, x.server)
		}
	}
	tw.Flush()
	for _, r := range all {
		fmt.Fprintf(w, "%d objects: %s\n", r.n, strings.Join(ratios(r), ", "))
	}
}

func writeMarkdown(w io.Writer, all []sizeResult, runs int) {
	fmt.Fprintf(w, "Medians of %d runs (min–max in brackets). CPU is the tool's user + system time; server CPU the API server's and etcd's during the run.\n\n", runs)
	fmt.Fprintln(w, "| objects | tool | wall time | objects/s | peak RSS | CPU | server CPU |")
	fmt.Fprintln(w, "|---:|---|---|---:|---:|---:|---:|")
	for _, r := range all {
		for _, x := range rows(r) {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", x.n, x.tool, x.wall, x.rate, x.rss, x.cpu, x.server)
		}
	}
	fmt.Fprintln(w)
	for _, r := range all {
		fmt.Fprintf(w, "- %d objects (%d drifted; deploy %.1f s, snapshot %.1f s): %s\n",
			r.n, r.drifted, r.deploy.Seconds(), r.snapshot.Seconds(), strings.Join(ratios(r), ", "))
	}
}
