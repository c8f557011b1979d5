package snapshot

import (
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/secrets"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// NewEntry builds an object's entry from what was applied and the live
// object after the deploy, hiding Secret values with h, and the values the
// render took from Secrets into the object (applied.HiddenValues), where
// they are.
func NewEntry(applied model.Object, live *unstructured.Unstructured, h secrets.Hasher) *Entry {
	return &Entry{
		SchemaVersion: SchemaVersion,
		ID:            applied.ID,
		APIVersion:    live.GetAPIVersion(),
		Applied:       h.HashHidden(h.HashSecretValues(applied.Object), applied.HiddenValues.List()),
		Deployed:      h.HashHidden(Deployed(live, h), applied.HiddenValues.List()),
	}
}

// Deployed trims a live object to what a snapshot keeps, so that
// re-snapshotting an unchanged cluster writes identical files:
//   - status goes: controllers rewrite it all the time and no deploy owns it;
//   - metadata.resourceVersion goes: every status write bumps it;
//   - the time of a managedFields entry that owns nothing but status goes,
//     for the same reason (its fieldsV1 stays, so managedFields is complete);
//   - Secret values are replaced by their hashes (secrets.Hasher.Redact).
//
// uid, generation and creationTimestamp stay: they change only when the
// object is recreated or its spec is written.
func Deployed(live *unstructured.Unstructured, h secrets.Hasher) *unstructured.Unstructured {
	out := h.HashSecretValues(live)
	delete(out.Object, "status")
	if md, ok := out.Object["metadata"].(map[string]any); ok {
		delete(md, "resourceVersion")
		delete(md, "selfLink")
		if mf, ok := md["managedFields"].([]any); ok {
			for _, e := range mf {
				if m, ok := e.(map[string]any); ok && ownsOnlyStatus(m) {
					delete(m, "time")
				}
			}
		}
	}
	return out
}

func ownsOnlyStatus(entry map[string]any) bool {
	f, ok := entry["fieldsV1"].(map[string]any)
	if !ok || len(f) == 0 {
		return false
	}
	for k := range f {
		if k != "f:status" {
			return false
		}
	}
	return true
}
