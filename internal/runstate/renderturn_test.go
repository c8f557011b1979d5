package runstate

import (
	"context"
	"runtime"
	"testing"
)

// A run's targets render one per core; a target whose run ends while it
// waits for its turn stops waiting.
func TestRenderTurns(t *testing.T) {
	s := New(context.Background(), "")
	defer s.Close()
	var ends []func()
	for range runtime.GOMAXPROCS(0) {
		end, err := s.RenderTurn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.RenderTurn(ctx); err == nil {
		t.Fatal("a turn beyond one per core was given while every core's was taken")
	}
	ends[0]()
	end, err := s.RenderTurn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	end()
}
