//go:build !linux

package bench

import "os/exec"

func setProcAttrs(*exec.Cmd) {}

func killGroup(cmd *exec.Cmd) { _ = cmd.Process.Kill() }
