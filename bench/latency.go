package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/url"
	"sync"
	"time"
)

// delayProxy is a TCP proxy that delivers every byte delay later, each
// way: a round trip through it takes 2*delay more, as a hosted runner sees
// a cloud cluster. TLS passes through untouched (the API server's
// certificate names 127.0.0.1, as the proxy's address does).
type delayProxy struct {
	ln    net.Listener
	delay time.Duration
	wg    sync.WaitGroup
}

// startDelayProxy listens on loopback and forwards to upstream (an https
// URL), delay each way.
func startDelayProxy(upstream string, delay time.Duration) (*delayProxy, string, error) {
	u, err := url.Parse(upstream)
	if err != nil {
		return nil, "", err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	p := &delayProxy{ln: ln, delay: delay}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.serve(c, u.Host)
		}
	}()
	return p, fmt.Sprintf("https://%s", ln.Addr()), nil
}

func (p *delayProxy) serve(client net.Conn, upstream string) {
	server, err := net.Dial("tcp", upstream)
	if err != nil {
		client.Close()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	go func() { p.pipe(ctx, server, client); done <- struct{}{} }()
	go func() { p.pipe(ctx, client, server); done <- struct{}{} }()
	<-done
	cancel()
	client.Close()
	server.Close()
	<-done
}

// chunk is bytes read at a time, due delay later.
type chunk struct {
	data []byte
	due  time.Time
}

// pipe copies from src to dst, each chunk delivered delay after it was
// read, in order; reading goes on meanwhile, as a network's bytes are in
// flight together.
func (p *delayProxy) pipe(ctx context.Context, dst io.Writer, src io.Reader) {
	queue := make(chan chunk, 1024)
	go func() {
		defer close(queue)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				select {
				case queue <- chunk{buf[:n], time.Now().Add(p.delay)}:
				case <-ctx.Done():
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range queue {
		if d := time.Until(c.due); d > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
				return
			}
		}
		if _, err := dst.Write(c.data); err != nil {
			return
		}
	}
}

func (p *delayProxy) Close() {
	p.ln.Close()
	p.wg.Wait()
}
