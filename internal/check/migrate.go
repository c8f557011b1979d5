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
	if err := o.requireTarget(); err != nil {
		return nil, err
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
			return nil, &InputError{Input: "scope", Problem: err.Error()}
		}
		opts.Scope = &scope
	}
	end, err := o.ownRun(ctx)
	if err != nil {
		return nil, err
	}
	defer end()
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
