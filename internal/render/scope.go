package render

import (
	"github.com/ownership-check/ownership-check/internal/render/source"

	"fmt"

	"github.com/ownership-check/ownership-check/internal/typing"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/model"
)

// ScopeResolver tells whether a kind is namespaced; *kube.Client answers
// from the API server's discovery.
type ScopeResolver interface {
	IsNamespaced(gvk schema.GroupVersionKind) (bool, error)
}

// clusterScoped are the cluster-scoped kinds Kubernetes serves itself (and
// common add-ons'), used when no cluster is available: kubectl would ask
// discovery. TestBuiltinScopesMatchAPIServer compares the list with a real
// kube-apiserver of each version the tests run on (v1.37 serves
// DeviceTaintRule).
var clusterScoped = map[schema.GroupKind]bool{
	{Group: "", Kind: "Namespace"}:                                                    true,
	{Group: "", Kind: "Node"}:                                                         true,
	{Group: "", Kind: "PersistentVolume"}:                                             true,
	{Group: "", Kind: "ComponentStatus"}:                                              true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}:                         true,
	{Group: "rbac.authorization.k8s.io", Kind: "ClusterRoleBinding"}:                  true,
	model.CRDGroupKind:                                                                true,
	{Group: "apiregistration.k8s.io", Kind: "APIService"}:                             true,
	{Group: "storage.k8s.io", Kind: "StorageClass"}:                                   true,
	{Group: "storage.k8s.io", Kind: "CSIDriver"}:                                      true,
	{Group: "storage.k8s.io", Kind: "CSINode"}:                                        true,
	{Group: "storage.k8s.io", Kind: "VolumeAttachment"}:                               true,
	{Group: "storage.k8s.io", Kind: "VolumeAttributesClass"}:                          true,
	{Group: "scheduling.k8s.io", Kind: "PriorityClass"}:                               true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingWebhookConfiguration"}:     true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingWebhookConfiguration"}:   true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicy"}:        true,
	{Group: "admissionregistration.k8s.io", Kind: "ValidatingAdmissionPolicyBinding"}: true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicy"}:          true,
	{Group: "admissionregistration.k8s.io", Kind: "MutatingAdmissionPolicyBinding"}:   true,
	{Group: "networking.k8s.io", Kind: "IngressClass"}:                                true,
	{Group: "networking.k8s.io", Kind: "IPAddress"}:                                   true,
	{Group: "networking.k8s.io", Kind: "ServiceCIDR"}:                                 true,
	{Group: "node.k8s.io", Kind: "RuntimeClass"}:                                      true,
	{Group: "certificates.k8s.io", Kind: "CertificateSigningRequest"}:                 true,
	{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}:                        true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "FlowSchema"}:                       true,
	{Group: "flowcontrol.apiserver.k8s.io", Kind: "PriorityLevelConfiguration"}:       true,
	{Group: "resource.k8s.io", Kind: "DeviceClass"}:                                   true,
	{Group: "resource.k8s.io", Kind: "ResourceSlice"}:                                 true,
	{Group: "resource.k8s.io", Kind: "DeviceTaintRule"}:                               true,
	{Group: "storagemigration.k8s.io", Kind: "StorageVersionMigration"}:               true,
	{Group: "internal.apiserver.k8s.io", Kind: "StorageVersion"}:                      true,
	{Group: "authentication.k8s.io", Kind: "TokenReview"}:                             true,
	{Group: "authentication.k8s.io", Kind: "SelfSubjectReview"}:                       true,
	{Group: "authorization.k8s.io", Kind: "SubjectAccessReview"}:                      true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectAccessReview"}:                  true,
	{Group: "authorization.k8s.io", Kind: "SelfSubjectRulesReview"}:                   true,
	{Group: "policy", Kind: "PodSecurityPolicy"}:                                      true,
	{Group: "metrics.k8s.io", Kind: "NodeMetrics"}:                                    true,
	{Group: "snapshot.storage.k8s.io", Kind: "VolumeSnapshotClass"}:                   true,
	{Group: "snapshot.storage.k8s.io", Kind: "VolumeSnapshotContent"}:                 true,
	{Group: "gateway.networking.k8s.io", Kind: "GatewayClass"}:                        true,
	{Group: "cert-manager.io", Kind: "ClusterIssuer"}:                                 true,
}

// KnownScopes answers from what is known of kinds, namespaced or not
// (from a snapshot, say); other kinds are unknown to it.
type KnownScopes map[schema.GroupKind]bool

// IsNamespaced implements ScopeResolver.
func (k KnownScopes) IsNamespaced(gvk schema.GroupVersionKind) (bool, error) {
	if ns, ok := k[gvk.GroupKind()]; ok {
		return ns, nil
	}
	return false, &meta.NoKindMatchError{GroupKind: gvk.GroupKind(), SearchedVersions: []string{gvk.Version}}
}

// scopes decides whether objects are namespaced: the resolver (the
// cluster's discovery, or what the snapshot knows) when given, then the
// CRDs of the same render, then the built-in list. A custom kind nobody
// knows is taken as namespaced, as most are, and the object says the
// scope was guessed.
type scopes struct {
	resolver ScopeResolver
	crds     map[schema.GroupKind]bool // from CustomResourceDefinitions in the render: namespaced?
	// answered holds each kind's answer: a render has thousands of objects
	// of a few kinds, and a REST mapper's lookup allocates on every call.
	answered map[schema.GroupVersionKind]scopeAnswer
}

type scopeAnswer struct {
	namespaced, guessed bool
	err                 error
}

func newScopes(resolver ScopeResolver, objs []source.RawObject) *scopes {
	s := &scopes{resolver: resolver, crds: map[schema.GroupKind]bool{}, answered: map[schema.GroupVersionKind]scopeAnswer{}}
	for _, o := range objs {
		if av, _ := o.Obj["apiVersion"].(string); !model.IsCRD(schema.FromAPIVersionAndKind(av, fmt.Sprint(o.Obj["kind"])).GroupKind()) {
			continue
		}
		spec, _ := o.Obj["spec"].(map[string]any)
		group, _ := spec["group"].(string)
		names, _ := spec["names"].(map[string]any)
		kind, _ := names["kind"].(string)
		scope, _ := spec["scope"].(string)
		if kind != "" {
			s.crds[schema.GroupKind{Group: group, Kind: kind}] = scope != "Cluster"
		}
	}
	return s
}

// namespaced tells whether objects of gvk are namespaced, and whether
// that is a guess. Not safe for concurrent use.
func (s *scopes) namespaced(gvk schema.GroupVersionKind) (namespaced, guessed bool, err error) {
	a, ok := s.answered[gvk]
	if !ok {
		a.namespaced, a.guessed, a.err = s.lookup(gvk)
		s.answered[gvk] = a
	}
	return a.namespaced, a.guessed, a.err
}

func (s *scopes) lookup(gvk schema.GroupVersionKind) (namespaced, guessed bool, err error) {
	if s.resolver != nil {
		ns, err := s.resolver.IsNamespaced(gvk)
		if err == nil {
			return ns, false, nil
		}
		if !meta.IsNoMatchError(err) {
			return false, false, err
		}
	}
	gk := gvk.GroupKind()
	if ns, ok := s.crds[gk]; ok {
		return ns, false, nil
	}
	if clusterScoped[gk] {
		return false, false, nil
	}
	// Kubernetes' own groups: every cluster-scoped kind is in the list.
	return true, !typing.Scheme.IsGroupRegistered(gk.Group), nil
}

// guessedScopeNote is the note on an object whose kind's scope nothing
// knew. It names the kind only, so that reports can list the objects of
// one kind under one note.
func guessedScopeNote(gk schema.GroupKind) string {
	return fmt.Sprintf("scope guessed: nothing here knows whether %s is namespaced (no cluster serving it, no schema of it in the snapshot, no CustomResourceDefinition of it in the render), so it is taken as namespaced; if it is cluster-scoped, render its CustomResourceDefinition too or check against the cluster", gkString(gk))
}

func gkString(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}
