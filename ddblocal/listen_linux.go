//go:build linux

package ddblocal

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// servedBy reports whether a process of the process group pgid holds the
// TCP socket listening on port, as /proc shows it: ours is true when one
// of the group's open files is that socket. known is false when /proc
// lists no socket listening on port (a sandbox's /proc may show none),
// and then ours means nothing.
func servedBy(pgid, port int) (ours, known bool) {
	sockets := map[string]bool{} // "socket:[inode]", as /proc/PID/fd links read
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		b, err := os.ReadFile(table)
		if err != nil {
			continue
		}
		// "sl local_address rem_address st ... uid timeout inode ...":
		// local_address is hex "0100007F:1F40", st 0A is LISTEN.
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) < 10 || f[3] != "0A" {
				continue
			}
			_, hexPort, ok := strings.Cut(f[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); ok && err == nil && int(p) == port {
				sockets["socket:["+f[9]+"]"] = true
			}
		}
	}
	if len(sockets) == 0 {
		return false, false
	}
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || processGroup(pid) != pgid {
			continue
		}
		dir := filepath.Join("/proc", p.Name(), "fd")
		fds, _ := os.ReadDir(dir)
		for _, fd := range fds {
			if link, err := os.Readlink(filepath.Join(dir, fd.Name())); err == nil && sockets[link] {
				return true, true
			}
		}
	}
	return false, true
}

// processGroup returns the process group of pid from /proc/PID/stat
// ("pid (comm) state ppid pgrp ..."), or -1.
func processGroup(pid int) int {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return -1
	}
	i := strings.LastIndexByte(string(b), ')') // comm may hold spaces and parentheses
	if i < 0 {
		return -1
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 3 {
		return -1
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return -1
	}
	return pgrp
}
