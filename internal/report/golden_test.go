package report_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/ownership-check/ownership-check/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	reporttest.Golden(t, filepath.Join("testdata", name), got, *update)
}
