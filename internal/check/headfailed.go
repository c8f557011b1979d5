package check

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/ownership-check/ownership-check/internal/check/judge"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/ownership"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/values"
)

// ReasonRenderFailed marks the finding of a target whose head does not
// render while its base does (judge.ReasonRenderFailed).
const ReasonRenderFailed = judge.ReasonRenderFailed

// RenderError is a head whose render failed (kustomize refused it, a file
// it names is not there): with a base, a run of many targets asks
// HeadFailed whether the pull request broke it.
type RenderError struct{ Err error }

func (e *RenderError) Error() string { return e.Err.Error() }
func (e *RenderError) Unwrap() error { return e.Err }

// renderFailed wraps a render's error as a RenderError, unless the render
// was cancelled: that is the run ending, not the manifests.
func renderFailed(ctx context.Context, err error) error {
	var nc *NotCheckedError
	if err == nil || ctx.Err() != nil || errors.As(err, &nc) {
		return err
	}
	return &RenderError{Err: err}
}

// HeadFailed judges a target of a GitOps controller that its head does
// not render for a reason its controller fails on too (why: a path, a
// chart version its source does not have) by rendering its base as its
// own object there says. A base that renders it, or has no such target,
// or does not render it for another reason (its render fails, its source
// is another repository), means the pull request broke the target: the
// report fails with one dry-run-error finding on the controller's object,
// of cause pull-request, why its message, as the deploy would fail on it.
// A base whose controller fails on it for the same kind of reason, or no
// base, leaves the target not checked, and the reason returned names
// both.
func HeadFailed(ctx context.Context, o Options, why string) (*report.Report, string, error) {
	return judgeHead(ctx, o, judge.HeadFails(why))
}

// HeadRenderFailed is HeadFailed for a head whose render fails (err: a
// patch that does not apply, a file it names is not there): a base whose
// render fails too leaves it not checked.
func HeadRenderFailed(ctx context.Context, o Options, err error) (*report.Report, string, error) {
	return judgeHead(ctx, o, judge.HeadRenderFails(err))
}

// NotCheckedAtHead judges a target of a GitOps controller that the head
// does not check (why: its chart's host cannot be reached, a plugin renders
// it, its source is another repository) by its base. It fails as the pull
// request's, with one not-checked finding on the controller's object (the
// report returned, with the reason), unless the base does not check it
// either for the same kind of reason (report.ReasonKind): then, or with no
// base, it is not checked, and the reason returned names both.
func NotCheckedAtHead(ctx context.Context, o Options, why string) (*report.Report, string, error) {
	return judgeHead(ctx, o, judge.HeadNotChecked(why))
}

// judgeHead judges a target its head does not check by its base
// (judge.ByBase): the report of the pull request's finding, or the reason
// it stays not checked without one; with a report and a reason, a target
// not checked that the report's finding judges.
func judgeHead(ctx context.Context, o Options, head judge.AtHead) (*report.Report, string, error) {
	why := head.Why()
	if o.Base == "" || o.Deployer == nil {
		return nil, why, nil
	}
	policy, err := ParseFailOn(o.FailOn)
	if err != nil {
		return nil, "", err
	}
	causes, err := ParseFailOnCause(o.FailOnCause)
	if err != nil {
		return nil, "", err
	}
	if err := o.requireRun(); err != nil {
		return nil, "", err
	}
	cfg, charts := o.Run.Config, o.Run.Charts
	opts := render.Options{Namespace: offlineNamespace(o.Target), Config: cfg, Deployer: o.Deployer, Charts: charts, StandInSecrets: true}
	var versions func(string) string
	if c := o.Client; c != nil && !o.Offline {
		opts.Namespace, opts.Scope, opts.ChartCluster = c.Namespace, c, c
		versions = deployer.ControllerVersions(ctx, c, o.Deployer)
	}
	opts.HelmEngine = render.HelmEngineFor(helmRender(o.Target, versions, nil))
	vr := values.New(o.ValueDirs, o.Client)
	opts.Values = vr
	paths := o.Paths
	if len(paths) == 0 {
		// The base finds its own paths from its own object; the head's
		// object file only says which repository it is in.
		paths = []string{o.Deployer.File}
	}
	b, err := render.RenderBase(ctx, render.BaseOf{Rev: o.Base, Paths: paths, Options: opts, Trees: o.Run.Trees(), DeployerAt: o.BaseDeployer})
	var unresolved *render.UnresolvedError
	if errors.As(err, &unresolved) {
		return nil, "", fmt.Errorf("--%w", err)
	}
	fails, finding, base := judge.ByBase(head, b, err)
	if !fails {
		return nil, why + "; " + base, nil
	}
	engine := "cluster"
	if o.Offline {
		engine = "offline"
	}
	in := newInput(o, engine, nil, secrets.Hasher{}, policy, cfg, nil).HideRendered(vr.Hidden(), nil)
	// A base that does not render leaves a note, as a check's does: the
	// finding is the pull request's.
	if in, err = withBase(in, &baseRead{base: b, err: err}, causes); err != nil {
		return nil, "", err
	}
	ro := deployerObject(o.Deployer)
	ro.Findings = []model.Finding{finding}
	rep := in.Report([]report.Object{ro}, nil)
	if head.Controller() {
		// Checked, as the pull request's failure.
		return rep, "", nil
	}
	// Still not checked: the finding judges what the pull request did.
	rep.NotCheckedFor(why)
	return rep, why, nil
}

// deployerObject is the report's object of the controller's own object
// that a finding about the whole target is about.
func deployerObject(d *delivery.Deployer) report.Object {
	u := &unstructured.Unstructured{Object: d.Object}
	return report.Object{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName(),
		Source: d.File, Baseline: ownership.BaselineLive, Findings: []model.Finding{}}
}
