package bench

import (
	"testing"

	"golang.org/x/sys/unix"
)

// CPUTime returns the CPU time this process has used, in nanoseconds
// (CLOCK_PROCESS_CPUTIME_ID: all threads, user and system, GC included).
func CPUTime() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// CPUTimer reports cpu-ns/op next to ns/op. On a shared machine the wall
// clock also counts time spent waiting for a core while other processes
// run; process CPU time does not, so it is the steadier measure of what a
// single-goroutine, CPU-bound benchmark costs. Start it right after
// b.ResetTimer and Stop it right after the loop.
type CPUTimer struct{ start int64 }

func StartCPU() CPUTimer { return CPUTimer{CPUTime()} }

func (c CPUTimer) Stop(b *testing.B) {
	b.ReportMetric(float64(CPUTime()-c.start)/float64(b.N), "cpu-ns/op")
}
