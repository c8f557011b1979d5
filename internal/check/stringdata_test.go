package check_test

import (
	"encoding/base64"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/ownership-check/ownership-check/internal/model"
)

// A Secret the deploy writes through stringData (as kube-prometheus does),
// whose value someone then edits by hand in data: the server records the
// deploy as the owner of .stringData.password and the editor as the owner
// of .data.password, two paths that never conflict, and the next deploy
// silently puts its value back. That is drift on .data.password. A key the
// pull request stops sending stays in data with no owner (the server never
// removes it): retained, not reset. No value is shown.
func TestScenarioSecretStringData(t *testing.T) {
	s := newScenario(t, "secret-stringdata")
	s.deploy("deployed", "")
	s.snapshot("deployed", "")

	// Nothing changed: nothing to say.
	if code, rep, stderr := s.check("deployed"); code != 0 || len(findings(rep, "Secret", "creds", model.Drift)) != 0 {
		t.Fatalf("untouched: exit %d, stderr %s\n%s", code, stderr, dump(rep))
	}

	ctx := ctxTimeout(t)
	secrets, err := s.client.Resource(schema.GroupVersionKind{Version: "v1", Kind: "Secret"}, "sd-secret")
	if err != nil {
		t.Fatal(err)
	}
	edited := base64.StdEncoding.EncodeToString([]byte("canary-sd-edited-never-print-me"))
	if _, err := secrets.Patch(ctx, "creds", types.MergePatchType, []byte(`{"data":{"password":"`+edited+`"}}`),
		metav1.PatchOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatal(err)
	}

	for _, manifests := range []string{"deployed", "pr"} {
		code, rep, stderr := s.check(manifests)
		if code != 1 {
			t.Fatalf("%s: exit %d, want 1 (the deploy reverts a hand edit); stderr: %s\n%s", manifests, code, stderr, dump(rep))
		}
		f := onlyFinding(t, rep, "Secret", "creds", model.Drift, ".data.password")
		if f.Row != 13 || !hasManager(f.Managers, "kubectl-edit", "Update", "") || f.LiveValue != model.HiddenValue {
			t.Errorf("%s: drift %+v, want row 13 by kubectl-edit, values hidden", manifests, f)
		}
	}
	_, rep, _ := s.check("pr")
	onlyFinding(t, rep, "Secret", "creds", model.Release, ".data.token")
	kept := onlyFinding(t, rep, "Secret", "creds", model.Retained, ".data.token")
	if !strings.Contains(kept.Message, "never removes") {
		t.Errorf("retained: message %q does not say why the key stays", kept.Message)
	}
	if n := len(findings(rep, "Secret", "creds", model.Reset)); n != 0 {
		t.Errorf("%d reset findings: the server keeps the key\n%s", n, dump(rep))
	}

	// The offline engine, from the snapshot alone, agrees on the key.
	code, offline, stderr := s.check("pr", "--offline")
	if code != 0 {
		t.Fatalf("offline: exit %d, stderr %s\n%s", code, stderr, dump(offline))
	}
	onlyFinding(t, offline, "Secret", "creds", model.Release, ".data.token")
	onlyFinding(t, offline, "Secret", "creds", model.Retained, ".data.token")

	// What the check said is what the server does.
	s.deploy("pr", "")
	live, err := secrets.Get(ctx, "creds", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	data := live.Object["data"].(map[string]any)
	if _, ok := data["token"]; !ok {
		t.Error("the deploy removed data.token; the check said it stays")
	}
	if data["password"] == edited {
		t.Error("the deploy kept the hand edit; the check said it reverts it")
	}

	for _, format := range []string{"json", "markdown", "text"} {
		_, out, _ := s.run("check", s.path("deployed"), "--field-manager", deployer,
			"--kubeconfig", s.kubeconfig, "--snapshot-repo", s.repo, "--output", format)
		for _, leak := range []string{"canary-sd", "Y2FuYXJ5LXNk", edited} {
			if strings.Contains(out, leak) {
				t.Errorf("--output %s shows a Secret value (%s)", format, leak)
			}
		}
	}
}
