package homeops_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/testkit/homeops"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestCoverageCountsMissingChartsAlike: a home-ops repository whose
// mirror lacks some of its charts (the shared chart's tag, a chart's
// repository in the registry, a chart in a Helm repository's index) and
// whose one chart is on a host that does not resolve: `targets --render`
// and `check --target all` on the real API server end with the same
// coverage line, each release counted by its chart's kind of failure,
// none as "error".
func TestCoverageCountsMissingChartsAlike(t *testing.T) {
	testcluster.Require(t, cluster)
	s := newSite(t, 12, 4)
	edit := func(rel, old, new string) {
		t.Helper()
		body := s.read(rel)
		if !strings.Contains(body, old) {
			t.Fatalf("%s has no %q", rel, old)
		}
		s.git.Write(rel, strings.Replace(body, old, new, 1))
	}
	broken := 0
	for i, c := range s.plan.Charts {
		for j, r := range s.plan.Using(i) {
			switch {
			case i == 0:
				// The shared OCIRepository, below.
				continue
			case c.Form == homeops.OCIRepository && j == 0:
				edit(homeops.OCIRepositoryFile(r), "url: oci://", "url: oci://charts.example.invalid/")
			case c.Form == homeops.OCIRepository:
				edit(homeops.OCIRepositoryFile(r), "/"+c.Name+"\n", "/no-such-chart\n")
			case c.Form == homeops.HelmRepository:
				edit(homeops.AppDir(r)+"/app/helmrelease.yaml", "chart: "+c.Name, "chart: no-such-chart")
			default:
				continue
			}
			broken++
		}
	}
	shared := s.plan.Charts[0]
	edit(homeops.OCIRepositoryFile(s.plan.Using(0)[0]), "tag: "+shared.Version, "tag: 99.0.0")
	broken += len(s.plan.Using(0))

	code, listed, stderr := s.run("targets", "--render")
	if code != 0 {
		t.Fatalf("targets --render: exit %d\n%s%s", code, listed, stderr)
	}
	code, checked, stderr := s.run("check", "--target", "all", "--output", "text")
	if code == 2 {
		t.Fatalf("check: exit %d\n%s%s", code, checked, stderr)
	}
	want, got := lastLine(listed), lastLine(checked)
	if want != got {
		t.Errorf("targets --render ends with\n  %s\ncheck ends with\n  %s", want, got)
	}
	counted := 0
	_, kinds, _ := strings.Cut(want, " not checked: ")
	for _, k := range strings.Split(kinds, ", ") {
		num, kind, _ := strings.Cut(k, " ")
		n, err := strconv.Atoi(num)
		if err != nil || !strings.Contains(kind, "chart") {
			t.Errorf("coverage counts %q: want every release counted by its chart's failure\n%s", k, want)
			continue
		}
		counted += n
	}
	if counted != broken || !strings.Contains(want, "missing chart") || !strings.Contains(want, "chart host unreachable") {
		t.Errorf("coverage %q: want %d releases not checked, as missing chart and chart host unreachable", want, broken)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}
