package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// renderEnv runs from the repository root, where the fixtures' paths
// resolve, with no kubeconfig unless a test writes one.
func renderEnv(t *testing.T) {
	t.Helper()
	t.Chdir("../..")
	t.Setenv("KUBECONFIG", filepath.Join(t.TempDir(), "absent"))
	t.Setenv("HOME", t.TempDir())
}

func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := Run("test", args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestRenderCommandOutput(t *testing.T) {
	renderEnv(t)
	code, out, errOut := runCLI("render", "--namespace", "apps", "--config", "testdata/render/ownership-check.yaml",
		"testdata/render/single.yaml", "testdata/render/plain", "testdata/render/kustomize/overlays/staging", "testdata/render/kustomize/overlays/prod")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The same golden file as the render package's: the command prints
	// exactly render.Encode's output.
	want, err := os.ReadFile("testdata/render/golden/render/multi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if out != string(want) {
		t.Errorf("output differs from testdata/render/golden/render/multi.yaml (refresh with: go test ./internal/render -run TestRenderGolden -update):\n%s", out)
	}
}

func TestRenderCommandShowSecrets(t *testing.T) {
	renderEnv(t)
	_, hidden, _ := runCLI("render", "testdata/render/kustomize/base")
	code, shown, errOut := runCLI("render", "--show-secrets", "testdata/render/kustomize/base")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	const value = "bm90LWEtcmVhbC1wYXNzd29yZA==" // base64 of the fixture's fake password
	if strings.Contains(hidden, value) || !strings.Contains(hidden, "password: (hidden)") {
		t.Errorf("Secret values must be hidden by default:\n%s", hidden)
	}
	if !strings.Contains(shown, "password: "+value) {
		t.Errorf("--show-secrets must print them:\n%s", shown)
	}
}

// TestRenderCommandRefused: every refused input exits 2 with a message
// naming the file at fault.
func TestRenderCommandRefused(t *testing.T) {
	renderEnv(t)
	cases := map[string]struct {
		paths []string
		file  string
	}{
		"../ escape":          {[]string{"testdata/render/refused/escape-root/app"}, "testdata/render/refused/escape-root/app/kustomization.yaml"},
		"escape repository":   {[]string{"testdata/render/refused/escape-repo"}, "testdata/render/refused/escape-repo/kustomization.yaml"},
		"exec plugin":         {[]string{"testdata/render/refused/exec-plugin"}, "testdata/render/refused/exec-plugin/kustomization.yaml"},
		"KRM function":        {[]string{"testdata/render/refused/krm-function"}, "testdata/render/refused/krm-function/kustomization.yaml"},
		"helm chart":          {[]string{"testdata/render/refused/helm"}, "testdata/render/refused/helm/kustomization.yaml"},
		"remote base":         {[]string{"testdata/render/refused/remote-base"}, "testdata/render/refused/remote-base/kustomization.yaml"},
		"remote URL resource": {[]string{"testdata/render/refused/remote-file"}, "testdata/render/refused/remote-file/kustomization.yaml"},
		"malformed YAML":      {[]string{"testdata/render/refused/malformed-plain"}, "testdata/render/refused/malformed-plain/manifests.yaml:12"},
		"malformed resource":  {[]string{"testdata/render/refused/malformed-kustomize"}, "testdata/render/refused/malformed-kustomize/deployment.yaml:7"},
		"duplicate objects":   {[]string{"testdata/render/refused/duplicate"}, "testdata/render/refused/duplicate/b.yaml:6"},
		"missing name":        {[]string{"testdata/render/refused/missing-name"}, "testdata/render/refused/missing-name/configmap.yaml:1"},
		"generateName":        {[]string{"testdata/render/refused/generate-name"}, "testdata/render/refused/generate-name/job.yaml:1"},
		"billion laughs":      {[]string{"testdata/render/refused/bomb"}, "testdata/render/refused/bomb/laughs.yaml:1"},
		"duplicate keys":      {[]string{"testdata/render/refused/dup-keys"}, "testdata/render/refused/dup-keys/configmap.yaml:5"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runCLI(append([]string{"render"}, c.paths...)...)
			if code != ExitError {
				t.Errorf("exit %d, want %d", code, ExitError)
			}
			if out != "" {
				t.Errorf("printed objects on failure:\n%s", out)
			}
			if !strings.Contains(errOut, c.file) {
				t.Errorf("message does not name %s:\n%s", c.file, errOut)
			}
		})
	}
}

func TestRenderCommandUsageErrors(t *testing.T) {
	renderEnv(t)
	for name, args := range map[string][]string{
		"no path":            {"render"},
		"missing config":     {"render", "--config", "testdata/render/nope.yaml", "testdata/render/single.yaml"},
		"missing kubeconfig": {"render", "--kubeconfig", "testdata/render/nope", "testdata/render/single.yaml"},
	} {
		t.Run(name, func(t *testing.T) {
			if code, _, errOut := runCLI(args...); code != ExitError || errOut == "" {
				t.Errorf("exit %d, message %q; want exit 2 with a message", code, errOut)
			}
		})
	}
}

// TestRenderCommandKubeconfigNamespace: the context's namespace is the
// default one, and an unreachable cluster only costs a warning.
func TestRenderCommandKubeconfigNamespace(t *testing.T) {
	renderEnv(t)
	kubeconfig := filepath.Join(t.TempDir(), "config")
	if err := os.WriteFile(kubeconfig, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u, namespace: team}}]
current-context: x
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	code, out, errOut := runCLI("render", "testdata/render/plain/list.yaml")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "name: api-limits\n  namespace: team\n") {
		t.Errorf("want the context's namespace:\n%s", out)
	}
	if !strings.Contains(errOut, "discovery unavailable") {
		t.Errorf("want a warning about discovery, got %q", errOut)
	}
	// --namespace wins over the context.
	_, out, _ = runCLI("render", "--namespace", "other", "testdata/render/plain/list.yaml")
	if !strings.Contains(out, "namespace: other\n") {
		t.Errorf("--namespace should win:\n%s", out)
	}
}

// render's help lists only what render reads: no field manager, snapshot
// or request flags it would ignore.
func TestRenderHelpListsOnlyItsFlags(t *testing.T) {
	code, out, _ := runCLI("render", "--help")
	if code != ExitOK {
		t.Fatalf("render --help: exit %d", code)
	}
	for _, want := range []string{"--kubeconfig", "--context", "--namespace", "--config", "--target", "--show-secrets"} {
		if !strings.Contains(out, want) {
			t.Errorf("render --help lacks %s:\n%s", want, out)
		}
	}
	for _, ignored := range []string{"--field-manager", "--environment", "--snapshot-repo", "--snapshot-branch", "--concurrency", "--max-in-flight"} {
		if strings.Contains(out, ignored) {
			t.Errorf("render --help lists %s, which render ignores:\n%s", ignored, out)
		}
	}
}
