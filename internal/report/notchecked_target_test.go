package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestNotCheckedTarget: a target that is not checked is listed in every
// format with its reason, never left out, and fails nothing by itself.
func TestNotCheckedTarget(t *testing.T) {
	clean := &Report{SchemaVersion: SchemaVersion, Environment: "prod", FieldManager: "deployer", Engine: "cluster", Objects: []Object{}}
	clean.Summarize()
	const reason = "its source is another repository (https://github.com/org/other)"
	es := []Entry{{Name: "prod", Report: clean}, {Name: "flux-system/apps", Reason: reason}}
	tool := Tool{Name: "ownership-check", Version: "v1"}

	var buf bytes.Buffer
	if err := WriteMany(&buf, es, "json", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	var arr []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &arr); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if len(arr) != 2 || arr[1]["environment"] != "flux-system/apps" || arr[1]["checked"] != false || arr[1]["reason"] != reason {
		t.Errorf("JSON array: %s", buf.String())
	}
	if _, ok := arr[0]["checked"]; ok {
		t.Errorf("a checked report is as before, without checked: %v", arr[0])
	}
	// Without a not-checked target the array is WriteJSONArray's, byte for
	// byte, with the run's coverage in each report.
	var one, many bytes.Buffer
	withCoverage := *clean
	cov := CoverageOf(es[:1])
	withCoverage.Coverage = &cov
	_ = WriteJSONArray(&one, []*Report{&withCoverage})
	_ = WriteMany(&many, es[:1], "json", ManyOptions{Tool: tool})
	if one.String() != many.String() {
		t.Errorf("JSON of checked reports changed:\n%s\n%s", one.String(), many.String())
	}

	buf.Reset()
	if err := WriteMany(&buf, es, "text", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "environment flux-system/apps: not checked: "+reason) {
		t.Errorf("text:\n%s", buf.String())
	}

	md := MarkdownMany(es, "2 of 2 targets checked", tool)
	for _, want := range []string{"| flux-system/apps | ⚠️ not checked |", "**flux-system/apps**: not checked (", "### ⚠️ flux-system/apps", "Not checked: its source is another repository"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "❌") {
		t.Errorf("a not-checked target fails nothing:\n%s", md)
	}
}

// TestNotCheckedTargetJudged: a target the pull request made uncheckable
// is still listed as not checked, with its reason, in every format and in
// the coverage line; its report's not-checked finding fails the verdict.
func TestNotCheckedTargetJudged(t *testing.T) {
	const reason = "chart podinfo 6.x from http://10.0.0.1/charts: 10.0.0.1 resolves to 10.0.0.1, private (10.0.0.0/8): an address of the runner's own network, which only a host listed under charts.hosts in the trusted config may be"
	judged := &Report{SchemaVersion: SchemaVersion, Environment: "HelmRelease/web.apps", FieldManager: "helm-controller", Engine: "cluster", Failed: true,
		Base: &BaseInfo{Commit: "0123456789abcdef0123456789abcdef01234567"},
		Objects: []Object{{APIVersion: "helm.toolkit.fluxcd.io/v2", Kind: "HelmRelease", Namespace: "apps", Name: "web", Source: "apps/web.yaml", Baseline: "live",
			Findings: []model.Finding{{Category: model.NotChecked, Cause: model.CausePullRequest, Path: model.WholeObject, Reason: "chart host unreachable",
				Message: "this pull request makes the target uncheckable: its head is not checked (" + reason + "), while it renders at the base 0123456789ab"}}}}}
	judged.Summarize()
	judged.NotCheckedFor(reason)
	clean := &Report{SchemaVersion: SchemaVersion, Environment: "HelmRelease/api.apps", FieldManager: "helm-controller", Engine: "cluster", Objects: []Object{}}
	clean.Summarize()
	es := []Entry{{Name: "HelmRelease/api.apps", Report: clean}, {Name: "HelmRelease/web.apps", Report: judged}}
	tool := Tool{Name: "ownership-check", Version: "v1"}

	const cov = "coverage: 1 of 2 targets checked, 0 objects, 0 workloads; 1 not checked: 1 chart host unreachable"
	if got := CoverageOf(es).Line(); got != cov {
		t.Errorf("coverage: %s, want %s", got, cov)
	}
	var buf bytes.Buffer
	if err := WriteMany(&buf, es, "json", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	var arr []map[string]any
	if err := json.Unmarshal(buf.Bytes(), &arr); err != nil || len(arr) != 2 {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	summary, _ := arr[1]["summary"].(map[string]any)
	if arr[1]["checked"] != false || arr[1]["reason"] != reason || arr[1]["failed"] != true || summary["not-checked"] != 1.0 {
		t.Errorf("JSON element of the judged target: %v", arr[1])
	}
	if _, ok := arr[0]["checked"]; ok {
		t.Errorf("a checked report is as before, without checked: %v", arr[0])
	}
	var back Report
	raw, _ := json.Marshal(arr[1])
	if err := json.Unmarshal(raw, &back); err != nil || back.NotChecked() != reason || !back.Failed {
		t.Errorf("read back: %v %q %v", err, back.NotChecked(), back.Failed)
	}

	buf.Reset()
	if err := WriteMany(&buf, es, "text", ManyOptions{Tool: tool}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "FAIL not checked, and this pull request made it so: "+reason) || !strings.Contains(buf.String(), "not-checked") {
		t.Errorf("text:\n%s", buf.String())
	}

	md := MarkdownMany(es, "2 of 2 targets checked", tool)
	for _, want := range []string{"| HelmRelease/web.apps | ❌ fails |", "### ❌ HelmRelease/web.apps", "Not checked: chart podinfo", "**not-checked** (HelmRelease apps/web, cause `pull-request`): this pull request makes the target uncheckable"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}

	// --fail-on without not-checked: listed, warned of, passing.
	judged.Failed = false
	if v := judged.Status().Verdict(); !strings.HasPrefix(v, "not checked, and this pull request made it so (not in fail-on): ") {
		t.Errorf("verdict when not in fail-on: %q", v)
	}
	if md := MarkdownMany(es, "2 of 2 targets checked", tool); strings.Contains(md, "❌") {
		t.Errorf("not in fail-on, nothing fails:\n%s", md)
	}
}
