package kube

import (
	"encoding/base64"
	"net"
	"net/url"
	"os"
	"sort"
	"strings"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ServerText stands for the API server's address in text a pull request
// shows.
const ServerText = "(the API server)"

// CredentialText stands for a credential in text a pull request shows. It
// reads as model.HiddenValue does, so that a reader meets one word for
// anything hidden; kube keeps its own copy because it imports nothing of
// this module, and its test holds the two together.
const CredentialText = "(hidden)"

// Public hides the API server's address and the kubeconfig's credentials
// in text meant for a pull request: its comment, the job summary, the
// report. A pull request is read by more people than the cluster admits;
// the job's log may still name the host. The zero value hides nothing.
type Public struct {
	r *strings.Replacer
}

// Hide returns s without the addresses and credentials.
func (p *Public) Hide(s string) string {
	if p == nil || p.r == nil {
		return s
	}
	return p.r.Replace(s)
}

// PublicFor hides what cfg (a client's REST config) names.
func PublicFor(cfg *rest.Config) *Public {
	b := publicBuilder{}
	if cfg != nil {
		b.server(cfg.Host)
		b.secret(cfg.BearerToken, cfg.Password, string(cfg.KeyData))
	}
	return b.build()
}

// PublicForKubeconfig hides what the kubeconfig the options select names:
// every cluster's server and proxy, and every user's credentials (not only
// the current context's: an error may name any), and the in-cluster
// server when the process runs in a pod.
func PublicForKubeconfig(o LoadOptions) *Public {
	b := publicBuilder{}
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	if o.Kubeconfig != "" {
		rules.ExplicitPath = o.Kubeconfig
	}
	if raw, err := rules.Load(); err == nil {
		for _, c := range raw.Clusters {
			b.server(c.Server)
			b.server(c.ProxyURL)
		}
		for _, ai := range raw.AuthInfos {
			b.secret(ai.Token, ai.Password, string(ai.ClientKeyData))
			if len(ai.ClientKeyData) > 0 {
				b.secret(base64.StdEncoding.EncodeToString(ai.ClientKeyData))
			}
			if ai.AuthProvider != nil {
				for _, v := range ai.AuthProvider.Config {
					b.secret(v)
				}
			}
			if ai.Exec != nil {
				for _, e := range ai.Exec.Env {
					b.secret(e.Value)
				}
			}
		}
	}
	if host := os.Getenv("KUBERNETES_SERVICE_HOST"); host != "" {
		if port := os.Getenv("KUBERNETES_SERVICE_PORT"); port != "" {
			b.server("https://" + net.JoinHostPort(host, port))
		}
		b.server("https://" + host)
	}
	return b.build()
}

type publicBuilder struct {
	hide map[string]string
}

func (b *publicBuilder) add(s, with string) {
	if b.hide == nil {
		b.hide = map[string]string{}
	}
	b.hide[s] = with
}

// server adds an address as a URL, host:port and host. A bare host is
// hidden only when it reads as an address (an IP, a domain name): a
// cluster named "kubernetes" must not garble every "kubernetes.io".
func (b *publicBuilder) server(s string) {
	if s == "" {
		return
	}
	b.add(strings.TrimSuffix(s, "/"), ServerText)
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return
	}
	b.add(u.Scheme+"://"+u.Host, ServerText)
	b.add(u.Host, ServerText)
	if h := u.Hostname(); strings.ContainsAny(h, ".:") {
		b.add(h, ServerText)
	}
}

// secret adds credentials, however short: a garbled message is
// acceptable, a leaked token is not. Lines are hidden one by one, since a
// key is multi-line.
func (b *publicBuilder) secret(values ...string) {
	for _, v := range values {
		for _, l := range strings.Split(v, "\n") {
			if l = strings.TrimSpace(l); len(l) >= 4 && !strings.HasPrefix(l, "-----") {
				b.add(l, CredentialText)
			}
		}
	}
}

func (b *publicBuilder) build() *Public {
	if len(b.hide) == 0 {
		return &Public{}
	}
	olds := make([]string, 0, len(b.hide))
	for s := range b.hide {
		olds = append(olds, s)
	}
	// Longest first, so that a URL goes whole before its host.
	sort.Slice(olds, func(i, j int) bool {
		if len(olds[i]) != len(olds[j]) {
			return len(olds[i]) > len(olds[j])
		}
		return olds[i] < olds[j]
	})
	pairs := make([]string, 0, 2*len(olds))
	for _, s := range olds {
		pairs = append(pairs, s, b.hide[s])
	}
	return &Public{r: strings.NewReplacer(pairs...)}
}
