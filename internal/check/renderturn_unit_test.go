package check

import (
	"context"
	"runtime"
	"testing"
)

// A run's targets render one per core; a target whose run ends while it
// waits for its turn stops waiting.
func TestRenderTurns(t *testing.T) {
	s := NewShared(context.Background())
	target := Target{Shared: s}
	var ends []func()
	for range runtime.GOMAXPROCS(0) {
		end, err := target.renderTurn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := target.renderTurn(ctx); err == nil {
		t.Fatal("a turn beyond one per core was given while every core's was taken")
	}
	ends[0]()
	end, err := target.renderTurn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	end()
	if end, err := (Target{}).renderTurn(ctx); err != nil {
		t.Errorf("a target of no run waited for a turn: %v", err)
	} else {
		end()
	}
}
