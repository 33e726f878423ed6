//go:build !linux

package ddblocal

// servedBy cannot tell who listens on port without Linux's /proc: known is
// always false. Start's check that the port is free before it launches
// the server still applies.
func servedBy(pgid, port int) (ours, known bool) { return false, false }
