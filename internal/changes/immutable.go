package changes

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"

	"github.com/ownership-check/ownership-check/internal/model"
)

// immutableField finds "<field>: Invalid value: …: field is immutable" (and
// the forms without the value) in a refusal's text.
var immutableField = regexp.MustCompile(`([A-Za-z0-9_.\[\]"=-]+): (?:Invalid value|Forbidden)[^;\n]*?(?:field is immutable|updates to [a-z]+ spec for fields other than|spec is immutable|may not change once set|cannot change roleRef)`)

// Immutable reads an Invalid refusal of the dry-run that names immutable
// fields, and returns the recreate-required warning that replaces it;
// false when the refusal is about something else.
func Immutable(id model.ID, reason, message string, causes []metav1.StatusCause) (model.Finding, bool) {
	if reason != string(metav1.StatusReasonInvalid) {
		return model.Finding{}, false
	}
	var fields []string
	add := func(f string) {
		f = "." + strings.TrimPrefix(f, ".")
		for _, x := range fields {
			if x == f {
				return
			}
		}
		fields = append(fields, f)
	}
	for _, c := range causes {
		if c.Field != "" && immutable(c.Message) {
			add(c.Field)
		}
	}
	if len(fields) == 0 {
		for _, m := range immutableField.FindAllStringSubmatch(message, -1) {
			add(m[1])
		}
	}
	if len(fields) == 0 {
		return model.Finding{}, false
	}
	sort.Strings(fields)
	return model.Finding{
		Category: model.RecreateRequired,
		Reason:   reason,
		Path:     fields[0],
		// The API server names fields in text: read once, here.
		FieldPath: immutablePath(fields[0]),
		Message: fmt.Sprintf("the API server refuses to change %s: immutable, so the apply fails; the object must be deleted and created again. %s",
			model.JoinAnd(fields), loses(id)),
	}, true
}

// immutablePath reads the field an API server's refusal names; nil when
// it is not in the string form (Finding.At reads it as the whole object).
func immutablePath(s string) fieldpath.Path {
	p, err := model.ParsePath(s)
	if err != nil {
		return nil
	}
	return p
}

func immutable(msg string) bool {
	return strings.Contains(msg, "field is immutable") || strings.Contains(msg, "updates to statefulset spec for fields other than") ||
		strings.Contains(msg, "spec is immutable") || strings.Contains(msg, "may not change once set") ||
		strings.Contains(msg, "cannot change roleRef")
}

// loses says who loses what when an object of id's kind is recreated.
func loses(id model.ID) string {
	switch id.Kind {
	case "Deployment", "ReplicaSet", "DaemonSet":
		return "Deleted with --cascade=orphan, its pods keep running; the new object adopts only the pods its selector matches, and the others run unmanaged until deleted by hand."
	case "StatefulSet":
		return "Deleted with --cascade=orphan, its pods and their PersistentVolumeClaims stay; the new StatefulSet adopts the pods by ordinal if its selector matches them."
	case "Job":
		return "Deleting a running Job stops its pods (unless orphaned) and its completion record is lost."
	case "PersistentVolumeClaim":
		return "Deleting the claim can delete its volume and its data, unless the PersistentVolume's reclaim policy is Retain."
	case "Service":
		return "The new Service gets a new cluster IP: clients holding the old one lose it until they resolve the name again."
	case "RoleBinding", "ClusterRoleBinding":
		return "Between the delete and the apply its subjects lose the role's permissions."
	}
	return "Whatever refers to the object loses it between the delete and the apply."
}
