package history

import (
	"fmt"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// benchObjects is the size of every recorded deploy of the benchmarks:
// each of 1,000 objects drifted before every one of Keep deploys, and one
// in ten is also fought over by an autoscaler; a history rarely gets worse.
const benchObjects = 1000

func benchID(i int) model.ID {
	return model.ID{Group: "apps", Kind: "Deployment", Namespace: fmt.Sprintf("ns-%d", i%10), Name: fmt.Sprintf("web-%d", i)}
}

// fullHistory records Keep deploys of benchObjects objects.
func fullHistory(b *testing.B) *snapshot.Store {
	b.Helper()
	s := newStore(b)
	hpa := &model.Controller{Name: "HorizontalPodAutoscaler", Manager: "kube-controller-manager"}
	for d := 0; d < Keep; d++ {
		dep := &Deploy{Environment: "staging", RecordedAt: t0.Add(time.Duration(d) * time.Hour), FieldManager: "deployer",
			SourceCommit: fmt.Sprintf("%040d", d)}
		for i := 0; i < benchObjects; i++ {
			m := kcm
			m.Time = t0.Add(time.Duration(d)*time.Hour - time.Minute).Format(time.RFC3339)
			fs := []Finding{{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{m}}}
			if i%10 == 0 {
				c := *hpa
				c.Object = &model.ID{Group: "autoscaling", Kind: "HorizontalPodAutoscaler", Namespace: benchID(i).Namespace, Name: benchID(i).Name}
				fs = append(fs, Finding{Category: model.Fight, Path: ".spec.replicas", Controller: &c})
			}
			dep.Objects = append(dep.Objects, Object{ID: benchID(i), Findings: fs})
		}
		record(b, s, dep, Keep)
	}
	return s
}

// BenchmarkHistory records a full history once, then measures:
//
//   - check: what check adds for the history (check's readState does
//     the same): read the last Window deploys from git, decode and index
//     them, and ask for the history of a drift finding on each of the
//     1,000 objects;
//   - whole: reading all Keep deploys, as `ownership-check history` does.
func BenchmarkHistory(b *testing.B) {
	s := fullHistory(b)
	b.Run("check", func(b *testing.B) { benchCheck(b, s) })
	b.Run("whole", func(b *testing.B) { benchWhole(b, s) })
}

func benchCheck(b *testing.B, s *snapshot.Store) {
	findings := make([]model.Finding, benchObjects)
	ids := make([]model.ID, benchObjects)
	for i := range findings {
		ids[i] = benchID(i)
		findings[i] = model.Finding{Category: model.Drift, Path: ".spec.replicas", Managers: []model.Manager{kcm}}
	}
	// The check has the tip already: it read the snapshot there.
	tip, err := s.Tip(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	start := processCPU()
	for range b.N {
		ix := read(b, s, "staging", tip, Window).Index()
		for i, f := range findings {
			if h := ix.Persistent(ids[i], f, "deployer"); h == nil || h.Seen != Window {
				b.Fatalf("%s: %+v", ids[i], h)
			}
		}
	}
	b.ReportMetric(float64((processCPU()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

func benchWhole(b *testing.B, s *snapshot.Store) {
	start := processCPU()
	for range b.N {
		if l := read(b, s, "staging", "", 0); len(l.Deploys) != Keep {
			b.Fatalf("%d deploys", len(l.Deploys))
		}
	}
	b.ReportMetric(float64((processCPU()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
