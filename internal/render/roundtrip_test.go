package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// kubectl cannot apply (or create) with --dry-run=client without a server:
// it needs discovery to map kinds to resources, even with --validate=false.
// Offline, `kubectl annotate --local --dry-run=client -f -` parses the
// stream with kubectl's own decoder and prints it back; with the test API
// server, `kubectl apply --dry-run=client -f -` is run for real.

func renderMulti(t *testing.T, o EncodeOptions) ([]byte, []model.Object) {
	t.Helper()
	objs, err := Render(context.Background(), multiPaths, Options{Namespace: "apps", Config: loadTestConfig(t)})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := EncodeWith(&out, objs, o); err != nil {
		t.Fatal(err)
	}
	return out.Bytes(), objs
}

func runKubectl(t *testing.T, stdin []byte, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(testcluster.Tool(t, "kubectl"), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Env = append(os.Environ(), "KUBECONFIG="+filepath.Join(t.TempDir(), "none"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("kubectl %v: %v\n%s", args, err, stderr.String())
	}
	return out
}

// decodeStream reads kubectl's -o json output: one object, a List, or
// several objects in a row.
func decodeStream(t *testing.T, data []byte) []map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []map[string]any
	for {
		var raw json.RawMessage
		if err := dec.Decode(&raw); errors.Is(err, io.EOF) {
			return out
		} else if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := utiljson.Unmarshal(raw, &m); err != nil {
			t.Fatal(err)
		}
		if items, ok := m["items"].([]any); ok && m["kind"] == "List" {
			for _, it := range items {
				out = append(out, it.(map[string]any))
			}
			continue
		}
		out = append(out, m)
	}
}

// withoutAnnotations drops the annotations kubectl adds and the empty map
// it leaves.
func withoutAnnotations(m map[string]any, keys ...string) map[string]any {
	meta := m["metadata"].(map[string]any)
	if ann, ok := meta["annotations"].(map[string]any); ok {
		for _, k := range keys {
			delete(ann, k)
		}
		if len(ann) == 0 {
			delete(meta, "annotations")
		}
	}
	return m
}

func compareRoundTrip(t *testing.T, printed []byte, back []map[string]any, kubectlAnnotations ...string) {
	t.Helper()
	want, err := source.ParseManifests("render output", printed)
	if err != nil {
		t.Fatalf("render output does not parse back: %v", err)
	}
	if len(back) != len(want) {
		t.Fatalf("kubectl read %d objects, render printed %d", len(back), len(want))
	}
	for i := range want {
		if meta := back[i]["metadata"].(map[string]any); meta["uid"] != nil {
			// Already in the cluster (a CRD the test installed): kubectl
			// prints the live object with the change applied.
			continue
		}
		got := withoutAnnotations(back[i], kubectlAnnotations...)
		if !reflect.DeepEqual(got, want[i].Obj) {
			t.Errorf("object %d changed in the round trip:\nrender: %v\nkubectl: %v", i, want[i].Obj, got)
		}
	}
}

func TestRoundTripKubectlOffline(t *testing.T) {
	inRepoRoot(t)
	printed, _ := renderMulti(t, EncodeOptions{})
	out := runKubectl(t, printed, "annotate", "--local", "--dry-run=client", "-o", "json", "-f", "-", "ownership-check.example.com/round-trip-")
	compareRoundTrip(t, printed, decodeStream(t, out))
}

func TestRoundTripKubectlApplyDryRun(t *testing.T) {
	requireCluster(t)
	inRepoRoot(t)
	printed, _ := renderMulti(t, EncodeOptions{ShowSecrets: true})
	kubeconfig := cluster.KubeconfigFile(t)
	// kubectl maps kinds through discovery: the custom kinds' CRDs must be
	// served first.
	crds := filepath.Join(t.TempDir(), "servicemonitors.yaml")
	writeFile(t, crds, serviceMonitorCRD)
	runKubectl(t, nil, "--kubeconfig", kubeconfig, "apply", "-f", crds, "-f", "testdata/render/plain/widgets.json")
	runKubectl(t, nil, "--kubeconfig", kubeconfig, "wait", "--for=condition=Established", "--timeout=60s",
		"crd/servicemonitors.monitoring.coreos.com", "crd/widgets.example.com")
	out := runKubectl(t, printed, "--kubeconfig", kubeconfig, "apply", "--dry-run=client", "--validate=false", "-o", "json", "-f", "-")
	compareRoundTrip(t, printed, decodeStream(t, out), model.LastAppliedAnnotation)
}

const serviceMonitorCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: servicemonitors.monitoring.coreos.com
spec:
  group: monitoring.coreos.com
  scope: Namespaced
  names: {kind: ServiceMonitor, plural: servicemonitors, singular: servicemonitor, listKind: ServiceMonitorList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
`
