//go:build !unix

package ddblocal

import "os/exec"

// setProcAttrs does nothing where process groups are unavailable.
func setProcAttrs(*exec.Cmd) {}

// killGroup kills the server process itself.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
