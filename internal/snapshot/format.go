package snapshot

import (
	"fmt"
	"time"

	"github.com/ownership-check/ownership-check/internal/delivery"
	"github.com/ownership-check/ownership-check/internal/model"

	"github.com/ownership-check/ownership-check/internal/secrets"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// SchemaVersion of the files this package writes. Readers refuse files of a
// newer version rather than misread them.
const SchemaVersion = 1

// Index is an environment's index.json: the deploy's metadata and the list
// of objects in the snapshot.
type Index struct {
	SchemaVersion int    `json:"schemaVersion"`
	Environment   string `json:"environment"`
	FieldManager  string `json:"fieldManager"`
	ToolVersion   string `json:"toolVersion"`
	// SourceCommit is the commit of the manifests that were deployed.
	SourceCommit string `json:"sourceCommit,omitempty"`
	// DeployedBy is who ran the snapshot (GITHUB_ACTOR or $USER).
	DeployedBy string    `json:"deployedBy,omitempty"`
	DeployedAt time.Time `json:"deployedAt"`
	Secrets    Hashing   `json:"secrets"`
	// Objects is filled by Store.Write from the snapshot's entries, sorted.
	Objects []IndexEntry `json:"objects"`
	// Inputs are what the deploy's render read: a change to the repository
	// affects the environment only if it touches one of them (targets).
	Inputs *Inputs `json:"inputs,omitempty"`
	// Release is what helm-controller applied of the environment's Flux
	// HelmRelease, from its status after the deploy; nil for any other
	// target, or when the cluster says none.
	Release *Release `json:"release,omitempty"`
	// Helm is the Helm that rendered the deploy's charts, the deployer's
	// as the cluster said at the deploy: what an offline check renders
	// with (docs/helm.md); nil when the deploy released no chart.
	Helm *delivery.HelmRender `json:"helm,omitempty"`
}

// Inputs are the files and directories a render read, relative to the
// repository's top, sorted; Outside counts reads outside it.
type Inputs struct {
	Files   []string `json:"files"`
	Dirs    []string `json:"dirs"`
	Outside int      `json:"outside,omitempty"`
}

// Hashing says how the Secret values in this environment's files were
// hashed. The salt is kept across runs so unchanged values hash the same.
type Hashing struct {
	Algorithm string `json:"algorithm"`
	Salt      string `json:"salt"`
	// KeyID identifies the HMAC key (never the key itself); empty without one.
	KeyID string `json:"keyID,omitempty"`
}

// IndexEntry lists one object of the snapshot and where its file is.
type IndexEntry struct {
	model.ID
	APIVersion string `json:"apiVersion"`
	// Path of the object's file, relative to the environment's folder.
	Path string `json:"path"`
}

// Entry is one object's file.
type Entry struct {
	SchemaVersion int      `json:"schemaVersion"`
	ID            model.ID `json:"id"`
	APIVersion    string   `json:"apiVersion"`
	// Applied is the rendered config the deploy applied, after ignore rules.
	Applied *unstructured.Unstructured `json:"applied"`
	// Deployed is the live object right after the deploy, as Deployed()
	// trims it: metadata with managedFields, spec, data; no status.
	Deployed *unstructured.Unstructured `json:"deployed"`

	// file is the entry's file, compacted and deflated, in a snapshot read
	// from git;
	// Applied and Deployed are then nil: Snapshot.Entry decodes them.
	file []byte
}

// Snapshot is one environment's snapshot at one commit of the branch.
type Snapshot struct {
	Index Index
	// Commit holds the snapshot; set by Read and Write.
	Commit string
	// Objects are the recorded objects. Read their Applied and Deployed
	// through Entry: a snapshot read from git holds each as its file.
	Objects map[model.ID]*Entry
	// Schemas are the CustomResourceDefinitions of the custom kinds among
	// Objects (trimmed, see TrimCRD), for the offline engine; a kind may be
	// missing when its CRD could not be read.
	Schemas map[schema.GroupKind]*unstructured.Unstructured
	// Documents are the API server's schemas of the group-versions of
	// Objects (see DocumentPath), as stored; a group-version may be missing
	// when its schema could not be read, or in snapshots older than them.
	Documents map[schema.GroupVersion][]byte
}

// Hashing returns the Hashing record of a Hasher.
func HashingOf(h secrets.Hasher) Hashing {
	return Hashing{Algorithm: h.Algorithm(), Salt: h.Salt(), KeyID: h.KeyID()}
}

// Hasher rebuilds the Hasher the snapshot's Secret values were hashed with,
// so that desired and live Secrets can be hashed the same way and compared.
// key is the HMAC key (secrets.KeyFromEnv()); it is needed exactly when the
// snapshot was written with one, and must be the same key.
func (ix *Index) Hasher(key []byte) (secrets.Hasher, error) {
	env := ix.Environment
	switch ix.Secrets.Algorithm {
	case secrets.AlgSHA256:
		return secrets.New(ix.Secrets.Salt, nil)
	case secrets.AlgHMACSHA256:
		if len(key) == 0 {
			return secrets.Hasher{}, fmt.Errorf("snapshot %s: Secret values were hashed with an HMAC key; set %s to the same key", env, secrets.KeyEnv)
		}
		h, err := secrets.New(ix.Secrets.Salt, key)
		if err != nil {
			return secrets.Hasher{}, fmt.Errorf("snapshot %s: %w", env, err)
		}
		if h.KeyID() != ix.Secrets.KeyID {
			return secrets.Hasher{}, fmt.Errorf("snapshot %s: %s is not the key the snapshot's Secret values were hashed with (key id %s, given %s)", env, secrets.KeyEnv, ix.Secrets.KeyID, h.KeyID())
		}
		return h, nil
	default:
		return secrets.Hasher{}, fmt.Errorf("snapshot %s: unknown Secret hashing algorithm %q", env, ix.Secrets.Algorithm)
	}
}
