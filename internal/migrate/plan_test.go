package migrate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ownership-check/ownership-check/internal/model"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/structured-merge-diff/v4/fieldpath"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/config"
	"github.com/ownership-check/ownership-check/internal/ownership"
)

// seed004 is the live Deployment of seed 004: Go-http-client created it,
// the deploy owns only the initContainer's name and image.
const seed004 = `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: prod
  resourceVersion: "42"
  managedFields:
  - manager: deployer
    operation: Apply
    apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
        f:template:
          f:spec:
            f:containers:
              k:{"name":"app"}: {".": {}, "f:image": {}, "f:name": {}}
            f:initContainers:
              k:{"name":"base-os-bash"}: {".": {}, "f:image": {}, "f:name": {}}
  - manager: Go-http-client
    operation: Update
    apiVersion: apps/v1
    fieldsType: FieldsV1
    fieldsV1:
      f:spec:
        f:replicas: {}
        f:template:
          f:spec:
            f:containers:
              k:{"name":"app"}: {".": {}, "f:image": {}, "f:name": {}, "f:imagePullPolicy": {}}
            f:initContainers:
              .: {}
              k:{"name":"base-os-bash"}: {".": {}, "f:command": {}, "f:imagePullPolicy": {}, "f:name": {}}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: "nginx:1.25", imagePullPolicy: IfNotPresent}
      initContainers:
      - {name: base-os-bash, image: "busybox:1.36", command: [bash], imagePullPolicy: IfNotPresent}
`

const withoutInit = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: "nginx:1.25"}
`

const withInit = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: prod}
spec:
  replicas: 1
  template:
    spec:
      containers:
      - {name: app, image: "nginx:1.25"}
      initContainers:
      - {name: base-os-bash, image: "busybox:1.36"}
`

const initItem = `.spec.template.spec.initContainers[name="base-os-bash"]`

func object(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	u := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(s), &u.Object); err != nil {
		t.Fatal(err)
	}
	return u
}

func desired(t *testing.T, s string) model.Object {
	u := object(t, s)
	return model.Object{ID: model.IDOf(u), Object: u}
}

func scope(t *testing.T, s string) *config.Path {
	p, err := config.ParsePath(s)
	if err != nil {
		t.Fatal(err)
	}
	return &p
}

// applied returns live with the plan's managedFields, as the API server
// stores them after the patch.
func applied(t *testing.T, live *unstructured.Unstructured, p *ObjectPlan) *unstructured.Unstructured {
	t.Helper()
	out := live.DeepCopy()
	out.SetManagedFields(p.managedFields)
	return out
}

func TestSplitItemTakenWhole(t *testing.T) {
	for _, tc := range []struct {
		name    string
		desired string
		scope   string
		want    bool
	}{
		{"the config removes the item", withoutInit, "", true},
		{"the config keeps the item, no scope", withInit, "", false},
		{"scope names the item", withInit, initItem, true},
		{"scope names the list", withInit, ".spec.template.spec.initContainers", true},
		{"scope elsewhere", withoutInit, ".spec.template.spec.volumes", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			live := object(t, seed004)
			o := Options{FieldManager: "deployer"}
			if tc.scope != "" {
				o.Scope = scope(t, tc.scope)
			}
			p, err := PlanObject(desired(t, tc.desired), live, o)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.want {
				if !p.Empty() {
					t.Fatalf("plan %+v, want nothing", p.Items)
				}
				return
			}
			if len(p.Items) != 1 || p.Items[0].Path != initItem {
				t.Fatalf("items %+v, want %s alone (the app container is not split where it matters)", p.Items, initItem)
			}
			it := p.Items[0]
			if it.Owners[0].Manager.Manager != "deployer" || len(it.Owners) != 2 || strings.Join(it.Owners[1].Paths, " ") != ". .command .imagePullPolicy .name" {
				t.Errorf("owners %+v", it.Owners)
			}
			if it.Gone != (tc.desired == withoutInit) {
				t.Errorf("gone = %v", it.Gone)
			}
			if !it.Gone && strings.Join(it.Unsent, " ") != ".command .imagePullPolicy" {
				t.Errorf("unsent %v, want the fields the config does not send", it.Unsent)
			}

			after := applied(t, live, p)
			owners, err := ownership.ManagedSets(after)
			if err != nil {
				t.Fatal(err)
			}
			item := fieldpath.MakePathOrDie("spec", "template", "spec", "initContainers",
				fieldpath.KeyByFields("name", "base-os-bash"))
			list := item[:len(item)-1]
			for _, e := range owners {
				switch e.Manager.Manager {
				case "deployer":
					if !e.Fields.Has(append(item.Copy(), fieldpath.PathElement{FieldName: ptr("command")})) {
						t.Errorf("deployer does not own the item whole: %s", e.Fields)
					}
				case "Go-http-client":
					if ownership.Covers(e.Fields, item) || !e.Fields.Has(list) {
						t.Errorf("Go-http-client should keep the list and lose the item: %s", e.Fields)
					}
				}
			}
			again, err := PlanObject(desired(t, tc.desired), after, o)
			if err != nil {
				t.Fatal(err)
			}
			if !again.Empty() {
				t.Errorf("second plan %+v, want nothing (idempotent)", again.Items)
			}
		})
	}
}

func TestPatchPinsResourceVersion(t *testing.T) {
	p, err := PlanObject(desired(t, withoutInit), object(t, seed004), Options{FieldManager: "deployer"})
	if err != nil {
		t.Fatal(err)
	}
	body, err := p.Patch()
	if err != nil {
		t.Fatal(err)
	}
	var ops []map[string]any
	if err := json.Unmarshal(body, &ops); err != nil {
		t.Fatal(err)
	}
	if len(ops) != 2 || ops[0]["path"] != "/metadata/managedFields" || ops[1]["path"] != "/metadata/resourceVersion" || ops[1]["value"] != "42" {
		t.Fatalf("patch %s", body)
	}
	if strings.Contains(string(body), "busybox") || strings.Contains(string(body), `"spec"`) {
		t.Errorf("the patch touches content: %s", body)
	}
}

func TestDifferentVersionsRefused(t *testing.T) {
	live := object(t, strings.Replace(seed004, "operation: Update\n    apiVersion: apps/v1", "operation: Update\n    apiVersion: apps/v1beta2", 1))
	_, err := PlanObject(desired(t, withoutInit), live, Options{FieldManager: "deployer"})
	if err == nil || !strings.HasPrefix(err.Error(), "Deployment.apps/prod/web: ") || !strings.Contains(err.Error(), "apps/v1beta2") {
		t.Fatalf("err = %v, want a refusal naming the object and the versions", err)
	}
}

const csaLive = `
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: prod
  resourceVersion: "7"
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: '{"data":{"mode":"fast","old":"x"}}'
  managedFields:
  - manager: kubectl-client-side-apply
    operation: Update
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data: {".": {}, "f:mode": {}, "f:old": {}}
      f:metadata:
        f:annotations: {".": {}, "f:kubectl.kubernetes.io/last-applied-configuration": {}}
  - manager: deployer
    operation: Apply
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data: {"f:mode": {}, "f:old": {}}
  - manager: helm
    operation: Update
    apiVersion: v1
    fieldsType: FieldsV1
    fieldsV1:
      f:data: {"f:extra": {}}
data: {mode: fast, old: x, extra: "y"}
`

const csaDesired = `
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: prod}
data: {mode: fast}
`

func TestClientSideApplyUpgrade(t *testing.T) {
	live := object(t, csaLive)
	p, err := PlanObject(desired(t, csaDesired), live, Options{FieldManager: "deployer"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Upgrades) != 1 || p.Upgrades[0].Manager.Manager != "kubectl-client-side-apply" || p.Upgrades[0].Reason != ReasonLastApplied {
		t.Fatalf("upgrades %+v", p.Upgrades)
	}
	want := ".data.old .metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"
	if got := strings.Join(p.UpgradeUnsent, " "); got != want {
		t.Errorf("unsent %q, want %q", got, want)
	}
	after := applied(t, live, p)
	for _, e := range after.GetManagedFields() {
		if e.Manager == "kubectl-client-side-apply" {
			t.Errorf("the client-side-apply entry is still there")
		}
	}
	if again, err := PlanObject(desired(t, csaDesired), after, Options{FieldManager: "deployer"}); err != nil || !again.Empty() {
		t.Errorf("second plan %+v, %v: want nothing", again, err)
	}

	// helm is not client-side apply unless named.
	p, err = PlanObject(desired(t, csaDesired), live, Options{FieldManager: "deployer", FromManagers: []string{"helm"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Upgrades) != 2 || p.Upgrades[0].Manager.Manager != "helm" || p.Upgrades[0].Reason != ReasonFromManagers {
		t.Fatalf("upgrades %+v", p.Upgrades)
	}
	if !strings.Contains(strings.Join(p.UpgradeUnsent, " "), ".data.extra") {
		t.Errorf("unsent %v lacks .data.extra", p.UpgradeUnsent)
	}
}

func TestMalformedManagedFields(t *testing.T) {
	live := object(t, strings.Replace(seed004, `k:{"name":"app"}: {".": {}, "f:image": {}, "f:name": {}}`, `k:{}: {}`, 1))
	if _, err := PlanObject(desired(t, withoutInit), live, Options{FieldManager: "deployer"}); err == nil || !strings.HasPrefix(err.Error(), "Deployment.apps/prod/web: ") {
		t.Fatalf("err = %v, want an error naming the object", err)
	}
}

func ptr(s string) *string { return &s }

// TestSharedItemWithFieldsOfItsOwn: the other manager owns only fields M
// owns too, but M owns the image alone; the deploy would remove the image
// and leave the shared rest, so the item is split all the same.
func TestSharedItemWithFieldsOfItsOwn(t *testing.T) {
	live := object(t, strings.Replace(seed004, `k:{"name":"base-os-bash"}: {".": {}, "f:command": {}, "f:imagePullPolicy": {}, "f:name": {}}`,
		`k:{"name":"base-os-bash"}: {".": {}, "f:name": {}}`, 1))
	p, err := PlanObject(desired(t, withoutInit), live, Options{FieldManager: "deployer"})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) != 1 || !p.Items[0].Gone {
		t.Fatalf("items %+v, want the init container", p.Items)
	}
	// deployer first, then the manager whose fields it takes.
	if owners := p.Items[0].Owners; len(owners) != 2 || owners[0].Manager.Manager != "deployer" || owners[1].Manager.String() != "Go-http-client (Update)" {
		t.Errorf("owners %+v, want deployer then Go-http-client (Update)", owners)
	}
}
