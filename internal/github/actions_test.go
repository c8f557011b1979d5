package github

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/sethvargo/go-githubactions"

	"github.com/ownership-check/ownership-check/internal/report"
)

func action(env map[string]string) (*githubactions.Action, *bytes.Buffer) {
	var out bytes.Buffer
	return githubactions.New(githubactions.WithWriter(&out), githubactions.WithGetenv(func(k string) string { return env[k] })), &out
}

func TestReadInputs(t *testing.T) {
	a, _ := action(map[string]string{"INPUT_FIELD-MANAGER": "deployer", "INPUT_PATHS": "a\n  # comment\n\n b \n"})
	in, err := ReadInputs(a)
	if err != nil {
		t.Fatal(err)
	}
	want := Inputs{Mode: "check", Paths: []string{"a", "b"}, FieldManager: "deployer", Environment: "default",
		SnapshotBranch: "ownership-snapshots", ConfigRef: "base", Offline: "auto", Comment: "update", ChartCache: true}
	if fmt.Sprintf("%+v", in) != fmt.Sprintf("%+v", want) {
		t.Errorf("inputs %+v, want %+v", in, want)
	}
	a, _ = action(map[string]string{"INPUT_FIELD-MANAGER": "deployer", "INPUT_RECORD": "true"})
	if in, err := ReadInputs(a); err != nil || !in.Record {
		t.Errorf("record: true read as %+v, %v", in, err)
	}
	a, _ = action(map[string]string{"INPUT_MODE": "deploy", "INPUT_OFFLINE": "yes", "INPUT_RECORD": "yes"})
	_, err = ReadInputs(a)
	for _, want := range []string{"input mode", "input offline", "input record"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v does not mention %q", err, want)
		}
	}
	// A check or snapshot asks it of the targets that have no manager of
	// their own (a discovered one has its controller's); migrate always.
	a, _ = action(map[string]string{})
	if _, err := ReadInputs(a); err != nil {
		t.Errorf("check without field-manager: %v", err)
	}
	a, _ = action(map[string]string{"INPUT_MODE": "migrate"})
	if _, err := ReadInputs(a); err == nil || !strings.Contains(err.Error(), "input field-manager: required") {
		t.Errorf("migrate without field-manager: %v", err)
	}
}

func TestWriteKubeconfigMasks(t *testing.T) {
	key := "-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49\n-----END EC PRIVATE KEY-----\n"
	keyData := base64.StdEncoding.EncodeToString([]byte(key))
	cfg := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://k:6443"}}]
users:
- name: token
  user: {token: tok-123456}
- name: cert
  user: {client-key-data: ` + keyData + `, password: pa55word}
- name: exec
  user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: x, env: [{name: SECRET, value: s3cr3t-value}]}}
contexts: [{name: c, context: {cluster: c, user: token}}]
current-context: c
`
	a, out := action(nil)
	path, err := WriteKubeconfig(a, cfg, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("kubeconfig file mode %v, %v", st.Mode(), err)
	}
	for _, secret := range []string{"tok-123456", "pa55word", keyData, "MHcCAQEEIIrYSSNQFaA2Hwf1duRSxKtLYX5CB04fSeQ6tF1aY/PuoAoGCCqGSM49", "s3cr3t-value"} {
		if !strings.Contains(out.String(), "::add-mask::"+secret+"\n") {
			t.Errorf("%q is not masked", secret)
		}
	}

	_, err = WriteKubeconfig(a, path, t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not its path") {
		t.Errorf("a path given as content: %v", err)
	}
	_, err = WriteKubeconfig(a, "token: [unclosed", t.TempDir())
	if err == nil || strings.Contains(err.Error(), "unclosed") {
		t.Errorf("bad content: %v (must not echo the content)", err)
	}
}

// TestAnnotateLimit: GitHub shows 10 annotations per level and step; the
// tenth says how many more there are.
func TestAnnotateLimit(t *testing.T) {
	r := &report.Report{Environment: "staging"}
	for i := 0; i < 12; i++ {
		r.Objects = append(r.Objects, report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: fmt.Sprintf("cm-%d", i),
			Source: fmt.Sprintf("cm-%d.yaml", i), Findings: []model.Finding{{Category: model.Drift, Path: ".data.x", Message: "changed"}}})
	}
	r.Objects = append(r.Objects, report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "bad",
		Findings: []model.Finding{{Category: model.DryRunError, Message: "refused"}}})
	r.Objects = append(r.Objects, report.Object{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "noted",
		Findings: []model.Finding{{Category: model.Release, Path: ".data.y"}}})
	a, out := action(nil)
	Annotate(a, r)
	log := out.String()
	if n := strings.Count(log, "::warning "); n != 10 {
		t.Errorf("%d warnings, want 10", n)
	}
	if n := strings.Count(log, "::error "); n != 1 || !strings.Contains(log, "::error title=ConfigMap ns/bad%3A dry-run-error (staging)::dry-run-error: refused") {
		t.Errorf("error annotation missing:\n%s", log)
	}
	if !strings.Contains(log, "(and 2 more objects with warnings: see the job summary)") {
		t.Error("the last warning does not say how many are left out")
	}
	if strings.Contains(log, "noted") {
		t.Error("notes are not annotated")
	}
}

func TestOutputsOutsideRunner(t *testing.T) {
	a, _ := action(nil)
	SetOutputs(a, &report.Report{}, false, "") // must not panic without GITHUB_OUTPUT
	AddSummary(a, "x")                         // nor without GITHUB_STEP_SUMMARY
}

func TestNewClient(t *testing.T) {
	for in, want := range map[string]string{
		"https://api.github.com":          "https://api.github.com/",
		"https://ghe.example.com/api/v3":  "https://ghe.example.com/api/v3/",
		"https://ghe.example.com/api/v3/": "https://ghe.example.com/api/v3/",
	} {
		c, err := NewClient(in, "t")
		if err != nil || c.BaseURL.String() != want {
			t.Errorf("%s: %v %v, want %s", in, c.BaseURL, err, want)
		}
	}
	if _, err := NewClient("not a url", ""); err == nil {
		t.Error("no error for a relative URL")
	}
}
