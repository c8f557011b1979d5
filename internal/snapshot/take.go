package snapshot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"github.com/ownership-check/ownership-check/internal/typing"
)

// TakeOptions describe one snapshot run.
type TakeOptions struct {
	Environment  string
	FieldManager string
	ToolVersion  string
	SourceCommit string
	DeployedBy   string
	// SecretKey is the optional HMAC key for Secret values
	// (secrets.KeyFromEnv()).
	SecretKey []byte
	// Inputs are what the render read; nil when not recorded.
	Inputs *Inputs
	// Types, when set, are the cluster's schemas shared by the targets of
	// one run; nil: read for this snapshot.
	Types *typing.Cache
	// Recorded, when set, are the schemas the run's other targets
	// recorded on the same cluster (Types's); nil: recorded for this
	// snapshot.
	Recorded *RecordedSchemas
	// Release is what a Flux HelmRelease target's controller applied
	// (deployer.ReadRelease); nil for none.
	Release *Release
	// Helm is the Helm that rendered the deploy's charts (the deployer's,
	// as the cluster said it); nil when it released none.
	Helm *delivery.HelmRender
}

// Take records the cluster's state of the rendered objects as the
// environment's snapshot: it GETs every object, and only when all are there
// commits the folder and pushes. The environment keeps its salt across runs,
// so unchanged Secret values hash the same. The warnings say what the
// snapshot replaced or could not record without failing (see
// CaptureSchemas); they come back with the error too.
func (s *Store) Take(ctx context.Context, c *kube.Client, objs []model.Object, o TakeOptions) (*Snapshot, []error, error) {
	if err := ValidateEnvironment(o.Environment); err != nil {
		return nil, nil, err
	}
	if o.FieldManager == "" {
		return nil, nil, errors.New("snapshot: field-manager: " + model.FieldManagerRequired)
	}
	prev, warnings, err := s.previousHashing(ctx, o.Environment)
	if err != nil {
		return nil, warnings, err
	}
	snap, warnings, err := take(ctx, c, objs, o, prev, warnings)
	if err != nil {
		return nil, warnings, err
	}
	if _, err := s.Write(ctx, snap, fmt.Sprintf("snapshot %s at %s", o.Environment, sourceOf(o))); err != nil {
		return nil, warnings, err
	}
	return snap, warnings, nil
}

// sourceOf is the commit deployed, in words for a commit message.
func sourceOf(o TakeOptions) string {
	if o.SourceCommit == "" {
		return "an unknown commit"
	}
	return o.SourceCommit
}

// take reads the objects and their schemas into the environment's
// snapshot, hashing Secret values as prev (the previous snapshot's) did.
func take(ctx context.Context, c *kube.Client, objs []model.Object, o TakeOptions, prev Hashing, warnings []error) (*Snapshot, []error, error) {
	salt := prev.Salt
	if salt == "" {
		salt = secrets.NewSalt()
	}
	if prev.Algorithm == secrets.AlgHMACSHA256 && len(o.SecretKey) == 0 {
		// Going on would silently weaken the protection somebody chose.
		return nil, warnings, fmt.Errorf("snapshot %s: the previous snapshot hashed Secret values with an HMAC key; set %s (to stop using a key, delete the folder %s/ from the snapshot branch)", o.Environment, secrets.KeyEnv, o.Environment)
	}
	h, err := secrets.New(salt, o.SecretKey)
	if err != nil {
		return nil, warnings, err
	}
	// The kinds' schemas are read while the objects are.
	read := make(chan schemasRead, 1)
	go func() {
		read <- o.Recorded.capture(ctx, c, o.Types, kindsOf(objs))
	}()
	entries, err := Capture(ctx, c, objs, h)
	schemas := <-read
	if err != nil {
		return nil, warnings, err
	}
	warnings = append(warnings, schemas.skipped...)
	snap := &Snapshot{
		Index: Index{
			Environment:  o.Environment,
			FieldManager: o.FieldManager,
			ToolVersion:  o.ToolVersion,
			SourceCommit: o.SourceCommit,
			DeployedBy:   o.DeployedBy,
			DeployedAt:   time.Now(),
			Secrets:      HashingOf(h),
			Inputs:       o.Inputs,
			Release:      o.Release,
			Helm:         o.Helm,
		},
		Objects:   entries,
		Schemas:   schemas.crds,
		Documents: schemas.docs,
	}
	return snap, warnings, nil
}

// kindsOf lists the kinds of objs, once each.
func kindsOf(objs []model.Object) []schema.GroupVersionKind {
	seen := map[schema.GroupVersionKind]bool{}
	var out []schema.GroupVersionKind
	for _, o := range objs {
		if o.Object == nil {
			continue
		}
		if gvk := o.Object.GroupVersionKind(); !seen[gvk] {
			seen[gvk] = true
			out = append(out, gvk)
		}
	}
	return out
}

// previousHashing returns how the environment's previous snapshot hashed
// Secret values; zero for its first snapshot. A snapshot written by a newer
// ownership-check is not replaced by an older one; a corrupt one is, with
// a warning.
func (s *Store) previousHashing(ctx context.Context, env string) (Hashing, []error, error) {
	ix, _, err := s.ReadIndex(ctx, env, "")
	return hashingOf(ix, err)
}

// hashingOf is previousHashing of the index read, or of why it could not
// be.
func hashingOf(ix *Index, err error) (Hashing, []error, error) {
	var fe *FileError
	switch {
	case err == nil:
		return ix.Secrets, nil, nil
	case errors.Is(err, ErrNotFound):
		return Hashing{}, nil, nil
	case errors.Is(err, ErrNewerSchema):
		return Hashing{}, nil, fmt.Errorf("%w; not overwriting it with an older format", err)
	case errors.As(err, &fe):
		return Hashing{}, []error{fmt.Errorf("replacing an unreadable snapshot: %w", err)}, nil
	default:
		return Hashing{}, nil, err
	}
}
