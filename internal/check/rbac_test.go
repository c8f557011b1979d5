package check_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ownership-check/ownership-check/internal/model"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

// The identity of deploy/rbac (and with-secrets): what the manifests users
// apply bind.
const (
	checkerNamespace = "ownership-check"
	checkerName      = "ownership-check"
)

// TestCheckerRBAC applies deploy/rbac/with-secrets as a user would and checks, as its
// ServiceAccount, that the role reads and dry-runs every kind of the
// checker scenario (updates, creates, CRDs, RBAC that grants more than the
// checker holds), and that every real write is refused.
func TestCheckerRBAC(t *testing.T) {
	s := newScenario(t, "checker")
	ctx := ctxTimeout(t)
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	s.deployPath(filepath.Join(root, "deploy", "rbac", "with-secrets"))
	s.deployPath(s.path("deployed"))
	s.snapshot("deployed", "")

	checker, err := cluster.ServiceAccountConfig(ctx, checkerNamespace, checkerName)
	if err != nil {
		t.Fatal(err)
	}
	// docs/rbac.md: the groups of your own CRDs go in a role of their own.
	admin := kubernetes.NewForConfigOrDie(cluster.Config())
	grantCRDGroups(ctx, t, admin, "example.org", "example.com")
	cs := kubernetes.NewForConfigOrDie(checker)
	waitDryRunOnly(ctx, t, admin, cs)

	kubeconfig := serviceAccountKubeconfig(t, checker)
	code, rep, stderr := s.checkAs(kubeconfig, "pr")
	if code != 0 {
		t.Fatalf("check as the checker: exit %d, want 0; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}
	kinds := map[string]bool{}
	for _, o := range rep.Objects {
		kinds[o.Kind] = true
		if errs := findings(rep, o.Kind, o.Name, model.DryRunError); len(errs) != 0 {
			t.Errorf("%s/%s: %+v", o.Kind, o.Name, errs)
		}
	}
	if len(kinds) != 16 {
		t.Errorf("checked kinds %v: the scenario has 16", kinds)
	}
	for _, name := range []string{"flags", "s9-checker-admin"} {
		found := false
		for _, o := range rep.Objects {
			found = found || (o.Name == name && len(o.Findings) == 1 && o.Findings[0].Category == model.New)
		}
		if !found {
			t.Errorf("%s: want a new object, dry-run created\n%s", name, dump(rep))
		}
	}

	// The role lists the autoscalers, so the fight over web's replicas is
	// seen, and nothing says fights went unchecked.
	if fs := findings(rep, "Deployment", "web", model.Fight); len(fs) != 1 || fs[0].Controller == nil || fs[0].Controller.Object.Name != "web" {
		t.Errorf("web: fights %+v, want one with the HorizontalPodAutoscaler web", fs)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n, "not checked") {
			t.Errorf("note: %s", n)
		}
	}

	// A namespace and a CRD created by the same render (dry-run creates).
	nn := newScenario(t, "new-namespace-crd")
	code, rep, stderr = nn.checkAs(kubeconfig, "pr")
	if code != 0 {
		t.Fatalf("new namespace and CRD as the checker: exit %d; stderr: %s\n%s", code, stderr, dumpOrNone(rep))
	}

	t.Run("real writes are refused", func(t *testing.T) {
		for _, w := range checkerWrites(cs) {
			err := w.do(ctx, false)
			if !apierrors.IsForbidden(err) {
				t.Errorf("%s: %v, want Forbidden", w.name, err)
				continue
			}
			t.Logf("%s: %v", w.name, err)
			if w.dryRunOK {
				if err := w.do(ctx, true); err != nil {
					t.Errorf("%s as a dry-run: %v, want allowed", w.name, err)
				}
			}
		}
	})
}

// checkerWrite is one write the checker must not be able to perform.
type checkerWrite struct {
	name     string
	dryRunOK bool // the same request as a dry-run is allowed
	do       func(ctx context.Context, dryRun bool) error
}

func checkerWrites(cs kubernetes.Interface) []checkerWrite {
	const ns = "s9-checker"
	dry := func(dryRun bool) []string {
		if dryRun {
			return []string{metav1.DryRunAll}
		}
		return nil
	}
	yes := true
	return []checkerWrite{
		{"server-side apply of ConfigMap/settings", true, func(ctx context.Context, d bool) error {
			body := []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"settings","namespace":"` + ns + `"},"data":{"mode":"owned"}}`)
			_, err := cs.CoreV1().ConfigMaps(ns).Patch(ctx, "settings", types.ApplyPatchType, body,
				metav1.PatchOptions{FieldManager: deployer, Force: &yes, DryRun: dry(d)})
			return err
		}},
		{"merge patch of Deployment/web", true, func(ctx context.Context, d bool) error {
			_, err := cs.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":9}}`),
				metav1.PatchOptions{DryRun: dry(d)})
			return err
		}},
		{"patch of Deployment/web through the scale subresource", true, func(ctx context.Context, d bool) error {
			_, err := cs.AppsV1().Deployments(ns).Patch(ctx, "web", types.MergePatchType, []byte(`{"spec":{"replicas":9}}`),
				metav1.PatchOptions{DryRun: dry(d)}, "scale")
			return err
		}},
		{"create of a ConfigMap", true, func(ctx context.Context, d bool) error {
			_, err := cs.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
				ObjectMeta: metav1.ObjectMeta{Name: "intruder"}}, metav1.CreateOptions{DryRun: dry(d)})
			return err
		}},
		{"binding cluster-admin to the checker", true, func(ctx context.Context, d bool) error {
			_, err := cs.RbacV1().ClusterRoleBindings().Create(ctx, &rbacv1.ClusterRoleBinding{
				ObjectMeta: metav1.ObjectMeta{Name: "ownership-check-escalates"},
				RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "cluster-admin"},
				Subjects:   []rbacv1.Subject{{Kind: "ServiceAccount", Name: checkerName, Namespace: checkerNamespace}},
			}, metav1.CreateOptions{DryRun: dry(d)})
			return err
		}},
		{"update of Secret/db", false, func(ctx context.Context, d bool) error {
			sec, err := cs.CoreV1().Secrets(ns).Get(ctx, "db", metav1.GetOptions{})
			if err != nil {
				return err
			}
			sec.StringData = map[string]string{"password": "stolen"}
			_, err = cs.CoreV1().Secrets(ns).Update(ctx, sec, metav1.UpdateOptions{DryRun: dry(d)})
			return err
		}},
		{"delete of Deployment/web", false, func(ctx context.Context, d bool) error {
			return cs.AppsV1().Deployments(ns).Delete(ctx, "web", metav1.DeleteOptions{DryRun: dry(d)})
		}},
		{"delete of the dry-run-only policy", false, func(ctx context.Context, d bool) error {
			return cs.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Delete(ctx,
				"ownership-check-dry-run-only", metav1.DeleteOptions{DryRun: dry(d)})
		}},
		{"patch of the dry-run-only policy", false, func(ctx context.Context, d bool) error {
			_, err := cs.AdmissionregistrationV1().ValidatingAdmissionPolicyBindings().Patch(ctx,
				"ownership-check-dry-run-only", types.MergePatchType, []byte(`{"spec":{"validationActions":["Audit"]}}`),
				metav1.PatchOptions{DryRun: dry(d)})
			return err
		}},
		{"a token for ServiceAccount/web", false, func(ctx context.Context, d bool) error {
			_, err := cs.CoreV1().ServiceAccounts(ns).CreateToken(ctx, "web", &authenticationv1.TokenRequest{},
				metav1.CreateOptions{DryRun: dry(d)})
			return err
		}},
		{"exec into a pod", false, func(ctx context.Context, d bool) error {
			return cs.CoreV1().RESTClient().Post().Namespace(ns).
				Resource("pods").Name("web").SubResource("exec").Param("command", "sh").Do(ctx).Error()
		}},
	}
}

// grantCRDGroups binds the checker to get/list/create/patch in groups, as
// docs/rbac.md tells users to do for the groups of their CRDs.
func grantCRDGroups(ctx context.Context, t *testing.T, admin kubernetes.Interface, groups ...string) {
	t.Helper()
	name := "ownership-check-crds"
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: name},
		Rules: []rbacv1.PolicyRule{{APIGroups: groups, Resources: []string{"*"}, Verbs: []string{"get", "list", "create", "patch"}}}}
	if _, err := admin.RbacV1().ClusterRoles().Create(ctx, role, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: name},
		Subjects: []rbacv1.Subject{{Kind: "ServiceAccount", Name: checkerName, Namespace: checkerNamespace}}}
	if _, err := admin.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
}

// waitDryRunOnly waits until the API server enforces the dry-run-only
// policy (it loads policies asynchronously): a canary write by the checker
// is refused. A canary that got through is removed.
func waitDryRunOnly(ctx context.Context, t *testing.T, admin, checker kubernetes.Interface) {
	t.Helper()
	const ns = checkerNamespace
	var last error
	for i := 0; ctx.Err() == nil; i++ {
		name := fmt.Sprintf("canary-%d", i)
		_, err := checker.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		if err == nil {
			_ = admin.CoreV1().ConfigMaps(ns).Delete(ctx, name, metav1.DeleteOptions{})
			last = fmt.Errorf("ConfigMap/%s/%s: a real create went through", ns, name)
		} else if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "may only dry-run") {
			return
		} else {
			last = err
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("the dry-run-only policy is not enforced: %v", last)
}

// deployPath renders path and applies it as the deployer, namespaces and
// CRDs first, as deploy does for the scenario's own folders.
func (s *scenario) deployPath(path string) {
	s.t.Helper()
	objs, err := render.Render(context.Background(), []string{path}, render.Options{Namespace: "default", Scope: s.client, Config: config.Default()})
	if err != nil {
		s.t.Fatal(err)
	}
	for pass := 0; pass < 2; pass++ {
		for _, o := range objs {
			if (o.ID.Kind == "Namespace" || o.ID.Kind == "CustomResourceDefinition") != (pass == 0) {
				continue
			}
			s.waitForKind(o.Object.GroupVersionKind())
			s.apply(deployer, o.Object.Object, true)
		}
		s.client.ResetDiscovery()
	}
}

// waitForKind waits until the API server serves gvk: a CRD applied a moment
// ago is served once it is established.
func (s *scenario) waitForKind(gvk schema.GroupVersionKind) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err := s.client.Mapping(gvk)
		if err == nil {
			return
		}
		if !meta.IsNoMatchError(err) || time.Now().After(deadline) {
			s.t.Fatalf("%s: %v", gvk, err)
		}
		time.Sleep(100 * time.Millisecond)
		s.client.ResetDiscovery()
	}
}

func dumpOrNone(rep *report.Report) string {
	if rep == nil {
		return "(no report)"
	}
	return dump(rep)
}
