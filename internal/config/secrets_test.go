package config

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"
)

// TestSkipSecrets: with secrets.skip the Secrets are left out and named
// (ten, then how many more), the rest kept in order; without it, or with
// no Secret, nothing is left out and nothing said.
func TestSkipSecrets(t *testing.T) {
	var objs []model.Object
	for i := range 12 {
		objs = append(objs, model.Object{ID: model.ID{Kind: "Secret", Namespace: "a", Name: fmt.Sprintf("s%02d", i)}})
	}
	objs = append(objs, model.Object{ID: model.ID{Kind: "ConfigMap", Namespace: "a", Name: "c"}})
	if kept, skipped, note := (&Config{}).SkipSecrets(objs); len(kept) != 13 || skipped != nil || note != "" {
		t.Errorf("without secrets.skip: %d kept, %v, %q", len(kept), skipped, note)
	}
	cfg := &Config{Secrets: SecretsOptions{Skip: true}}
	kept, skipped, note := cfg.SkipSecrets(objs)
	if len(kept) != 1 || kept[0].ID.Name != "c" || len(skipped) != 12 {
		t.Fatalf("kept %v, skipped %v", kept, skipped)
	}
	if !strings.HasPrefix(note, "not checked: 12 Secrets (") || !strings.Contains(note, "s09, 2 more)") || strings.Contains(note, "s10") {
		t.Errorf("note %q", note)
	}
	if kept, skipped, note := cfg.SkipSecrets(objs[12:]); len(kept) != 1 || skipped != nil || note != "" {
		t.Errorf("no Secret: %d kept, %v, %q", len(kept), skipped, note)
	}
}
