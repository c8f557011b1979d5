// Package testcluster runs a real etcd and kube-apiserver on loopback for
// tests. Server-Side Apply merging, managedFields, dry-run, validation and
// RBAC are the API server's behaviour; no fake clientset reproduces them, so
// every test that depends on them talks to this one.
//
// A package that needs the cluster starts it once in TestMain:
//
//	var cluster *testcluster.Cluster
//
//	func TestMain(m *testing.M) { os.Exit(testcluster.Run(m, &cluster)) }
//
//	func TestSomething(t *testing.T) {
//		testcluster.Require(t, cluster)
//		cfg := cluster.Config()
//		...
//	}
//
// With -short no cluster is started and Require skips.
//
// There are no controllers: nothing reconciles, no ServiceAccount "default"
// appears in new namespaces, and tests act as the other field managers
// themselves.
package testcluster
