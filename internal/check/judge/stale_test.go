package judge

import (
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/snapshot"
)

// TestStaleSnapshot: a snapshot no deploy has refreshed for longer than
// the config allows is called stale in the verdict line; a fresh one is
// not, and staleAfterDays: -1 turns it off.
func TestStaleSnapshot(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	snap := &snapshot.Snapshot{Commit: "c", Index: snapshot.Index{DeployedAt: now.Add(-45 * 24 * time.Hour)}}
	for _, tc := range []struct {
		days int
		want int
	}{{0, 45}, {60, 0}, {-1, 0}} {
		info := snapshotInfo(snap, config.SnapshotOptions{StaleAfterDays: tc.days}.StaleAfter(), now)
		if info.StaleDays != tc.want {
			t.Errorf("staleAfterDays %d: stale %d days, want %d", tc.days, info.StaleDays, tc.want)
		}
	}
	r := &report.Report{Environment: "staging", Snapshot: report.SnapshotInfo{Found: true, StaleDays: 45}, Summary: report.Summary{Objects: 2}}
	if v := r.Status().Verdict(); !strings.Contains(v, "the last-deploy snapshot is 45 days old: stale") {
		t.Errorf("verdict %q does not call the snapshot stale", v)
	}
}
