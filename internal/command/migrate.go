package command

import (
	"context"
	"io"

	"github.com/ownership-check/ownership-check/internal/check"
	"github.com/ownership-check/ownership-check/internal/migrate"
	"github.com/ownership-check/ownership-check/internal/printer"
)

// Migrate plans, prints and (with Apply) carries out the migration. The
// plan comes back with an error too when there was one.
func Migrate(ctx context.Context, o check.MigrateOptions, ro check.RunOptions, stdout io.Writer) (*migrate.Plan, error) {
	end, err := runOf(ctx, o.Validate(), &o.Target, ro, false)
	if err != nil {
		return nil, err
	}
	defer end()
	res, err := check.Migrate(ctx, o, func(plan *migrate.Plan) { printer.Plan(stdout, plan) })
	if res == nil {
		return nil, err
	}
	if res.Applied {
		printer.Outcomes(stdout, res.Outcomes)
	}
	printer.MigrateSummary(stdout, res.Plan, res.Applied, res.Outcomes)
	return res.Plan, err
}
