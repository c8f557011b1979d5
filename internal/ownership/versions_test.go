package ownership

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/managedfields"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

// HorizontalPodAutoscaler in autoscaling/v1 and v2, as the API server
// returned them (see the hpa scenarios of internal/check): v1's
// targetCPUUtilizationPercentage is v2's metrics, v1's scaleTargetRef is
// atomic and v2's is not. client-go's built-in schemas type both.

const hpaV1Deployed = `
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: ns
  uid: u1
  managedFields:
  - {manager: deployer, operation: Apply, apiVersion: autoscaling/v1, fieldsType: FieldsV1, time: "2026-01-01T00:00:00Z",
     fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:minReplicas": {}, "f:scaleTargetRef": {}, "f:targetCPUUtilizationPercentage": {}}}}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  targetCPUUtilizationPercentage: 60
`

const hpaV1Applied = `
apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: ns}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  targetCPUUtilizationPercentage: 60
`

const hpaV2Desired = `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web, namespace: ns}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}
`

// hpaV2 is the object read as autoscaling/v2, with the given managedFields
// and CPU target.
func hpaV2(t *testing.T, managedFields string, cpu int) *unstructured.Unstructured {
	t.Helper()
	return fromYAML(t, `
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata:
  name: web
  namespace: ns
  uid: u1
  managedFields:
`+managedFields+`
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: `+strconv.Itoa(cpu)+`}}
`)
}

const (
	deployerV1 = `  - {manager: deployer, operation: Apply, apiVersion: autoscaling/v1, fieldsType: FieldsV1, time: "2026-01-01T00:00:00Z",
     fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:minReplicas": {}, "f:scaleTargetRef": {}, "f:targetCPUUtilizationPercentage": {}}}}`
	deployerV2 = `  - {manager: deployer, operation: Apply, apiVersion: autoscaling/v2, fieldsType: FieldsV1, time: "2026-01-01T00:00:00Z",
     fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:metrics": {}, "f:minReplicas": {}, "f:scaleTargetRef": {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}}`
	// After a v1 update of the CPU target: the server took metrics from
	// the deployer's v2 entry and recorded the tuner's field in v1.
	deployerV2WithoutMetrics = `  - {manager: deployer, operation: Apply, apiVersion: autoscaling/v2, fieldsType: FieldsV1, time: "2026-01-01T00:00:00Z",
     fieldsV1: {"f:spec": {"f:maxReplicas": {}, "f:minReplicas": {}, "f:scaleTargetRef": {"f:apiVersion": {}, "f:kind": {}, "f:name": {}}}}}`
	tunerV1 = `  - {manager: hpa-tuner, operation: Update, apiVersion: autoscaling/v1, fieldsType: FieldsV1, time: "2026-01-02T00:00:00Z",
     fieldsV1: {"f:spec": {"f:targetCPUUtilizationPercentage": {}}}}`
)

func builtinTypesOf(string) (managedfields.TypeConverter, error) { return DefaultTypeConverter(), nil }

func TestVersionMoveWithTheSameMeaningIsClean(t *testing.T) {
	deployed := fromYAML(t, hpaV1Deployed)
	liveV1 := deployed.DeepCopy()
	liveV1.SetResourceVersion("7")
	in := Input{
		FieldManager:   "deployer",
		Desired:        fromYAML(t, hpaV2Desired),
		Applied:        fromYAML(t, hpaV1Applied),
		Deployed:       deployed,
		Live:           hpaV2(t, deployerV1, 60),
		LiveAsRecorded: liveV1,
		Predicted:      hpaV2(t, deployerV2, 60),
		TypesOf:        builtinTypesOf,
	}
	r, err := Analyze(in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Baseline != BaselineSnapshot || len(r.Findings) != 0 {
		t.Errorf("baseline %s, findings %+v; want the snapshot and none", r.Baseline, r.Findings)
	}

	// Without the version conversion the same move is a taking-conflict,
	// anomalies and a release.
	in.TypesOf = nil
	r, err = Analyze(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) == 0 {
		t.Error("records read as if all versions were alike give no finding; the test no longer shows the difference")
	}
}

// Changed since the deploy, the object cannot be converted by the cluster,
// and v1's fields are not v2's: one anomaly, and live as the baseline.
func TestVersionMoveOfAChangedObjectIsComparedAgainstLive(t *testing.T) {
	deployed := fromYAML(t, hpaV1Deployed)
	liveV1 := deployed.DeepCopy()
	_ = unstructured.SetNestedField(liveV1.Object, int64(70), "spec", "targetCPUUtilizationPercentage")
	r, err := Analyze(Input{
		FieldManager:   "deployer",
		Desired:        fromYAML(t, hpaV2Desired),
		Applied:        fromYAML(t, hpaV1Applied),
		Deployed:       deployed,
		Live:           hpaV2(t, deployerV1, 70),
		LiveAsRecorded: liveV1,
		Predicted:      hpaV2(t, deployerV2, 60),
		TypesOf:        builtinTypesOf,
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Baseline != BaselineLive {
		t.Errorf("baseline %s, want live", r.Baseline)
	}
	var anomalies []string
	for _, f := range r.Findings {
		if f.Category == model.Anomaly {
			anomalies = append(anomalies, f.Message)
		}
	}
	if len(anomalies) != 1 || !strings.Contains(anomalies[0], "autoscaling/v1") || !strings.Contains(anomalies[0], "changed since the last deploy") {
		t.Errorf("anomalies %q, want one saying why the v1 record cannot be compared", anomalies)
	}
}

func TestManagerInAnotherVersionIsNamed(t *testing.T) {
	r, err := Analyze(Input{
		FieldManager: "deployer",
		Desired:      fromYAML(t, hpaV2Desired),
		Applied:      fromYAML(t, hpaV2Desired),
		Deployed:     hpaV2(t, deployerV2, 60),
		Live:         hpaV2(t, deployerV2WithoutMetrics+"\n"+tunerV1, 70),
		Predicted:    hpaV2(t, deployerV2, 60),
		TypesOf:      builtinTypesOf,
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Findings) != 1 {
		t.Fatalf("findings %+v, want one drift", r.Findings)
	}
	f := r.Findings[0]
	if f.Category != model.Drift || f.Path != ".spec.metrics" || len(f.Managers) != 1 || f.Managers[0].Manager != "hpa-tuner" {
		t.Errorf("finding %+v, want a drift on .spec.metrics by hpa-tuner", f)
	}
}

func TestConvertSetWidensAndReplacesFields(t *testing.T) {
	v := &versions{target: "autoscaling/v2", kind: "HorizontalPodAutoscaler", targetTypes: DefaultTypeConverter(), typesOf: builtinTypesOf}
	owners, err := ManagedSets(fromYAML(t, hpaV1Deployed))
	if err != nil {
		t.Fatal(err)
	}
	obj, err := FieldSet(hpaV2(t, deployerV2, 60), nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := v.convertSet(serverSide.own(owners, "deployer"), "autoscaling/v1", obj, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".spec.maxReplicas", ".spec.metrics", ".spec.minReplicas",
		".spec.scaleTargetRef", ".spec.scaleTargetRef.apiVersion", ".spec.scaleTargetRef.kind", ".spec.scaleTargetRef.name"}
	var paths []string
	got.Iterate(func(p fieldpath.Path) { paths = append(paths, p.String()) })
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Errorf("converted set %v, want %v", paths, want)
	}
}

func TestManagerInAnUnservedVersionIsAnAnomaly(t *testing.T) {
	old := `  - {manager: legacy, operation: Update, apiVersion: autoscaling/v2beta1, fieldsType: FieldsV1,
     fieldsV1: {"f:spec": {"f:minReplicas": {}}}}`
	r, err := Analyze(Input{
		FieldManager: "deployer",
		Desired:      fromYAML(t, hpaV2Desired),
		Live:         hpaV2(t, deployerV2+"\n"+old, 60),
		Predicted:    hpaV2(t, deployerV2+"\n"+old, 60),
		TypesOf: func(apiVersion string) (managedfields.TypeConverter, error) {
			if apiVersion == "autoscaling/v2beta1" {
				return nil, errors.New("the cluster no longer serves autoscaling/v2beta1")
			}
			return DefaultTypeConverter(), nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, f := range r.Findings {
		if f.Category != model.Anomaly || f.Transition != nil {
			t.Errorf("finding %+v, want only the object-level anomaly (never row-4 noise)", f)
		}
		msgs = append(msgs, f.Message)
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "legacy (Update) wrote in autoscaling/v2beta1") || !strings.Contains(msgs[0], "no longer serves") {
		t.Errorf("anomalies %q, want one naming the legacy entry with the reason", msgs)
	}
}
