package testcluster

import (
	"context"
	"fmt"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
)

const serviceAccountTokenSeconds = 3600

// ServiceAccountConfig returns a REST config that acts as the ServiceAccount
// namespace/name, creating the namespace and the ServiceAccount when missing.
// The identity has no permissions until the test grants some with RBAC
// objects, which is how tests reach 403 answers.
func (c *Cluster) ServiceAccountConfig(ctx context.Context, namespace, name string) (*rest.Config, error) {
	cs, err := kubernetes.NewForConfig(c.Config())
	if err != nil {
		return nil, fmt.Errorf("testcluster: client: %w", err)
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}
	if _, err := cs.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("testcluster: Namespace/%s: create: %w", namespace, err)
	}
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().ServiceAccounts(namespace).Create(ctx, sa, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("testcluster: ServiceAccount/%s/%s: create: %w", namespace, name, err)
	}
	seconds := int64(serviceAccountTokenSeconds)
	tr, err := cs.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, name, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &seconds},
	}, metav1.CreateOptions{})
	if err != nil {
		return nil, fmt.Errorf("testcluster: ServiceAccount/%s/%s: token request: %w", namespace, name, err)
	}
	cfg := rest.AnonymousClientConfig(c.Config())
	cfg.BearerToken = tr.Status.Token
	return cfg, nil
}
