//go:build linux

package bench

import (
	"os/exec"
	"syscall"
)

// setProcAttrs puts DynamoDB Local in its own process group, killed with
// the JVM's children by killGroup, and by the kernel if this process dies.
func setProcAttrs(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func killGroup(cmd *exec.Cmd) {
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
}
