package predict

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

const (
	benchObjects     = 200
	benchConcurrency = 16
)

var (
	benchOnce    sync.Once
	benchDesired []model.Object
)

// benchRender is 200 ConfigMaps that exist (created by another manager) and
// that the render changes, in one namespace.
func benchRender(b *testing.B) []model.Object {
	benchOnce.Do(func() {
		_, kc := engine(b, cluster.Config(), ClusterOptions{})
		ns := namespace(b, kc)
		for i := range benchObjects {
			name := fmt.Sprintf("cm-%03d", i)
			create(b, kc, "before", obj(b, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: `+ns+`}, data: {k: v1}}`))
			benchDesired = append(benchDesired, obj(b, `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: `+ns+`, labels: {app: bench}}, data: {k: v2, extra: x}}`))
		}
	})
	return benchDesired
}

func checkResults(b *testing.B, rs []Result) {
	for _, r := range rs {
		if r.Err != nil || r.Predicted == nil || r.Live == nil {
			b.Fatalf("%s: err %v, live %v", r.Object.ID, r.Err, r.Live != nil)
		}
	}
}

// BenchmarkPredict is the engine on 200 existing ConfigMaps:
// cold = a new client per run as the CLI does (connection + discovery
// included); warm = discovery cached; get = no LIST, one GET per object.
func BenchmarkPredict(b *testing.B) {
	testcluster.Require(b, cluster)
	objs := benchRender(b)
	b.Run("cold", func(b *testing.B) {
		for b.Loop() {
			e, _ := engine(b, cluster.Config(), ClusterOptions{Concurrency: benchConcurrency})
			rs, err := e.Predict(context.Background(), objs)
			if err != nil {
				b.Fatal(err)
			}
			checkResults(b, rs)
		}
	})
	for _, tc := range []struct {
		name      string
		threshold int
	}{{"warm", 0}, {"warm-get", -1}} {
		b.Run(tc.name, func(b *testing.B) {
			e, _ := engine(b, cluster.Config(), ClusterOptions{Concurrency: benchConcurrency, ListThreshold: tc.threshold})
			if _, err := e.Predict(context.Background(), objs[:1]); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				rs, err := e.Predict(context.Background(), objs)
				if err != nil {
					b.Fatal(err)
				}
				checkResults(b, rs)
			}
		})
	}
}

// BenchmarkFloorDryRunPatches is the least any engine must do: the 200
// dry-run PATCHes alone, at the same concurrency, with a client that has
// already mapped the kind and opened its connection.
func BenchmarkFloorDryRunPatches(b *testing.B) {
	testcluster.Require(b, cluster)
	floor := newFloor(b, benchRender(b))
	for b.Loop() {
		floor()
	}
}

// BenchmarkPredictOverFloor alternates a floor run and a cold Predict in
// every iteration, so that load from elsewhere on the machine hits both
// alike, and reports their ratio (target: at most 1.3).
func BenchmarkPredictOverFloor(b *testing.B) {
	testcluster.Require(b, cluster)
	objs := benchRender(b)
	floor := newFloor(b, objs)
	var floorTime, predictTime time.Duration
	for b.Loop() {
		start := time.Now()
		floor()
		floorTime += time.Since(start)

		start = time.Now()
		e, _ := engine(b, cluster.Config(), ClusterOptions{Concurrency: benchConcurrency})
		rs, err := e.Predict(context.Background(), objs)
		predictTime += time.Since(start)
		if err != nil {
			b.Fatal(err)
		}
		checkResults(b, rs)
	}
	b.ReportMetric(float64(floorTime.Milliseconds())/float64(b.N), "floor-ms/op")
	b.ReportMetric(float64(predictTime.Milliseconds())/float64(b.N), "predict-ms/op")
	b.ReportMetric(float64(predictTime)/float64(floorTime), "predict/floor")
}

// newFloor returns a function that sends the dry-run PATCHes of objs, and
// nothing else, benchConcurrency at a time.
func newFloor(b *testing.B, objs []model.Object) func() {
	kc, err := kube.New(cluster.Config(), "default", benchConcurrency)
	if err != nil {
		b.Fatal(err)
	}
	ri, err := kc.Resource(objs[0].Object.GroupVersionKind(), objs[0].Object.GetNamespace())
	if err != nil {
		b.Fatal(err)
	}
	bodies := make([]*unstructured.Unstructured, len(objs))
	for i, o := range objs {
		bodies[i] = o.Object.DeepCopy()
	}
	opts := metav1.ApplyOptions{FieldManager: "deployer", Force: true, DryRun: []string{metav1.DryRunAll}}
	if _, err := ri.Apply(context.Background(), bodies[0].GetName(), bodies[0], opts); err != nil {
		b.Fatal(err)
	}
	return func() {
		sem := make(chan struct{}, benchConcurrency)
		var wg sync.WaitGroup
		for _, body := range bodies {
			wg.Add(1)
			sem <- struct{}{}
			go func() {
				defer func() { <-sem; wg.Done() }()
				if _, err := ri.Apply(context.Background(), body.GetName(), body, opts); err != nil {
					b.Error(err)
				}
			}()
		}
		wg.Wait()
	}
}

// BenchmarkPredictMethods is the warm engine on the same 200 ConfigMaps
// under each way a deployer applies: a client-side apply and a replace
// read live before their request (its patch or its resourceVersion needs
// it), where a server-side apply sends both at once.
func BenchmarkPredictMethods(b *testing.B) {
	testcluster.Require(b, cluster)
	objs := benchRender(b)
	for _, tc := range []struct {
		name  string
		apply delivery.ApplyMethod
	}{
		{"server-side-forced", delivery.ApplyMethod{Method: delivery.ApplyServerSide, Force: true}},
		{"server-side-not-forced", delivery.ApplyMethod{Method: delivery.ApplyServerSide}},
		{"client-side-last-applied", delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalLastApplied}},
		{"client-side-previous-manifest", delivery.ApplyMethod{Method: delivery.ApplyClientSide, Original: delivery.OriginalPreviousManifest}},
		{"replace", delivery.ApplyMethod{Method: delivery.ApplyReplace}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			e, _ := engine(b, cluster.Config(), ClusterOptions{Concurrency: benchConcurrency, Apply: tc.apply})
			if _, err := e.Predict(context.Background(), objs[:1]); err != nil {
				b.Fatal(err)
			}
			for b.Loop() {
				rs, err := e.Predict(context.Background(), objs)
				if err != nil {
					b.Fatal(err)
				}
				for _, r := range rs {
					// Not forced, another manager's data conflicts: the
					// refusal is the answer.
					if r.Err != nil && (tc.apply.Force || tc.apply.Method != delivery.ApplyServerSide) {
						b.Fatalf("%s: %v", r.Object.ID, r.Err)
					}
				}
			}
		})
	}
}
