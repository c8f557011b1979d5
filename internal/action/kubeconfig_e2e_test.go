package action

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/command"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// fakeAWS stands in for `aws eks get-token`: it notes its arguments and
// prints an ExecCredential with the token, as the real one does.
const fakeAWS = `#!/bin/sh
echo "$*" >> "$GET_TOKEN_CALLS"
cat <<JSON
{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"%s"}}
JSON
`

// TestActionKubeconfigFromEarlierStep: on EKS, `aws eks update-kubeconfig`
// in an earlier step writes a kubeconfig whose user runs an exec plugin and
// exports KUBECONFIG. With no kubeconfig input the action uses it, plugin
// and all, against the real API server: the cluster engine.
func TestActionKubeconfigFromEarlierStep(t *testing.T) {
	testcluster.Require(t, cluster)
	e := newActionEnv(t, "push.json", nil, nil)
	checkRunner = command.Check
	const ns = "action-exec-plugin"
	actionWorkspaceIn(t, ns)
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	deployAsPipeline(t, client, "deploy/staging")

	// What the login step leaves on the runner: the plugin on PATH, the
	// kubeconfig under RUNNER_TEMP, KUBECONFIG exported to later steps.
	cfg := cluster.Config()
	binDir := t.TempDir()
	calls := filepath.Join(t.TempDir(), "calls")
	if err := os.WriteFile(filepath.Join(binDir, "aws"), []byte(fmt.Sprintf(fakeAWS, cfg.BearerToken)), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	kc := clientcmdapi.NewConfig()
	kc.Clusters["staging"] = &clientcmdapi.Cluster{Server: cfg.Host, CertificateAuthorityData: cfg.CAData}
	kc.AuthInfos["staging"] = &clientcmdapi.AuthInfo{Exec: &clientcmdapi.ExecConfig{
		APIVersion: "client.authentication.k8s.io/v1beta1",
		Command:    "aws",
		Args:       []string{"--region", "eu-west-1", "eks", "get-token", "--cluster-name", "staging", "--output", "json"},
		Env:        []clientcmdapi.ExecEnvVar{{Name: "GET_TOKEN_CALLS", Value: calls}},
		// As aws eks update-kubeconfig writes it.
		InteractiveMode: clientcmdapi.IfAvailableExecInteractiveMode,
	}}
	kc.Contexts["staging"] = &clientcmdapi.Context{Cluster: "staging", AuthInfo: "staging"}
	kc.CurrentContext = "staging"
	kubeconfig := filepath.Join(e.temp, "kubeconfig-eks")
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("INPUT_KUBECONFIG", "")
	t.Setenv("INPUT_ENVIRONMENT", "staging")
	t.Setenv("INPUT_PATHS", "deploy/staging")

	code, log := e.run()
	if code != ExitOK {
		t.Fatalf("exit %d, want 0: the deploy's own state, no findings", code)
	}
	o := e.outputs()
	if o["engine"] != "cluster" || o["failed"] != "false" {
		t.Errorf("outputs %v: want the cluster engine", o)
	}
	var rep report.Report
	if b, err := os.ReadFile(o["report-file"]); err != nil || json.Unmarshal(b, &rep) != nil || rep.Engine != "cluster" || len(rep.Objects) != 2 {
		t.Errorf("report file %q: %v, engine %q, %d objects", o["report-file"], err, rep.Engine, len(rep.Objects))
	}
	b, err := os.ReadFile(calls)
	if err != nil || !strings.Contains(string(b), "eks get-token --cluster-name staging") {
		t.Errorf("the exec plugin did not run: %v %q", err, b)
	}
	if strings.Contains(log, "offline") || strings.Contains(log, cfg.BearerToken) {
		t.Error("the log says offline, or shows the plugin's token")
	}
}
