package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/deployer"
	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/render"
	"github.com/ownership-check/ownership-check/internal/snapshot"
	"github.com/ownership-check/ownership-check/internal/values"
)

// InputError is an input the pipeline cannot run with: which input, in the
// pipeline's own name for it (the CLI's flag and the action's input carry
// the same name), and what is wrong. The pipeline does not know whether a
// flag or an action input gave it; Word lets each caller say.
type InputError struct {
	Input   string // "field-manager", "environment", "fail-on", ...
	Problem string
}

func (e *InputError) Error() string { return e.Input + ": " + e.Problem }

// inputError makes an InputError; Problem is the formatted text.
func inputError(input, format string, args ...any) error {
	return &InputError{Input: input, Problem: fmt.Sprintf(format, args...)}
}

// Word rewrites the input errors within err's text as name(input) says:
// "--"+input on the command line, "input "+input in the action. Other text
// is kept.
func Word(err error, name func(input string) string) string {
	msg := err.Error()
	for _, ie := range inputErrors(err) {
		msg = strings.Replace(msg, ie.Error(), name(ie.Input)+": "+ie.Problem, 1)
	}
	return msg
}

// inputErrors finds every InputError in err's tree, wrapped or joined.
func inputErrors(err error) []*InputError {
	if ie, ok := err.(*InputError); ok {
		return []*InputError{ie}
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			return inputErrors(next)
		}
	case interface{ Unwrap() []error }:
		var all []*InputError
		for _, e := range u.Unwrap() {
			all = append(all, inputErrors(e)...)
		}
		return all
	}
	return nil
}

// Validate gives the error a snapshot gives for what t says alone, before
// any run: the front end validates before it makes the run (NewRun).
func (t Target) Validate() error { return t.requireTarget() }

// requireTarget checks the inputs every command of the pipeline needs:
// the deploy's field manager and an environment name that can name files
// on the snapshot branch ("" is "default").
func (t *Target) requireTarget() error {
	if t.FieldManager == "" {
		return inputError("field-manager", model.FieldManagerRequired)
	}
	if t.Environment == "" {
		t.Environment = "default"
	}
	if err := snapshot.ValidateEnvironment(t.Environment); err != nil {
		return &InputError{Input: "environment", Problem: err.Error()}
	}
	return nil
}

// session is where the pipeline's commands against a cluster start:
// inputs checked, the repository config read (and the note on what a pull
// request changes in it), the cluster's client, and, when reached, how
// long the first answer took (the round trip, bounded from above).
type session struct {
	cfg        *config.Config
	configNote string
	client     *kube.Client
	rtt        time.Duration
	// limit caps the client's window (reached only).
	limit int
}

// open is the one way check, snapshot and migrate start; reachWithin > 0
// first makes sure the API server answers within it.
func (t *Target) open(ctx context.Context, reachWithin time.Duration) (*session, error) {
	if err := t.requireTarget(); err != nil {
		return nil, err
	}
	cfg, note := t.Run.Config, t.Run.ConfigNote
	client, err := t.cluster(ctx)
	if err != nil {
		return nil, err
	}
	s := &session{cfg: cfg, configNote: note, client: client}
	if reachWithin > 0 {
		if s.rtt, err = reachTimed(ctx, client, reachWithin); err != nil {
			return nil, err
		}
		s.limit = t.Run.Window(client, s.rtt, t.Concurrency, t.MaxInFlight)
	}
	return s, nil
}

// rendered is a session and the render of its paths, namespaced and
// scoped by its cluster, with what the render read.
type rendered struct {
	*session
	objs  []model.Object
	reads *render.Reads
	// notes say what was not rendered, and why (renderChecked).
	notes []string
	// helm is the Helm that rendered the charts; nil: none was released.
	helm *delivery.HelmRender
}

// renderForCluster is open, then the render: how snapshot and migrate
// start.
func (t *Target) renderForCluster(ctx context.Context, paths []string, reachFirst bool) (*rendered, error) {
	within := time.Duration(0)
	if reachFirst {
		within = checkDeadline
	}
	sess, err := t.open(ctx, within)
	if err != nil {
		return nil, err
	}
	cfg, client := sess.cfg, sess.client
	charts := t.Run.Charts
	reads := render.NewReads()
	done, err := t.Run.RenderTurn(ctx)
	if err != nil {
		return nil, err
	}
	defer done()
	helmUsed := helmRender(*t, deployer.ControllerVersions(ctx, client, t.Deployer), nil)
	objs, unrendered, released, err := renderChecked(ctx, paths, render.Options{Namespace: client.Namespace, Scope: client, Config: cfg, Reads: reads,
		Deployer: t.Deployer, Values: values.New(t.ValueDirs, client), ChartCluster: client, Charts: charts, Trees: t.Run.Trees(),
		HelmEngine: render.HelmEngineFor(helmUsed)})
	if err != nil {
		return nil, err
	}
	r := &rendered{session: sess, objs: objs, reads: reads, notes: unrendered}
	if len(released) > 0 {
		r.helm = &helmUsed
	}
	return r, nil
}
