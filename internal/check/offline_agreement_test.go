package check_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The offline engine agrees with the cluster engine wherever nothing
// changed in the cluster since the snapshot: every other manager acts
// before the snapshot here, so live equals deployed. Each case runs on
// copies of the check scenarios with namespaces (and CRD groups) of their
// own, so the scenario tests' objects are not touched.
//
// The one documented difference: offline cannot run the API server's
// validation, so a split-owned item that the server refuses gives the
// split-ownership finding without the dry-run-error.

func TestOfflineAgreesShared(t *testing.T) {
	s := agreementScenario(t, "shared", "s2-shared")
	s.deploy("deployed", "")
	s.apply("other", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ag-s2-shared"},
		"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "app", "image": "nginx:1.25"}},
		}}},
	}, false)
	s.snapshot("deployed", "")
	rep := s.agree("pr", 0)
	if n := countFindings(rep); n != 0 {
		t.Errorf("%d findings, want none (shared ownership of equal values)\n%s", n, dump(rep))
	}
}

func TestOfflineAgreesReleaseRetainedAndReset(t *testing.T) {
	s := agreementScenario(t, "release", "s5-release")
	s.deploy("deployed", "")
	s.apply("labeler", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ag-s5-release", "labels": map[string]any{"team": "payments"}},
	}, false)
	s.snapshot("deployed", "")
	rep := s.agree("pr", 0, "--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error")
	onlyFinding(t, rep, "Deployment", "web", model.Retained, ".metadata.labels.team")
	onlyFinding(t, rep, "Deployment", "web", model.Reset, ".spec.replicas")
}

// A field the repository config now ignores is released, and both
// engines say why.
func TestOfflineAgreesIgnoreList(t *testing.T) {
	s := agreementScenario(t, "release", "s5-release")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	cfg := filepath.Join(t.TempDir(), ".ownership-check.yaml")
	writeFile(t, cfg, "ignore:\n  - path: .spec.replicas\n    kind: Deployment\n    group: apps\n    reason: scaled by an autoscaler\n")
	args := []string{"--config", cfg, "--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error"}
	offline := s.agree("deployed", 0, args...)
	_, online, _ := s.check("deployed", args...)
	for _, rep := range []*report.Report{online, offline} {
		var msgs []string
		for _, o := range rep.Objects {
			for _, f := range o.Findings {
				if o.Kind == "Deployment" && f.Category == model.Release && f.Path == ".spec.replicas" {
					msgs = append(msgs, f.Message)
				}
			}
		}
		if len(msgs) != 1 || !strings.HasPrefix(msgs[0], "released: now in the ignore list") {
			t.Errorf("%s engine: want .spec.replicas released because it is now ignored, got %q\n%s", rep.Engine, msgs, dump(rep))
		}
	}
}

func TestOfflineAgreesTaking(t *testing.T) {
	s := agreementScenario(t, "taking-conflict", "s3-taking")
	s.deploy("deployed", "ignore-replicas.yaml")
	s.apply("hpa", map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ag-s3-taking"},
		"spec":     map[string]any{"replicas": 4},
	}, false)
	s.snapshot("deployed", "ignore-replicas.yaml")
	// The hpa was there at the snapshot: taking, not taking-conflict.
	rep := s.agree("pr", 0, "--fail-on", "drift,taking-conflict,update-conflict,split-ownership,error")
	f := onlyFinding(t, rep, "Deployment", "web", model.Taking, ".spec.replicas")
	if !hasManager(f.Managers, "hpa", "Apply", "") {
		t.Errorf("taking = %+v, want hpa named", f)
	}
}

func TestOfflineAgreesSplitOwnership(t *testing.T) {
	s := agreementScenario(t, "split-ownership", "s6-split")
	s.deploy("namespace-only.yaml", "")
	created := readObject(t, s.path("created-by-go-http-client.yaml"))
	res, err := s.client.Resource(created.GroupVersionKind(), "ag-s6-split")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := res.Create(ctxTimeout(t), created, metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatal(err)
	}
	s.deploy("deployed", "")
	s.snapshot("deployed", "")
	rep := s.agree("pr", 1)
	onlyFinding(t, rep, "Deployment", "web", model.SplitOwnership, `.spec.template.spec.initContainers[name="base-os-bash"]`)
}

func TestOfflineAgreesNewNamespaceAndCRD(t *testing.T) {
	s := agreementScenario(t, "new-namespace-crd", "s7-shop")
	// Offline needs a snapshot of the environment; one of an unrelated
	// object, which both engines then report as removed.
	other := "other.yaml"
	writeFile(t, s.path(other), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ag-s7-other, namespace: default}\ndata: {a: b}\n")
	s.deploy(other, "")
	s.snapshot(other, "")
	rep := s.agree("pr", 0)
	for _, kind := range []string{"Namespace", "ConfigMap", "CustomResourceDefinition", "Widget"} {
		if n := countCategory(rep, kind, model.New); n != 1 {
			t.Errorf("%s: %d new findings, want 1", kind, n)
		}
	}
}

// A custom kind with a keyed list, typed offline by the schema the
// snapshot recorded (the pull request does not render the CRD).
func TestOfflineAgreesCustomResourceFromSnapshotSchema(t *testing.T) {
	s := agreementScenarioAt(t, filepath.Join("testdata", "agreement", "offline-crd"), "s8-gizmo", "s8.example.com")
	s.deploy("crd", "")
	waitForKind(t, s, schema.GroupVersionKind{Group: "ag-s8.example.com", Version: "v1", Kind: "Gizmo"})
	s.deploy("deployed", "")
	s.apply("operator", map[string]any{
		"apiVersion": "ag-s8.example.com/v1", "kind": "Gizmo",
		"metadata": map[string]any{"name": "g1", "namespace": "ag-s8-gizmo"},
		"spec": map[string]any{"ports": []any{
			map[string]any{"name": "http", "protocol": "TCP"},
			map[string]any{"name": "metrics", "port": 9090},
		}},
	}, false)
	s.snapshot("deployed", "")
	rep := s.agree("pr", 1)
	onlyFinding(t, rep, "Gizmo", "g1", model.SplitOwnership, `.spec.ports[name="http"]`)
	for _, n := range rep.Notes {
		if strings.Contains(n, "deduced") {
			t.Errorf("offline deduced a schema the snapshot has: %s", n)
		}
	}
}

// agreementScenario copies testdata/scenarios/<name> with namespace ns
// renamed to ag-<ns> (and example.com to ag.example.com for CRDs).
func agreementScenario(t *testing.T, name, ns string) *scenario {
	t.Helper()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return agreementScenarioAt(t, filepath.Join(root, "testdata", "scenarios", name), ns, "example.com")
}

func agreementScenarioAt(t *testing.T, src, ns, group string) *scenario {
	t.Helper()
	s := newScenario(t, "shared") // for the cluster, client and repository
	dir := t.TempDir()
	r := strings.NewReplacer(ns, "ag-"+ns, group, "ag-"+group)
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, rel), r.Replace(string(b)))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.dir = dir
	return s
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// agree checks manifests with both engines, requires the same exit code
// and the same findings (category, path, managers, split owners) and
// returns the offline report.
func (s *scenario) agree(manifests string, wantCode int, extra ...string) *report.Report {
	s.t.Helper()
	code, online, stderr := s.check(manifests, extra...)
	if code != wantCode {
		s.t.Fatalf("cluster engine: exit %d, want %d; stderr: %s\n%s", code, wantCode, stderr, dumpOrNil(online))
	}
	args := append([]string{"check", s.path(manifests), "--field-manager", deployer, "--offline",
		"--kubeconfig", filepath.Join(s.t.TempDir(), "none"), "--snapshot-repo", s.repo, "--output", "json"}, extra...)
	code, offline, stderr := s.decode(args...)
	if code != wantCode {
		s.t.Fatalf("offline engine: exit %d, want %d; stderr: %s\n%s", code, wantCode, stderr, dumpOrNil(offline))
	}
	if offline.Engine != "offline" || online.Engine != "cluster" {
		s.t.Errorf("engines %q and %q", online.Engine, offline.Engine)
	}
	want, got := agreementKeys(online, true), agreementKeys(offline, false)
	if strings.Join(want, "\n") != strings.Join(got, "\n") {
		s.t.Errorf("findings differ\ncluster:\n  %s\noffline:\n  %s\noffline report:\n%s",
			strings.Join(want, "\n  "), strings.Join(got, "\n  "), dump(offline))
	}
	return offline
}

func (s *scenario) decode(args ...string) (int, *report.Report, string) {
	s.t.Helper()
	code, stdout, stderr := s.run(args...)
	if code == 2 {
		return code, nil, stderr
	}
	var rep report.Report
	if err := jsonUnmarshal([]byte(stdout), &rep); err != nil {
		s.t.Fatalf("exit %d with a report that is not JSON: %v\n%s\n%s", code, err, stdout, stderr)
	}
	return code, &rep, stderr
}

// agreementKeys lists one line per finding. On the cluster side, the
// dry-run error of an object with split-owned items is left out: the
// offline engine cannot run the validation that gives it.
func agreementKeys(rep *report.Report, cluster bool) []string {
	var out []string
	for _, o := range rep.Objects {
		split := false
		for _, f := range o.Findings {
			split = split || f.Category == model.SplitOwnership
		}
		for _, f := range o.Findings {
			if cluster && split && f.Category == model.DryRunError {
				continue
			}
			var ms []string
			for _, m := range f.Managers {
				ms = append(ms, fmt.Sprintf("%s/%s/%s", m.Manager, m.Operation, m.Subresource))
			}
			for _, ow := range f.Owners {
				ms = append(ms, fmt.Sprintf("owner %s/%s/%s %v", ow.Manager.Manager, ow.Operation, ow.Subresource, ow.Paths))
			}
			sort.Strings(ms)
			out = append(out, fmt.Sprintf("%s/%s/%s: %s %s %v", o.Kind, o.Namespace, o.Name, f.Category, f.Path, ms))
		}
	}
	sort.Strings(out)
	return out
}

func countFindings(rep *report.Report) int {
	n := 0
	for _, o := range rep.Objects {
		n += len(o.Findings)
	}
	return n
}

func countCategory(rep *report.Report, kind string, c model.Category) int {
	n := 0
	for _, o := range rep.Objects {
		if o.Kind != kind {
			continue
		}
		for _, f := range o.Findings {
			if f.Category == c {
				n++
			}
		}
	}
	return n
}

func dumpOrNil(rep *report.Report) string {
	if rep == nil {
		return "(no report)"
	}
	return dump(rep)
}

func jsonUnmarshal(b []byte, v any) error { return json.Unmarshal(b, v) }

// waitForKind waits until discovery serves a kind a CRD just defined.
func waitForKind(t *testing.T, s *scenario, gvk schema.GroupVersionKind) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		s.client.ResetDiscovery()
		_, err := s.client.Mapping(gvk)
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s never served: %v", gvk, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
