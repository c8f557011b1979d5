package report

import (
	"fmt"
	"strings"

	"github.com/ownership-check/ownership-check/internal/delivery"
)

// Chart is a chart the target's deploy releases, as the base and the head
// name it: which chart each side releases, and whether a tag now points at
// other bytes. A chart only one side releases has the other nil.
type Chart struct {
	Name string `json:"name"`
	// From is where it is fetched from (a Helm repository's URL, an OCI
	// reference without its tag); absent for this repository's charts.
	From string        `json:"from,omitempty"`
	Base *ChartVersion `json:"base,omitempty"`
	Head *ChartVersion `json:"head,omitempty"`
	// DigestChanged: the same version at base and head, other bytes (a
	// tag moved, or a chart republished under its version).
	DigestChanged bool `json:"digestChanged,omitempty"`
}

// ChartVersion is a chart's version and the digest of what was read.
type ChartVersion struct {
	Version string `json:"version"`
	Digest  string `json:"digest,omitempty"`
}

// ChartsOf pairs the charts the base and the head released, by name and
// source, in the head's order then the base's; without a base (base nil),
// the head's alone, nothing judged changed.
func ChartsOf(base, head []delivery.ChartPin) []Chart {
	var out []Chart
	at := map[[2]string]int{}
	for _, p := range head {
		k := [2]string{p.Name, p.From}
		if _, dup := at[k]; dup {
			continue
		}
		at[k] = len(out)
		out = append(out, Chart{Name: p.Name, From: p.From, Head: versionOf(p)})
	}
	for _, p := range base {
		k := [2]string{p.Name, p.From}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			out = append(out, Chart{Name: p.Name, From: p.From, Base: versionOf(p)})
			continue
		}
		if out[i].Base != nil {
			continue
		}
		out[i].Base = versionOf(p)
		h := out[i].Head
		out[i].DigestChanged = h.Version == p.Version && h.Digest != "" && p.Digest != "" && h.Digest != p.Digest
	}
	return out
}

func versionOf(p delivery.ChartPin) *ChartVersion {
	return &ChartVersion{Version: p.Version, Digest: p.Digest}
}

// String is "version@sha256:abcdef012345".
func (v *ChartVersion) String() string {
	if v == nil {
		return "(none)"
	}
	return strings.TrimPrefix(delivery.ChartPin{Version: v.Version, Digest: v.Digest}.String(), " ")
}

// changed: the base and the head release other charts (a version, a
// digest, one side without it). Without a base nothing is judged.
func (c Chart) changed(withBase bool) bool {
	if !withBase {
		return false
	}
	if c.Base == nil || c.Head == nil {
		return true
	}
	return *c.Base != *c.Head
}

// chartLines are what a report says of its charts: a line per chart the
// pull request changes ("Chart podinfo 6.7.1@sha256:… → 6.8.0@sha256:…"),
// a warning per tag that points at other bytes, and the unchanged ones
// named once, quietly ("" when none).
func (r *Report) chartLines() (changed, moved []string, unchanged string) {
	withBase := r.Base != nil
	var same []string
	for _, c := range r.Charts {
		if !c.changed(withBase) {
			v := c.Head
			if v == nil {
				v = c.Base
			}
			same = append(same, c.Name+" "+v.String())
			continue
		}
		changed = append(changed, fmt.Sprintf("Chart %s %s → %s", c.Name, c.Base, c.Head))
		if c.DigestChanged {
			moved = append(moved, fmt.Sprintf("chart %s: tag %s now points at other bytes: %s → %s (the same version, another chart)",
				c.Name, c.Head.Version, delivery.ShortDigest(c.Base.Digest), delivery.ShortDigest(c.Head.Digest)))
		}
	}
	if len(same) > 0 {
		unchanged = "charts: " + strings.Join(same, ", ")
		if withBase {
			unchanged += " (unchanged)"
		}
	}
	return changed, moved, unchanged
}

// mdCharts is chartLines in markdown: the changed charts one line each, a
// warning per moved tag, the unchanged ones in a quiet line.
func mdCharts(r *Report) string {
	changed, moved, unchanged := r.chartLines()
	var b strings.Builder
	for _, c := range changed {
		fmt.Fprintf(&b, "**%s**  \n", mdText(c))
	}
	if len(changed) > 0 {
		b.WriteString("\n")
	}
	for _, m := range moved {
		fmt.Fprintf(&b, "> ⚠️ %s\n\n", mdProse(m))
	}
	if unchanged != "" {
		fmt.Fprintf(&b, "<sub>%s</sub>\n\n", mdText(unchanged))
	}
	return b.String()
}
