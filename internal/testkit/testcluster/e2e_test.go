package testcluster_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	appsv1ac "k8s.io/client-go/applyconfigurations/apps/v1"
	corev1ac "k8s.io/client-go/applyconfigurations/core/v1"
	metav1ac "k8s.io/client-go/applyconfigurations/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
)

var replicasPath = fieldpath.MakePathOrDie("spec", "replicas")

func webDeployment(ns string, replicas int32) *appsv1ac.DeploymentApplyConfiguration {
	labels := map[string]string{"app": "web"}
	return appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().
		WithReplicas(replicas).
		WithSelector(metav1ac.LabelSelector().WithMatchLabels(labels)).
		WithTemplate(corev1ac.PodTemplateSpec().WithLabels(labels).WithSpec(corev1ac.PodSpec().
			WithContainers(corev1ac.Container().WithName("app").WithImage("nginx:1.25")))))
}

// A scale by kubectl takes .spec.replicas from the applier; a force dry-run
// by the applier predicts taking it back without touching the live object.
func TestScaleThenForceDryRunTakesReplicasBack(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx := testContext(t)
	cs := clientset(t)
	ns := newNamespace(t, cs)
	deployments := cs.AppsV1().Deployments(ns)

	if _, err := deployments.Apply(ctx, webDeployment(ns, 3), metav1.ApplyOptions{FieldManager: "deployer"}); err != nil {
		t.Fatalf("apply: %v", err)
	}
	scale, err := deployments.GetScale(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scale.Spec.Replicas = 5
	if _, err := deployments.UpdateScale(ctx, "web", scale, metav1.UpdateOptions{FieldManager: "kubectl"}); err != nil {
		t.Fatalf("scale: %v", err)
	}
	live, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ownersOf(t, live, replicasPath), []string{"kubectl/Update/scale"}; !slices.Equal(got, want) {
		t.Fatalf("after scale, .spec.replicas owned by %v, want %v", got, want)
	}

	predicted, err := deployments.Apply(ctx, webDeployment(ns, 3), metav1.ApplyOptions{
		FieldManager: "deployer", Force: true, DryRun: []string{metav1.DryRunAll},
	})
	if err != nil {
		t.Fatalf("force dry-run: %v", err)
	}
	if got := *predicted.Spec.Replicas; got != 3 {
		t.Errorf("predicted replicas = %d, want 3", got)
	}
	if got, want := ownersOf(t, predicted, replicasPath), []string{"deployer/Apply"}; !slices.Equal(got, want) {
		t.Errorf("predicted .spec.replicas owned by %v, want %v", got, want)
	}

	after, err := deployments.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if after.ResourceVersion != live.ResourceVersion || *after.Spec.Replicas != 5 {
		t.Errorf("dry-run changed the live object: resourceVersion %s -> %s, replicas %d",
			live.ResourceVersion, after.ResourceVersion, *after.Spec.Replicas)
	}
}

// Seed 004: eno force-applied only an initContainer's image over an object
// another client created, so removing the initContainer from eno's config
// leaves a container without image, which validation rejects.
func TestSplitOwnershipInitContainerRemovalIsInvalid(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx := testContext(t)
	cs := clientset(t)
	ns := newNamespace(t, cs)
	deployments := cs.AppsV1().Deployments(ns)

	if _, err := deployments.Create(ctx, initContainerDeployment(ns), metav1.CreateOptions{FieldManager: "Go-http-client"}); err != nil {
		t.Fatalf("create: %v", err)
	}
	enoApply := func(withInit bool) *appsv1ac.DeploymentApplyConfiguration {
		spec := corev1ac.PodSpec().WithContainers(corev1ac.Container().WithName("app").WithImage("nginx:1.25"))
		if withInit {
			spec.WithInitContainers(corev1ac.Container().WithName("base-os-bash").WithImage("busybox:1.37"))
		}
		return appsv1ac.Deployment("web", ns).WithSpec(appsv1ac.DeploymentSpec().
			WithTemplate(corev1ac.PodTemplateSpec().WithSpec(spec)))
	}
	live, err := deployments.Apply(ctx, enoApply(true), metav1.ApplyOptions{FieldManager: "eno", Force: true})
	if err != nil {
		t.Fatalf("eno apply: %v", err)
	}
	image := fieldpath.MakePathOrDie("spec", "template", "spec", "initContainers",
		fieldpath.KeyByFields("name", "base-os-bash"), "image")
	if got, want := ownersOf(t, live, image), []string{"eno/Apply"}; !slices.Equal(got, want) {
		t.Fatalf("initContainer image owned by %v, want %v", got, want)
	}

	_, err = deployments.Apply(ctx, enoApply(false), metav1.ApplyOptions{
		FieldManager: "eno", Force: true, DryRun: []string{metav1.DryRunAll},
	})
	if !apierrors.IsInvalid(err) {
		t.Fatalf("dry-run without the initContainer: got %v, want 422 Invalid", err)
	}
	if code := err.(apierrors.APIStatus).Status().Code; code != http.StatusUnprocessableEntity {
		t.Errorf("status code %d, want 422", code)
	}
	if want := "spec.template.spec.initContainers[0].image: Required value"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not contain %q", err, want)
	}
}

func initContainerDeployment(ns string) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	replicas := int32(1)
	nonRoot := true
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{
					InitContainers: []corev1.Container{{
						Name:            "base-os-bash",
						Image:           "busybox:1.36",
						Command:         []string{"bash", "-c", "true"},
						ImagePullPolicy: corev1.PullIfNotPresent,
						Resources: corev1.ResourceRequirements{
							Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
						},
						SecurityContext: &corev1.SecurityContext{RunAsNonRoot: &nonRoot},
					}},
					Containers: []corev1.Container{{Name: "app", Image: "nginx:1.25"}},
				},
			},
		},
	}
}

// A ServiceAccount without RBAC may not even dry-run.
func TestServiceAccountWithoutRBACIsForbidden(t *testing.T) {
	testcluster.Require(t, cluster)
	ctx := testContext(t)
	ns := newNamespace(t, clientset(t))
	cfg, err := cluster.ServiceAccountConfig(ctx, ns, "ci")
	if err != nil {
		t.Fatal(err)
	}
	sa, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cm := corev1ac.ConfigMap("settings", ns).WithData(map[string]string{"k": "v"})
	_, err = sa.CoreV1().ConfigMaps(ns).Apply(ctx, cm, metav1.ApplyOptions{
		FieldManager: "deployer", Force: true, DryRun: []string{metav1.DryRunAll},
	})
	if !apierrors.IsForbidden(err) {
		t.Fatalf("got %v, want 403 Forbidden", err)
	}
	if want := "system:serviceaccount:" + ns + ":ci"; !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name %s", err, want)
	}
}

// The kubeconfig is what the CLI is given; it must work through the same
// loading rules kubectl uses.
func TestKubeconfigFileReachesTheCluster(t *testing.T) {
	testcluster.Require(t, cluster)
	path := cluster.KubeconfigFile(t)
	rules := &clientcmd.ClientConfigLoadingRules{ExplicitPath: path}
	cfg, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, nil).ClientConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Insecure || len(cfg.CAData) == 0 {
		t.Errorf("kubeconfig does not verify the server: insecure=%v, CA %d bytes", cfg.Insecure, len(cfg.CAData))
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs.CoreV1().Namespaces().Get(testContext(t), "default", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
}
