// Drift: these files (drift_*.go) keeps the bookkeeping of adjlist's Verify and Repair that
// works on plain items and keys, apart from the table they read: what a
// walk of the table met of the items that tell of others (Tally), and how
// a stored value is shown in a finding.

package walks

import (
	"maps"
	"strconv"
)

// Tally is what a walk of a table met of the items that tell of others:
// which items exist, which are needed and not met yet, and what each
// counter counted and read. K is an item's key; N is what the caller keeps
// of an item that needs one not met yet. Each segment of a parallel walk
// keeps its own, merged once the walk is done, so that segments share no
// lock per item.
type Tally[K comparable, N any] struct {
	// Met counts the items met per item type, by the caller's index of
	// its types.
	Met []int
	// Seen are the items met that others may need.
	Seen map[K]bool
	// Pending are the items needed and not met, with what needs each.
	Pending map[K][]N
	// Counted and Stored are, per counter (by the caller's index), the
	// edges met and the count read per aggregate item, by its partition
	// key.
	Counted []map[string]int64
	Stored  []map[string]string
}

// NewTally is an empty Tally of a table of types item types and counters
// counters.
func NewTally[K comparable, N any](types, counters int) Tally[K, N] {
	tl := Tally[K, N]{Met: make([]int, types), Seen: map[K]bool{}, Pending: map[K][]N{},
		Counted: make([]map[string]int64, counters), Stored: make([]map[string]string, counters)}
	for c := range counters {
		tl.Counted[c], tl.Stored[c] = map[string]int64{}, map[string]string{}
	}
	return tl
}

// Meet records that item k exists: it is no longer pending.
func (a *Tally[K, N]) Meet(k K) {
	a.Seen[k] = true
	if len(a.Pending) > 0 {
		delete(a.Pending, k)
	}
}

// Need records that n needs item k, unless k was met.
func (a *Tally[K, N]) Need(k K, n N) {
	if !a.Seen[k] {
		a.Pending[k] = append(a.Pending[k], n)
	}
}

// Merge adds what o met to a.
func (a *Tally[K, N]) Merge(o *Tally[K, N]) {
	for i, n := range o.Met {
		a.Met[i] += n
	}
	for k := range o.Seen {
		a.Seen[k] = true
		delete(a.Pending, k)
	}
	for k, ns := range o.Pending {
		if !a.Seen[k] {
			a.Pending[k] = append(a.Pending[k], ns...)
		}
	}
	for c := range o.Counted {
		for pk, n := range o.Counted[c] {
			a.Counted[c][pk] += n
		}
		maps.Copy(a.Stored[c], o.Stored[c])
	}
}

// Unmet lists the pending items whose first needer check accepts, in no
// order.
func (a *Tally[K, N]) Unmet(check func(N) bool) []K {
	var out []K
	for k, ns := range a.Pending {
		if check(ns[0]) {
			out = append(out, k)
		}
	}
	return out
}

// Mismatched lists the partition keys of counter c's aggregates whose
// stored count is not the number of edges counted (an aggregate read
// without a count, or not read while edges were counted, among them), in
// no order.
func (a *Tally[K, N]) Mismatched(c int) []string {
	counted, stored := a.Counted[c], a.Stored[c]
	var out []string
	for pk, n := range counted {
		if have, ok := stored[pk]; !ok && n != 0 || ok && have != strconv.FormatInt(n, 10) {
			out = append(out, pk)
		}
	}
	for pk, have := range stored {
		if _, ok := counted[pk]; !ok && have != "0" {
			out = append(out, pk)
		}
	}
	return out
}
