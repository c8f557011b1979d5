package targets_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/targets"
)

func TestParseShard(t *testing.T) {
	for in, want := range map[string]targets.Shard{"": {I: 1, N: 1}, "2/4": {I: 2, N: 4}, "1/1": {I: 1, N: 1}} {
		if got, err := targets.ParseShard(in); err != nil || got != want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"0/2", "3/2", "2", "a/b", "1/0"} {
		var ie *check.InputError
		if _, err := targets.ParseShard(in); !errors.As(err, &ie) || ie.Input != "shard" {
			t.Errorf("ParseShard(%q): %v, want a --shard input error", in, err)
		}
	}
}

// TestSelectShards: the shards of a selection partition it, each within
// one of the others' size, and the line says what each left out.
func TestSelectShards(t *testing.T) {
	cfg := &config.Config{}
	for i := range 7 {
		cfg.Targets = append(cfg.Targets, config.Target{Name: fmt.Sprintf("t%d", i), Paths: []string{"p"}})
	}
	seen := map[string]int{}
	for i := 1; i <= 3; i++ {
		sel, err := targets.Select(context.Background(), cfg, targets.SelectOptions{Names: []string{"all"}, Shard: targets.Shard{I: i, N: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if n := len(sel.Targets); n < 2 || n > 3 || sel.Total != 7 || sel.Affected != 7 {
			t.Errorf("shard %d/3: %d of %d (%d affected)", i, n, sel.Total, sel.Affected)
		}
		if want := fmt.Sprintf("%d of 7 targets checked, %d in other shards", len(sel.Targets), 7-len(sel.Targets)); sel.Line() != want {
			t.Errorf("line %q, want %q", sel.Line(), want)
		}
		for _, s := range sel.Targets {
			seen[s.Name]++
		}
	}
	if len(seen) != 7 {
		t.Errorf("shards cover %d targets, want 7: %v", len(seen), seen)
	}
	if _, err := targets.Select(context.Background(), cfg, targets.SelectOptions{Names: []string{"nope"}}); err == nil {
		t.Error("an unknown target was selected")
	}
}
