package testcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
)

// process is a server started in its own process group with its output in a
// log file, so that Stop can kill everything it spawned and a failure can
// show what the server said.
type process struct {
	name    string
	cmd     *exec.Cmd
	logPath string
	exited  chan struct{} // closed when the process has been reaped
	waitErr error         // valid after exited is closed
}

func startProcess(name, bin string, args []string, logPath string) (*process, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("testcluster: %s log: %w", name, err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = filepath.Dir(logPath)
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Setpgid: true,
		// A test binary that dies without running Stop (a panic in a test,
		// -timeout) must not leave servers behind.
		Pdeathsig: syscall.SIGKILL,
	}
	if err := cmd.Start(); err != nil {
		logFile.Close()
		return nil, fmt.Errorf("testcluster: start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, logPath: logPath, exited: make(chan struct{})}
	go func() {
		p.waitErr = cmd.Wait()
		logFile.Close()
		close(p.exited)
	}()
	return p, nil
}

func (p *process) hasExited() bool {
	select {
	case <-p.exited:
		return true
	default:
		return false
	}
}

// kill ends the whole process group and waits until the process is reaped.
func (p *process) kill() error {
	if p == nil || p.hasExited() {
		return nil
	}
	err := syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
	if err != nil && !errors.Is(err, syscall.ESRCH) {
		return fmt.Errorf("testcluster: kill %s (pid %d): %w", p.name, p.cmd.Process.Pid, err)
	}
	return nil
}

// exitError describes an early exit, with the end of the log.
func (p *process) exitError() error {
	return fmt.Errorf("testcluster: %s exited early (%v); last lines of %s:\n%s",
		p.name, p.waitErr, p.logPath, p.tail(40))
}

func (p *process) tail(n int) string {
	data, err := os.ReadFile(p.logPath)
	if err != nil {
		return fmt.Sprintf("(cannot read log: %v)", err)
	}
	lines := strings.Split(string(bytes.TrimRight(data, "\n")), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return "    " + strings.Join(lines, "\n    ")
}

func (p *process) logContains(s string) bool {
	data, err := os.ReadFile(p.logPath)
	return err == nil && bytes.Contains(data, []byte(s))
}
