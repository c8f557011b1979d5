package check_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// TestScenarioRemovedAPIVersionNamed: a FlowSchema in
// flowcontrol.apiserver.k8s.io/v1beta3, which no release from 1.32 on
// serves. The object is not checked, and beside "the cluster does not
// serve" the note says which release removed the version and what to move
// the manifest to, which the API server cannot say of a version it no
// longer knows. A DeviceClass in resource.k8s.io/v1beta1, which neither
// test server serves unless told to, is told the release still to come.
func TestScenarioRemovedAPIVersionNamed(t *testing.T) {
	s := newScenario(t, "removed-apis")
	code, rep, stderr := s.check("gone")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an object not checked fails); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	o := reportObject(t, rep, "FlowSchema", "s37-removed")
	for _, want := range []string{
		"not checked: the cluster does not serve FlowSchema.flowcontrol.apiserver.k8s.io in version v1beta3",
		"Kubernetes 1.32 removed flowcontrol.apiserver.k8s.io/v1beta3 FlowSchema: move the manifest to flowcontrol.apiserver.k8s.io/v1",
	} {
		if !containsPrefix(o.Notes, want) {
			t.Errorf("notes %q, want %q", o.Notes, want)
		}
	}

	// A beta version not removed yet, which this cluster was not told to
	// serve: its removal is still to come.
	code, rep, stderr = s.check("beta")
	if code != 1 {
		t.Fatalf("exit %d, want 1 (an object not checked fails); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	o = reportObject(t, rep, "DeviceClass", "s37-gpu")
	v, err := kubernetesFor(t, cluster).Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	want := "Kubernetes 1.38 stops serving resource.k8s.io/v1beta1 DeviceClass, which the cluster (" + v.Major + "." + strings.TrimSuffix(v.Minor, "+") +
		") does not serve already: move the manifest to resource.k8s.io/v1"
	if !containsPrefix(o.Notes, want) {
		t.Errorf("notes %q, want %q", o.Notes, want)
	}
}

// TestScenarioNextUpgradeRemovesAPIVersion: a DeviceClass in
// resource.k8s.io/v1beta1, on an API server of its own that serves that
// version (no release serves it unless told to). Whether or not the
// server warns of it (1.37 does, 1.33 does not yet), the note names the
// release that stops serving it, as the next upgrade when it is, and the
// version to move to.
func TestScenarioNextUpgradeRemovesAPIVersion(t *testing.T) {
	s := newScenario(t, "removed-apis")
	c, err := testcluster.Start(context.Background(), "--runtime-config=resource.k8s.io/v1beta1=true")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Stop() })
	v, err := kubernetesFor(t, c).Discovery().ServerVersion()
	if err != nil {
		t.Fatal(err)
	}
	release := v.Major + "." + strings.TrimSuffix(v.Minor, "+")

	code, rep, stderr := s.checkAs(c.KubeconfigFile(t), "beta")
	if code != 0 {
		t.Fatalf("exit %d, want 0 (a removal to come is a note); stderr: %s\n%s", code, stderr, dumpOrNil(rep))
	}
	o := reportObject(t, rep, "DeviceClass", "s37-gpu")
	want := "Kubernetes 1.38 stops serving resource.k8s.io/v1beta1 DeviceClass (the cluster runs " + release + "): move the manifest to resource.k8s.io/v1 before that upgrade"
	if release == "1.37" {
		want = "the next upgrade, to Kubernetes 1.38, stops serving resource.k8s.io/v1beta1 DeviceClass (the cluster runs 1.37): move the manifest to resource.k8s.io/v1 before that upgrade"
	}
	if !containsPrefix(o.Notes, want) {
		t.Errorf("notes %q, want %q", o.Notes, want)
	}
	t.Logf("on %s: notes %q", release, o.Notes)
}

func reportObject(t *testing.T, rep *report.Report, kind, name string) report.Object {
	t.Helper()
	for _, o := range rep.Objects {
		if o.Kind == kind && o.Name == name {
			return o
		}
	}
	t.Fatalf("no %s %s in the report\n%s", kind, name, dump(rep))
	return report.Object{}
}

func kubernetesFor(t *testing.T, c *testcluster.Cluster) *kubernetes.Clientset {
	t.Helper()
	kc, err := kubernetes.NewForConfig(c.Config())
	if err != nil {
		t.Fatal(err)
	}
	return kc
}
