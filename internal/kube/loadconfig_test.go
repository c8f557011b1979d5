package kube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// No kubeconfig at all is said in the tool's words: client-go's hint
// names KUBERNETES_MASTER, which nothing reads.
func TestLoadConfigNoneFound(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("KUBECONFIG", "")
	t.Setenv("KUBERNETES_SERVICE_HOST", "")
	t.Setenv("KUBERNETES_SERVICE_PORT", "")
	_, _, err := LoadConfig(LoadOptions{})
	if err == nil || strings.Contains(err.Error(), "KUBERNETES_MASTER") ||
		!strings.Contains(err.Error(), "--kubeconfig") || !strings.Contains(err.Error(), "--context") || !strings.Contains(err.Error(), "$KUBECONFIG") {
		t.Errorf("no kubeconfig: %v", err)
	}
	// An empty file at $KUBECONFIG is no configuration either.
	empty := filepath.Join(home, "empty")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", empty)
	if _, _, err := LoadConfig(LoadOptions{}); err == nil || strings.Contains(err.Error(), "KUBERNETES_MASTER") {
		t.Errorf("empty kubeconfig: %v", err)
	}
}
