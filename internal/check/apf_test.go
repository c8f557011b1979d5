package check_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	flowcontrolv1 "k8s.io/api/flowcontrol/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/model"
)

const (
	apfNamespace = "apf-throttled"
	apfChecker   = "apf-checker"
	apfLevel     = "ownership-check-throttled"
)

// TestCheckUnderPriorityAndFairness: the API server gives the checker's
// identity one seat and turns the rest away (a FlowSchema and a
// PriorityLevelConfiguration that rejects, as a busy shared cluster's API
// Priority and Fairness does). check slows down to what the server takes,
// the 429s it meets are retried after their Retry-After while its window
// shrinks, and it finishes with every object checked, nothing failed.
func TestCheckUnderPriorityAndFairness(t *testing.T) {
	s := newScenario(t, "first-check")
	ctx := ctxTimeout(t)
	admin := kubernetes.NewForConfigOrDie(cluster.Config())

	dir := t.TempDir()
	var b strings.Builder
	fmt.Fprintf(&b, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n", apfNamespace)
	for i := range 80 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings-%02d\n  namespace: %s\ndata:\n  mode: fast\n", i, apfNamespace)
	}
	if err := os.WriteFile(filepath.Join(dir, "objects.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s.deployPath(dir)
	s.snapshotPath(dir)

	checker, err := cluster.ServiceAccountConfig(ctx, apfNamespace, apfChecker)
	if err != nil {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: apfChecker},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: apfChecker, Namespace: apfNamespace}}}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	one := int32(1)
	zero := int32(0)
	level := &flowcontrolv1.PriorityLevelConfiguration{ObjectMeta: metav1.ObjectMeta{Name: apfLevel},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: &one, LendablePercent: &zero,
				LimitResponse: flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject}}}}
	if _, err := admin.FlowcontrolV1().PriorityLevelConfigurations().Create(ctx, level, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	flow := &flowcontrolv1.FlowSchema{ObjectMeta: metav1.ObjectMeta{Name: apfLevel},
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: apfLevel},
			MatchingPrecedence:         100,
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindServiceAccount,
					ServiceAccount: &flowcontrolv1.ServiceAccountSubject{Namespace: apfNamespace, Name: apfChecker}}},
				ResourceRules:    []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}, ClusterScope: true, Namespaces: []string{"*"}}},
				NonResourceRules: []flowcontrolv1.NonResourcePolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}},
			}},
		}}
	if _, err := admin.FlowcontrolV1().FlowSchemas().Create(ctx, flow, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		bg := context.Background()
		_ = admin.FlowcontrolV1().FlowSchemas().Delete(bg, apfLevel, metav1.DeleteOptions{})
		_ = admin.FlowcontrolV1().PriorityLevelConfigurations().Delete(bg, apfLevel, metav1.DeleteOptions{})
		_ = admin.RbacV1().ClusterRoleBindings().Delete(bg, apfChecker, metav1.DeleteOptions{})
	})
	// The server applies new flow schemas within a second or so.
	time.Sleep(2 * time.Second)
	before := rejectedBy(t, admin, apfLevel)

	kubeconfig := serviceAccountKubeconfig(t, checker)
	start := time.Now()
	code, stdout, stderr := s.run("check", dir, "--field-manager", deployer, "--kubeconfig", kubeconfig,
		"--snapshot-repo", s.repo, "--output", "json", "--concurrency", "16", "--max-in-flight", "64")
	took := time.Since(start)
	if code != 0 {
		t.Fatalf("check under APF: exit %d, want 0; stderr: %s", code, stderr)
	}
	rep := decodeReport(t, code, stdout, stderr)
	if rep.Summary.Objects != 81 || rep.Summary.Count(model.DryRunError) != 0 {
		t.Errorf("checked %d objects with %d dry-run errors, want 81 and none", rep.Summary.Objects, rep.Summary.Count(model.DryRunError))
	}
	rejected := rejectedBy(t, admin, apfLevel) - before
	t.Logf("check of 81 objects under a one-seat priority level: %s, %d requests turned away (429) and retried", took.Round(time.Millisecond), rejected)
	if rejected == 0 {
		t.Error("the priority level turned nothing away: the test does not throttle")
	}
}

var rejectedLine = regexp.MustCompile(`(?m)^apiserver_flowcontrol_rejected_requests_total\{[^}]*priority_level="([^"]+)"[^}]*\} (\S+)$`)

// rejectedBy reads from the API server's metrics how many requests the
// priority level turned away so far.
func rejectedBy(t *testing.T, admin *kubernetes.Clientset, level string) int {
	t.Helper()
	body, err := admin.RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range rejectedLine.FindAllStringSubmatch(string(body), -1) {
		if m[1] == level {
			v, _ := strconv.ParseFloat(m[2], 64)
			n += int(v)
		}
	}
	return n
}
