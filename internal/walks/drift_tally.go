package walks

import (
	"context"
	"maps"
	"strconv"
)

// Tally is what a walk met: which items exist, which are needed and not
// met yet, and what each counter counted and read. K is an item's key; N
// what the caller keeps of an item that needs one. Each segment keeps its
// own, merged once the walk is done, so that segments share no lock.
type Tally[K comparable, N any] struct {
	Met     []int      // items met per type (the caller's index)
	Seen    map[K]bool // items met that others may need
	Pending map[K][]N  // items needed and not met, with their needers
	// Counted and Stored are, per counter (the caller's index), the items
	// counted and the count read per aggregate item.
	Counted []map[K]int64
	Stored  []map[K]string
}

// NewTally is an empty Tally of types item types and counters counters.
func NewTally[K comparable, N any](types, counters int) Tally[K, N] {
	tl := Tally[K, N]{Met: make([]int, types), Seen: map[K]bool{}, Pending: map[K][]N{},
		Counted: make([]map[K]int64, counters), Stored: make([]map[K]string, counters)}
	for c := range counters {
		tl.Counted[c], tl.Stored[c] = map[K]int64{}, map[K]string{}
	}
	return tl
}

// Meet records that item k exists.
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
		for k, n := range o.Counted[c] {
			a.Counted[c][k] += n
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

// Mismatched lists, in no order, counter c's aggregates whose stored
// count (absent, or not read, among them) is not the number counted.
func (a *Tally[K, N]) Mismatched(c int) []K {
	counted, stored := a.Counted[c], a.Stored[c]
	var out []K
	for k, n := range counted {
		if have, ok := stored[k]; !ok && n != 0 || ok && have != strconv.FormatInt(n, 10) {
			out = append(out, k)
		}
	}
	for k, have := range stored {
		if _, ok := counted[k]; !ok && have != "0" {
			out = append(out, k)
		}
	}
	return out
}

// Missing confirms the items a walk needed and did not meet (keys, with
// pending's needers): get reads them again, then the needers of those
// missing, and found is called for each such needer with it as read now
// (nil when gone). from is a needer's key.
func Missing[K comparable, N any](ctx context.Context, keys []K, pending map[K][]N, from func(N) K,
	get func(context.Context, []K) (map[K]Item, error), found func(missing K, w N, needing Item)) error {
	if len(keys) == 0 {
		return nil
	}
	there, err := get(ctx, keys)
	if err != nil {
		return err
	}
	var missing, needers []K
	for _, k := range keys {
		if there[k] == nil {
			missing = append(missing, k)
			for _, w := range pending[k] {
				needers = append(needers, from(w))
			}
		}
	}
	if len(missing) == 0 {
		return nil
	}
	needing, err := get(ctx, needers)
	if err != nil {
		return err
	}
	for _, k := range missing {
		for _, w := range pending[k] {
			found(k, w, needing[from(w)])
		}
	}
	return nil
}
