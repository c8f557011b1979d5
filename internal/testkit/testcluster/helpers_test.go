package testcluster_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
)

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func clientset(t *testing.T) kubernetes.Interface {
	t.Helper()
	cs, err := kubernetes.NewForConfig(cluster.Config())
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

var (
	nsCounter atomic.Int64
	nsInvalid = regexp.MustCompile(`[^a-z0-9-]+`)
)

// newNamespace gives each test its own namespace: there is no namespace
// controller, so namespaces cannot be deleted and reused.
func newNamespace(t *testing.T, cs kubernetes.Interface) string {
	t.Helper()
	name := strings.Trim(nsInvalid.ReplaceAllString(strings.ToLower(t.Name()), "-"), "-")
	if len(name) > 50 {
		name = name[:50]
	}
	name = fmt.Sprintf("%s-%d", name, nsCounter.Add(1))
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
	if _, err := cs.CoreV1().Namespaces().Create(testContext(t), ns, metav1.CreateOptions{}); err != nil {
		t.Fatalf("Namespace/%s: %v", name, err)
	}
	return name
}

// owner is a managedFields entry's identity: the same manager name with
// another operation or subresource is another owner.
type owner struct {
	Manager, Operation, Subresource string
}

func (o owner) String() string {
	if o.Subresource == "" {
		return o.Manager + "/" + o.Operation
	}
	return o.Manager + "/" + o.Operation + "/" + o.Subresource
}

func ownedFields(t *testing.T, obj metav1.Object) map[owner]*fieldpath.Set {
	t.Helper()
	out := map[owner]*fieldpath.Set{}
	for _, e := range obj.GetManagedFields() {
		set := &fieldpath.Set{}
		if e.FieldsV1 != nil {
			if err := set.FromJSON(bytes.NewReader(e.FieldsV1.Raw)); err != nil {
				t.Fatalf("%s: fieldsV1: %v", e.Manager, err)
			}
		}
		out[owner{e.Manager, string(e.Operation), e.Subresource}] = set
	}
	return out
}

// ownersOf lists who owns a field path, e.g. ".spec.replicas".
func ownersOf(t *testing.T, obj metav1.Object, path fieldpath.Path) []string {
	t.Helper()
	var owners []string
	for o, set := range ownedFields(t, obj) {
		if set.Has(path) {
			owners = append(owners, o.String())
		}
	}
	return owners
}
