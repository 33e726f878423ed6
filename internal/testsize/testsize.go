// Package testsize picks the size of a long test by tier. `make test` (the
// README's test command, quick enough for a newcomer) runs each at a size
// that still proves its property; `make stress` sets ADJLIST_STRESS=1 and
// runs the same tests at full size (CI runs both).
package testsize

import (
	"os"
	"testing"
)

// Env is the environment variable that selects the stress tier.
const Env = "ADJLIST_STRESS"

// Stress reports whether the stress tier is selected (Env set and not "0").
func Stress() bool {
	v := os.Getenv(Env)
	return v != "" && v != "0"
}

// Pick returns stress under the stress tier, else quick.
func Pick(quick, stress int) int {
	if Stress() {
		return stress
	}
	return quick
}

// StressOnly skips t outside the stress tier, saying how to run it.
func StressOnly(t testing.TB) {
	t.Helper()
	if !Stress() {
		t.Skipf("stress tier only: run with %s=1 (make stress)", Env)
	}
}
