package delivery

// Keys on an Argo CD Application (Deployer.Object's metadata.annotations)
// that carry how its Argo CD installation tracks what it applies and
// builds kustomizations: argocd-cm's application.resourceTrackingMethod,
// application.instanceLabelKey, installationID and kustomize.buildOptions
// belong to the installation, not to the Application, so discovery writes
// them (from the repository config, or the installation's own argocd-cm)
// onto the object it gives render, which reads them.
const (
	// ArgoTrackingMethodKey: "annotation" (Argo CD 3's default, and what
	// any other value means), "label" or "annotation+label".
	ArgoTrackingMethodKey = "ownership-check.io/tracking-method"
	// ArgoInstanceLabelKey: the label of label tracking;
	// app.kubernetes.io/instance when unset.
	ArgoInstanceLabelKey = "ownership-check.io/instance-label-key"
	// ArgoInstallationIDKey: argocd-cm's installationID, which Argo CD
	// writes on every object as argocd.argoproj.io/installation-id; none
	// when unset.
	ArgoInstallationIDKey = "ownership-check.io/installation-id"
	// ArgoControllerNamespaceKey: the namespace Argo CD runs in. An
	// Application in another namespace (apps in any namespace) is tracked
	// as <namespace>_<name>; unset, the Application's own namespace.
	ArgoControllerNamespaceKey = "ownership-check.io/controller-namespace"
	// ArgoKustomizeBuildOptionsKey: argocd-cm's kustomize.buildOptions,
	// the flags the installation's repo server adds to `kustomize build`
	// (--enable-helm lets kustomize inflate helmCharts); none when unset.
	ArgoKustomizeBuildOptionsKey = "ownership-check.io/kustomize-build-options"
	// ArgoKustomizeBuildOptionsFromKey: where discovery read them (a file
	// of the repository, or the repository config's discover entry), or
	// why it could not tell; a render's reason names it.
	ArgoKustomizeBuildOptionsFromKey = "ownership-check.io/kustomize-build-options-from"
)

// ArgoBuildOptionsAmbiguous begins ArgoKustomizeBuildOptionsFromKey when
// the repository holds argocd-cm settings that disagree: none is taken.
const ArgoBuildOptionsAmbiguous = "ambiguous: "
