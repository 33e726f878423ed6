package walks_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/internal/walks"
)

// What segments met merges into one tally: an item met in any segment is
// pending in none, the needers of one missing item from every segment are
// kept, counts add up and stored counts join.
func TestTallyMerge(t *testing.T) {
	a, b := walks.NewTally[string, string](2, 1), walks.NewTally[string, string](2, 1)
	a.Met[0]++
	a.Need("CRS#1", "edge a→1")
	a.Need("CRS#2", "edge a→2")
	a.Meet("CRS#3")
	a.Need("CRS#3", "edge a→3") // met already: not pending
	a.Counted[0]["CRS#1"] = 2
	b.Met[0], b.Met[1] = 1, 4
	b.Meet("CRS#2")
	b.Need("CRS#1", "edge b→1")
	b.Counted[0]["CRS#1"] = 1
	b.Stored[0]["CRS#1"] = "3"

	a.Merge(&b)
	assert.Equal(t, []int{2, 4}, a.Met)
	assert.Equal(t, map[string][]string{"CRS#1": {"edge a→1", "edge b→1"}}, a.Pending)
	assert.Equal(t, map[string]bool{"CRS#2": true, "CRS#3": true}, a.Seen)
	assert.Equal(t, map[string]int64{"CRS#1": 3}, a.Counted[0])
	assert.Equal(t, map[string]string{"CRS#1": "3"}, a.Stored[0])
	assert.Empty(t, a.Mismatched(0), "3 counted, 3 stored")

	a.Meet("CRS#1")
	assert.Empty(t, a.Pending)
}

// Unmet lists the pending items whose first needer the check accepts.
func TestTallyUnmet(t *testing.T) {
	tl := walks.NewTally[string, string](0, 0)
	tl.Need("CRS#1", "course")
	tl.Need("CRS#1", "other")
	tl.Need("WS#1", "workspace")
	assert.ElementsMatch(t, []string{"CRS#1"}, tl.Unmet(func(of string) bool { return of == "course" }))
	assert.ElementsMatch(t, []string{"CRS#1", "WS#1"}, tl.Unmet(func(string) bool { return true }))
}

// Mismatched lists the aggregates whose stored count is not the number
// of edges counted: none stored while edges were counted, a count stored
// where none were, a count absent or not a number.
func TestTallyMismatched(t *testing.T) {
	tl := walks.NewTally[string, string](0, 1)
	for pk, n := range map[string]int64{"same": 2, "differs": 2, "unread": 1, "no count": 1} {
		tl.Counted[0][pk] = n
	}
	for pk, have := range map[string]string{"same": "2", "differs": "5", "no count": "", "zero": "0", "stale": "4", "absent count": ""} {
		tl.Stored[0][pk] = have
	}
	assert.ElementsMatch(t, []string{"differs", "unread", "no count", "stale", "absent count"}, tl.Mismatched(0))
}
