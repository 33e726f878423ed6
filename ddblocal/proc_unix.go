//go:build unix

package ddblocal

import (
	"os/exec"
	"syscall"
)

// setProcAttrs puts the server in its own process group, so [Server.Stop]
// can kill the JVM and anything it spawned in one go. Being outside the
// terminal's foreground group, it ignores Ctrl-C; the parent-death signal
// (Linux) cleans it up instead if the test binary dies.
func setProcAttrs(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

// killGroup sends SIGKILL to the server's process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	// A negative pid addresses the whole group; the group id is the
	// leader's pid because of Setpgid. Errors (ESRCH: already gone) are
	// irrelevant, as the caller waits for the exit anyway.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
