package check

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/migrate"
)

// migrateDeadline bounds the whole cluster conversation of one migrate.
const migrateDeadline = 10 * time.Minute

// MigrateOptions are one migrate run's settings.
type MigrateOptions struct {
	Target
	// Paths are rendered as check renders them.
	Paths []string
	// Scope limits the split items taken to those at or below this path
	// (the form a split-ownership finding prints); "" takes them all.
	Scope string
	// FromManagers are merged into the field manager like client-side-apply
	// managers.
	FromManagers []string
	// Apply carries the plan out; without it nothing is changed.
	Apply bool
}

// Validate gives the error Migrate gives for what o says alone, before
// any run: the front end validates before it makes the run (NewRun).
func (o MigrateOptions) Validate() error {
	_, err := o.plan()
	return err
}

// plan checks o's inputs and gives the plan's options.
func (o *MigrateOptions) plan() (migrate.Options, error) {
	if err := o.requireTarget(); err != nil {
		return migrate.Options{}, err
	}
	opts := migrate.Options{FieldManager: o.FieldManager}
	for _, m := range o.FromManagers {
		if m = strings.TrimSpace(m); m != "" {
			opts.FromManagers = append(opts.FromManagers, m)
		}
	}
	if o.Scope != "" {
		scope, err := config.ParsePath(o.Scope)
		if err != nil {
			return opts, &InputError{Input: "scope", Problem: err.Error()}
		}
		opts.Scope = &scope
	}
	return opts, nil
}

// Migrated is what Migrate planned and, when Applied, did.
type Migrated struct {
	Plan     *migrate.Plan
	Applied  bool
	Outcomes []migrate.Outcome
}

// Migrate renders the paths, plans the migration of every object that
// exists live and, with Apply and something to do, carries it out.
// planned receives the plan before anything is applied, so that it can be
// shown first. An object that could not be migrated is an error returned
// with the result.
func Migrate(ctx context.Context, o MigrateOptions, planned func(*migrate.Plan)) (*Migrated, error) {
	ctx, cancel := context.WithTimeout(ctx, migrateDeadline)
	defer cancel()
	opts, err := o.plan()
	if err != nil {
		return nil, err
	}
	if err := o.requireRun(); err != nil {
		return nil, err
	}
	r, err := o.renderForCluster(ctx, o.Paths, false)
	if err != nil {
		return nil, err
	}
	client, objs := r.client, r.objs
	plan, err := migrate.Make(ctx, client, objs, opts, client.Window.Ceiling())
	if err != nil {
		return nil, err
	}
	if planned != nil {
		planned(plan)
	}
	res := &Migrated{Plan: plan}
	if !o.Apply || plan.Pending() == 0 {
		return res, nil
	}
	res.Applied = true
	res.Outcomes = plan.Apply(ctx, client)
	var errs []error
	for _, oc := range res.Outcomes {
		if oc.Err != nil {
			errs = append(errs, oc.Err)
		}
	}
	return res, errors.Join(errs...)
}
