package reliability_test

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/yaml"

	"github.com/ownership-check/ownership-check/internal/kube"
	"github.com/ownership-check/ownership-check/internal/model"
	"github.com/ownership-check/ownership-check/internal/report"
	"github.com/ownership-check/ownership-check/internal/testkit/testcluster"
	"github.com/ownership-check/ownership-check/internal/yamldoc"
)

// The cluster Secret every variant reads, and how the check names its key.
const (
	standInNamespace = "payments"
	standInSecret    = "db-creds"
	standInKey       = "Secret payments/db-creds key password"
)

// standInVariant is a small repository whose one target reads the Secret
// from the cluster and makes an object's name from it (the object named
// by namePrefix and the Secret), fields of another from it (derived,
// derivedPaths), and others with nothing from it (plain).
type standInVariant struct {
	name         string
	files        map[string]string
	namePrefix   string
	derived      string
	derivedPaths []string
	plain        []string
	// The pull request edits derivedFile: a field of derived that no
	// Secret makes ("r: plain"), and adds created, whose field s is made
	// from the Secret.
	derivedFile, created, createdDoc string
}

const discoverFlux = "discover:\n- flux: clusters\n  context: current\n"

func standInVariants() []standInVariant {
	return []standInVariant{
		{
			name: "chart lookup",
			files: map[string]string{
				".ownership-check.yaml":   "targets:\n- name: standin\n  helm: {chart: chart, release: standin, namespace: payments}\n",
				"chart/Chart.yaml":        "apiVersion: v2\nname: standin\nversion: 1.0.0\n",
				"chart/templates/cm.yaml": standInChartTemplate,
			},
			namePrefix:   "x-",
			derived:      "lookup-derived",
			derivedPaths: []string{".data.p", ".data.q"},
			plain:        []string{"lookup-plain"},
			derivedFile:  "chart/templates/cm.yaml",
			created:      "lookup-new",
			createdDoc:   "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: lookup-new\ndata:\n  s: {{ $s.data.password | b64dec | b32enc | quote }}\n",
		},
		{
			name: "Flux Kustomization substituteFrom",
			files: map[string]string{
				".ownership-check.yaml":           discoverFlux,
				"clusters/standin.yaml":           standInKustomization,
				"apps/standin/kustomization.yaml": "resources:\n- cm.yaml\n",
				"apps/standin/cm.yaml":            standInSubstituted,
			},
			namePrefix:   "ks-s-",
			derived:      "ks-derived",
			derivedPaths: []string{".data.short"},
			plain:        []string{"ks-plain"},
			derivedFile:  "apps/standin/cm.yaml",
			created:      "ks-new",
			createdDoc:   "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ks-new\n  namespace: payments\ndata:\n  s: \"${password^^}\"\n",
		},
		{
			name: "Flux HelmRelease valuesFrom",
			files: map[string]string{
				".ownership-check.yaml":            discoverFlux,
				"clusters/standin.yaml":            standInHelmRelease,
				"charts/standin/Chart.yaml":        "apiVersion: v2\nname: standin\nversion: 1.0.0\n",
				"charts/standin/templates/cm.yaml": standInReleaseTemplate,
			},
			namePrefix:   "hr-s-",
			derived:      "hr-derived",
			derivedPaths: []string{".data.v", ".data.w"},
			plain:        []string{"hr-plain"},
			derivedFile:  "charts/standin/templates/cm.yaml",
			created:      "hr-new",
			createdDoc:   "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: hr-new\ndata:\n  s: {{ .Values.someValue | b64enc | quote }}\n",
		},
	}
}

// standInChartTemplate looks the Secret up as `helm upgrade` does and
// turns its value into a name (base32, lower case: past any mask), two
// fields, and nothing of a third object.
const standInChartTemplate = `{{- $s := lookup "v1" "Secret" "payments" "db-creds" }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: x-{{ $s.data.password | b64dec | b32enc | lower | trunc 40 }}
data:
  k: v
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: lookup-derived
data:
  p: {{ $s.data.password | b64dec | sha256sum | quote }}
  q: {{ $s.data.password | b64dec | upper | quote }}
  r: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: lookup-plain
data:
  k: v
`

const standInKustomization = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: standin
  namespace: payments
spec:
  interval: 10m
  path: ./apps/standin
  prune: true
  sourceRef:
    kind: GitRepository
    name: flux-system
    namespace: flux-system
  postBuild:
    substituteFrom:
    - kind: Secret
      name: db-creds
`

// standInSubstituted: "ks-s-" is the name's own prefix, so that the
// object made from the Secret is known by it.
const standInSubstituted = `apiVersion: v1
kind: ConfigMap
metadata:
  name: ks-s-${password,,}
  namespace: payments
data:
  k: v
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ks-derived
  namespace: payments
data:
  short: "${password:0:8}"
  r: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: ks-plain
  namespace: payments
data:
  k: v
`

const standInHelmRelease = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: standin
  namespace: payments
spec:
  interval: 10m
  chart:
    spec:
      chart: ./charts/standin
      sourceRef:
        kind: GitRepository
        name: flux-system
        namespace: flux-system
  valuesFrom:
  - kind: Secret
    name: db-creds
    valuesKey: password
    targetPath: someValue
  values:
    plain: v
`

const standInReleaseTemplate = `apiVersion: v1
kind: ConfigMap
metadata:
  name: hr-s-{{ .Values.someValue | b32enc | lower | trunc 40 }}
data:
  k: v
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: hr-derived
data:
  v: {{ .Values.someValue | sha256sum | quote }}
  w: {{ .Values.someValue | upper | quote }}
  r: plain
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: hr-plain
data:
  k: {{ .Values.plain | quote }}
`

// TestSecretStandIns: a cluster Secret that a chart's lookup, a Flux
// Kustomization's substituteFrom or a Flux HelmRelease's valuesFrom reads
// reaches no byte of check's output, however the repository transforms
// it (case, base32, substrings, hashes): in JSON, markdown and text, the
// report file, render and targets --render, before and after a pull
// request that changes and adds objects, the Secret's values are
// recoverable in none of their forms (canaryForms), not even from the
// live objects the deploy made from them. Each target is still checked: the
// object whose name is made from the Secret is listed as not checked,
// naming the Secret's key; the object with fields made from it is
// checked, with a note that their value is not compared, and no change is
// claimed for it against what the deploy (with the real value) applied;
// the other objects are checked as ever. As the admin, then as the
// checker ServiceAccount of deploy/rbac/with-secrets.
func TestSecretStandIns(t *testing.T) {
	testcluster.Require(t, cluster)
	password, username := secretCanary(t, "Pw"), secretCanary(t, "Us")
	apply(t, cluster.Config(), deployer, map[string]any{
		"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": standInNamespace},
	})
	apply(t, cluster.Config(), "platform", secretObj(standInNamespace, standInSecret, map[string]string{"password": password, "username": username}, nil, "", false))

	admin := cluster.KubeconfigFile(t)
	for _, v := range standInVariants() {
		t.Run("admin/"+v.name, func(t *testing.T) { v.check(t, admin, password, username) })
	}
	if t.Failed() {
		return
	}
	checker := withSecretsChecker(t)
	for _, v := range standInVariants() {
		t.Run("checker/"+v.name, func(t *testing.T) { v.check(t, checker, password, username) })
	}
}

// check deploys the variant's target as its deployer would (the render
// reading the real values), but for the object named from the Secret,
// then checks it as the identity of kubeconfig and searches every output.
func (v standInVariant) check(t *testing.T, kubeconfig, password, username string) {
	root := writeTree(t, v.files)
	gitIn(t, root, "add", "-A")
	gitIn(t, root, "commit", "-q", "-m", "standin")
	t.Chdir(root)
	t.Setenv("KUBECONFIG", kubeconfig)
	t.Setenv("HOME", t.TempDir())
	snapshots := gitRepo(t)

	target, manager := onlyTarget(t)
	v.deploy(t, target, manager, password)

	var seen strings.Builder
	record := func(what string, r result) {
		fmt.Fprintf(&seen, "== %s (exit %d)\n%s\n%s\n", what, r.code, r.stdout, r.stderr)
	}
	reportFile := filepath.Join(t.TempDir(), "report.json")
	checkArgs := func(format string, extra ...string) []string {
		return append([]string{"check", "--target", target, "--kubeconfig", kubeconfig, "--snapshot-repo", snapshots,
			"--output", format, "--report-file", reportFile}, extra...)
	}
	checks := func(phase string, changed bool) {
		for _, c := range []struct {
			format string
			extra  []string
		}{{"json", nil}, {"markdown", []string{"--base", "HEAD"}}, {"text", nil}, {"json", []string{"--base", "HEAD"}}} {
			v.checkOnce(t, fmt.Sprintf("%s: check -o %s %v", phase, c.format, c.extra), checkArgs(c.format, c.extra...), reportFile, target, changed, record, &seen)
		}
		rendered := run(t, "render", "--target", target, "--kubeconfig", kubeconfig)
		record(phase+": render", rendered)
		if rendered.code != 0 || !strings.Contains(rendered.stdout, v.plain[0]) {
			t.Errorf("%s: render --target %s: exit %d\n%s\n%s", phase, target, rendered.code, rendered.stdout, rendered.stderr)
		}
		listed := run(t, "targets", "--render", "--output", "json")
		record(phase+": targets --render", listed)
		if listed.code != 0 {
			t.Errorf("%s: targets --render: exit %d\n%s", phase, listed.code, listed.stderr)
		}
	}
	checks("as deployed", false)
	// The pull request: a field no Secret makes, and a new object with one
	// that a Secret makes.
	edited := strings.Replace(v.files[v.derivedFile], "  r: plain\n", "  r: changed\n", 1) + v.createdDoc
	if err := os.WriteFile(filepath.Join(root, v.derivedFile), []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	checks("changed", true)

	out := seen.String()
	for _, c := range []string{password, username} {
		if found := canaryLeaks(out, c); len(found) > 0 {
			for _, f := range found {
				i := strings.Index(strings.ToLower(out), strings.ToLower(f))
				t.Errorf("a form of the Secret's value is in the output: %q near %q", f, out[max(0, i-200):min(len(out), i+60)])
			}
		}
	}
	t.Logf("searched %d bytes of output", len(out))
}

// checkOnce runs one check, records its output and report file, and
// asserts on its report.
func (v standInVariant) checkOnce(t *testing.T, what string, args []string, reportFile, target string, changed bool, record func(string, result), seen *strings.Builder) {
	t.Helper()
	_ = os.Remove(reportFile)
	r := run(t, args...)
	record(what, r)
	if r.code != 0 && r.code != 1 {
		t.Fatalf("%s: exit %d, want 0 or 1\n%s\n%s", what, r.code, r.stdout, r.stderr)
	}
	b, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatalf("%s: no report file: %v", what, err)
	}
	seen.Write(b)
	switch {
	case strings.Contains(what, "-o json"):
		v.assertReport(t, what, onlyReport(t, target, r.stdout), changed)
	case strings.Contains(what, "-o markdown"):
		if !strings.Contains(r.stdout, standInKey) {
			t.Errorf("%s: does not name %s:\n%s", what, standInKey, r.stdout)
		}
	}
}

// assertReport: the target is checked; the object named from the Secret
// is not, with the reason; the one with fields from it is, with the note,
// and no change is claimed for those fields (changed: the pull request's
// edit of its field r is, and its new object is created, noted too); the
// plain ones are checked as ever.
func (v standInVariant) assertReport(t *testing.T, what string, rep *report.Report, changed bool) {
	t.Helper()
	byName := map[string]report.Object{}
	for _, o := range rep.Objects {
		byName[o.Name] = o
		if strings.HasPrefix(o.Name, v.namePrefix) {
			t.Errorf("%s: %s %s, whose name is made from the Secret, is checked", what, o.Kind, o.Name)
		}
	}
	// The name may be made from the Secret past recognition (base32):
	// then the reason names every key the render was handed.
	named := false
	for _, n := range rep.Notes {
		if strings.Contains(n, "not checked: ") && strings.Contains(n, ": a ConfigMap whose name or namespace is made from ") &&
			strings.Contains(n, standInKey) && strings.HasSuffix(n, ", whose value a check never reads: not checked") {
			named = true
		}
	}
	if !named {
		t.Errorf("%s: no note that the ConfigMap named from %s is not checked: %q", what, standInKey, rep.Notes)
	}
	for _, name := range v.plain {
		o, ok := byName[name]
		if !ok {
			t.Errorf("%s: %s is not checked: %s", what, name, dump(rep))
			continue
		}
		if o.Change != model.ChangeNone || len(o.Notes) > 0 {
			t.Errorf("%s: %s: change %q, notes %q: want none, as deployed", what, name, o.Change, o.Notes)
		}
	}
	o, ok := byName[v.derived]
	if !ok {
		t.Fatalf("%s: %s, with fields made from the Secret, is not checked: %s", what, v.derived, dump(rep))
	}
	assertNotCompared(t, what, o, v.derivedPaths...)
	if strings.Contains(strings.Join(o.Notes, "\n"), ".data.r") {
		t.Errorf("%s: %s: notes %q name .data.r, which no Secret makes", what, v.derived, o.Notes)
	}
	for _, f := range o.Findings {
		t.Errorf("%s: %s: finding %+v", what, v.derived, f)
	}
	// Deployed with the real value: the placeholders must not show as a
	// change; the pull request's edit must.
	wantChange, wantDiff := model.ChangeNone, 0
	if changed {
		wantChange, wantDiff = model.ChangeUpdate, 1
	}
	if o.Change != wantChange || len(o.Diff) != wantDiff || (changed && o.Diff[0].Path != ".data.r") {
		t.Errorf("%s: %s: change %q, diff %+v: want %s at .data.r alone", what, v.derived, o.Change, o.Diff, wantChange)
	}
	wantCreate := 0
	if changed {
		wantCreate = 1
		created, ok := byName[v.created]
		if !ok || created.Change != model.ChangeCreate {
			t.Errorf("%s: %s: %+v, want it created", what, v.created, created)
		}
		assertNotCompared(t, what, created, ".data.s")
	}
	if c := rep.Summary.Changes; c.Update != wantDiff || c.Create != wantCreate {
		t.Errorf("%s: %+v: want %d update and %d create", what, c, wantDiff, wantCreate)
	}
}

// assertNotCompared: o's notes say the fields at paths are made from the
// Secret and not compared.
func assertNotCompared(t *testing.T, what string, o report.Object, paths ...string) {
	t.Helper()
	notes := strings.Join(o.Notes, "\n")
	if !strings.Contains(notes, "from "+standInKey) || !strings.Contains(notes, "value not compared") {
		t.Errorf("%s: %s: notes %q do not say the value from %s is not compared", what, o.Name, o.Notes, standInKey)
	}
	for _, p := range paths {
		if !strings.Contains(notes, p) {
			t.Errorf("%s: %s: notes %q do not name %s", what, o.Name, o.Notes, p)
		}
	}
}

// deploy applies the target's render as its deployer applies it, the
// values read as they are (render --show-secrets reads them, as a deploy
// does), all but the object named from the Secret: the pull request adds
// it. The render must hold the Secret's value, or the search of the
// check's output proves nothing.
func (v standInVariant) deploy(t *testing.T, target, manager, password string) {
	t.Helper()
	r := run(t, "render", "--target", target, "--kubeconfig", cluster.KubeconfigFile(t), "--show-secrets")
	if r.code != 0 {
		t.Fatalf("render --show-secrets: exit %d\n%s", r.code, r.stderr)
	}
	if len(canaryLeaks(r.stdout, password)) == 0 {
		t.Fatalf("the deploy's render holds no form of the value: the search proves nothing\n%s", r.stdout)
	}
	named := false
	for _, d := range yamldoc.Split([]byte(r.stdout)) {
		var m map[string]any
		if err := yaml.Unmarshal(d.Text, &m); err != nil || m == nil {
			continue
		}
		u := unstructured.Unstructured{Object: m}
		if strings.HasPrefix(u.GetName(), v.namePrefix) {
			named = true
			continue
		}
		if u.GetNamespace() == "" {
			u.SetNamespace(standInNamespace)
		}
		apply(t, cluster.Config(), manager, u.Object)
	}
	if !named {
		t.Fatalf("the deploy's render has no object named %s…: the test proves nothing\n%s", v.namePrefix, r.stdout)
	}
}

// onlyTarget is the repository's one checked target and its field manager.
func onlyTarget(t *testing.T) (string, string) {
	t.Helper()
	r := run(t, "targets", "--output", "json")
	if r.code != 0 {
		t.Fatalf("targets: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var list []struct{ Name, FieldManager, Reason string }
	if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 1 {
		t.Fatalf("targets: %v, want one target\n%s", err, r.stdout)
	}
	if list[0].Reason != "" {
		t.Fatalf("target %s is not checked: %s", list[0].Name, list[0].Reason)
	}
	return list[0].Name, list[0].FieldManager
}

// onlyReport is the one report of check --target's JSON array.
func onlyReport(t *testing.T, target, stdout string) *report.Report {
	t.Helper()
	var reps []report.Report
	if err := json.Unmarshal([]byte(stdout), &reps); err != nil || len(reps) != 1 {
		t.Fatalf("check --target %s: %v, want one report\n%s", target, err, stdout)
	}
	if reps[0].Environment != target || len(reps[0].Objects) == 0 {
		t.Fatalf("check --target %s: environment %q with %d objects: the target is not checked\n%s", target, reps[0].Environment, len(reps[0].Objects), stdout)
	}
	return &reps[0]
}

// secretCanary is prefix and 22 random letters and digits, mixed case.
func secretCanary(t *testing.T, prefix string) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	for {
		b := make([]byte, 22)
		for i := range b {
			n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
			if err != nil {
				t.Fatal(err)
			}
			b[i] = alphabet[n.Int64()]
		}
		s := string(b)
		if strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") && strings.ContainsAny(s, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(s, "0123456789") {
			return prefix + s
		}
	}
}

// canaryForms are the forms of a Secret's value a template or a
// substitution can make in one step: as it is, lower and upper case,
// base64 (padded and not), base32 (padded, lower case, not padded), hex,
// its SHA-256, and every 6 consecutive characters of it (canaryLeaks
// ignores case).
func canaryForms(canary string) []string {
	b := []byte(canary)
	sum := sha256.Sum256(b)
	b32 := base32.StdEncoding.EncodeToString(b)
	forms := []string{
		canary, strings.ToLower(canary), strings.ToUpper(canary),
		base64.StdEncoding.EncodeToString(b), base64.RawStdEncoding.EncodeToString(b),
		b32, strings.ToLower(b32), strings.TrimRight(b32, "="), strings.ToLower(strings.TrimRight(b32, "=")),
		hex.EncodeToString(b), hex.EncodeToString(sum[:]),
	}
	for i := 0; i+6 <= len(canary); i++ {
		forms = append(forms, canary[i:i+6])
	}
	return forms
}

// canaryLeaks are the forms of canary in out, case ignored; an encoded
// form is also found by any 16 characters of it, as a template may cut it
// (trunc).
func canaryLeaks(out, canary string) []string {
	lower := strings.ToLower(out)
	var found []string
	for _, f := range canaryForms(canary) {
		f = strings.ToLower(f)
		if strings.Contains(lower, f) {
			found = append(found, f)
			continue
		}
		for i := 0; len(f) > 16 && i+16 <= len(f); i++ {
			if w := f[i : i+16]; strings.Contains(lower, w) {
				found = append(found, w)
				break
			}
		}
	}
	return found
}

// The checker's identity of deploy/rbac (docs/rbac.md).
const (
	checkerNamespace = "ownership-check"
	checkerName      = "ownership-check"
)

// withSecretsChecker applies deploy/rbac/with-secrets as a user would
// and returns a kubeconfig of its ServiceAccount, once the API server
// refuses its real writes.
func withSecretsChecker(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	root, err := testcluster.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	r := run(t, "render", filepath.Join(root, "deploy", "rbac", "with-secrets"))
	if r.code != 0 {
		t.Fatalf("render deploy/rbac/with-secrets: exit %d\n%s", r.code, r.stderr)
	}
	client, err := kube.New(cluster.Config(), "default", 4)
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 2 {
		for _, d := range yamldoc.Split([]byte(r.stdout)) {
			var m map[string]any
			if err := yaml.Unmarshal(d.Text, &m); err != nil || m == nil {
				continue
			}
			u := &unstructured.Unstructured{Object: m}
			if (u.GetKind() == "Namespace") != (pass == 0) {
				continue
			}
			res, err := client.Resource(u.GroupVersionKind(), u.GetNamespace())
			if err != nil {
				t.Fatalf("%s %s: %v", u.GetKind(), u.GetName(), err)
			}
			data, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			force := true
			if _, err := res.Patch(ctx, u.GetName(), types.ApplyPatchType, data, metav1.PatchOptions{FieldManager: "platform", Force: &force}); err != nil {
				t.Fatalf("apply %s %s: %v", u.GetKind(), u.GetName(), err)
			}
		}
	}
	cfg, err := cluster.ServiceAccountConfig(ctx, checkerNamespace, checkerName)
	if err != nil {
		t.Fatal(err)
	}
	adminCS := kubernetes.NewForConfigOrDie(cluster.Config())
	checkerCS := kubernetes.NewForConfigOrDie(cfg)
	// The API server loads policies asynchronously: wait until a real
	// write of the checker is refused.
	var last error
	for i := 0; ; i++ {
		name := fmt.Sprintf("canary-%d", i)
		_, err := checkerCS.CoreV1().ConfigMaps(checkerNamespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
		if err == nil {
			_ = adminCS.CoreV1().ConfigMaps(checkerNamespace).Delete(ctx, name, metav1.DeleteOptions{})
			last = fmt.Errorf("ConfigMap/%s/%s: a real create went through", checkerNamespace, name)
		} else if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "may only dry-run") {
			break
		} else {
			last = err
		}
		if ctx.Err() != nil {
			t.Fatalf("the dry-run-only policy is not enforced: %v", last)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if _, err := checkerCS.CoreV1().Secrets(standInNamespace).Get(ctx, standInSecret, metav1.GetOptions{}); err != nil {
		t.Fatalf("the with-secrets checker cannot read the Secret: %v", err)
	}
	return kubeconfigFor(t, cfg)
}
