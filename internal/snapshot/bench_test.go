package snapshot

import (
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// benchSnapshot is an environment of n Deployments.
func benchSnapshot(b *testing.B, n int) *Snapshot {
	h := hasher(b)
	snap := newSnapshot("bench", h)
	for i := 0; i < n; i++ {
		o := fixtures()[0]
		o.SetName(fmt.Sprintf("web-%04d", i))
		ro := model.Object{ID: model.IDOf(o), Object: o}
		snap.Objects[ro.ID] = NewEntry(ro, live(o), h)
	}
	return snap
}

func BenchmarkWrite1000(b *testing.B) {
	s := openStore(b, newWorkRepo(b))
	snap := benchSnapshot(b, 1000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Write(ctx, snap, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRead1000(b *testing.B) {
	s := openStore(b, newWorkRepo(b))
	mustWrite(b, s, benchSnapshot(b, 1000))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Read(ctx, "bench", ""); err != nil {
			b.Fatal(err)
		}
	}
}
