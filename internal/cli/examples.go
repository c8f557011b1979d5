package cli

import "github.com/spf13/cobra"

// examples are the `Examples:` of each command's help, by command name:
// the commands people type first, each one runnable as written once its
// paths exist. examples_test.go checks that every command has some and
// that they use only the command's own flags.
var examples = map[string]string{
	"ownership-check": `  # What does deploying deploy/overlays/prod do, and who else owns those fields?
  ownership-check check deploy/overlays/prod --field-manager deployer --environment prod

  # Every target of the repository a change since origin/main affects
  ownership-check check --changed-from origin/main --field-manager deployer`,
	"check": `  # A pull request's check: findings get their cause from the base
  ownership-check check deploy/overlays/prod --field-manager deployer --environment prod --base origin/main

  # Without a cluster, from the last-deploy snapshot alone
  ownership-check check deploy/overlays/prod --field-manager deployer --environment prod --offline

  # The repository's targets a change affects, as JSON
  ownership-check check --changed-from origin/main --field-manager deployer -o json

  # Fail only on conflicts and dry-run errors
  ownership-check check deploy --field-manager deployer --fail-on taking-conflict,update-conflict,dry-run-error`,
	"snapshot": `  # Right after the deploy of prod: record what the cluster now holds
  ownership-check snapshot deploy/overlays/prod --field-manager deployer --environment prod

  # Every target of the repository
  ownership-check snapshot --target all --field-manager deployer`,
	"migrate": `  # The plan: which split-owned items the deploy would take whole ownership of
  ownership-check migrate deploy/overlays/prod --field-manager deployer

  # Carry it out for one list only
  ownership-check migrate deploy/overlays/prod --field-manager deployer --scope .spec.template.spec.initContainers --apply`,
	"render": `  # The objects exactly as check sees them
  ownership-check render deploy/overlays/prod

  # A target discovered from a Flux Kustomization, as kustomize-controller renders it
  ownership-check render --target flux-system/apps

  # What the deploy applies, ignored fields left out and Secret values in, for the deploy step
  ownership-check render --show-secrets deploy/overlays/prod > objects.yaml`,
	"history": `  # Every recorded deploy of prod
  ownership-check history --environment prod

  # Who keeps changing one field
  ownership-check history Deployment.apps/shop/web .spec.replicas --environment prod`,
	"targets": `  # The repository's targets: listed in the config and discovered
  ownership-check targets

  # As JSON, for a workflow's matrix
  ownership-check targets -o json`,
	"action": `  # What action.yml runs on the runner; by hand, with the inputs as INPUT_* variables
  INPUT_FIELD-MANAGER=deployer ownership-check action`,
	"gitlab": `  # What the CI/CD component runs in a merge request pipeline; by hand, with
  # the inputs as OWNERSHIP_CHECK_* variables
  OWNERSHIP_CHECK_FIELD_MANAGER=deployer OWNERSHIP_CHECK_ENVIRONMENT=prod ownership-check gitlab`,
	"version": `  ownership-check version`,
}

// addExamples sets the Example of cmd and of every command under it.
func addExamples(cmd *cobra.Command) {
	cmd.Example = examples[cmd.Name()]
	for _, c := range cmd.Commands() {
		addExamples(c)
	}
}
