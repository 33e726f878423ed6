package adjlist

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/internal/verify"
)

// Every FindingKind is the verify.Kind that package verify inspects,
// formats and repairs by: the two spell the same strings.
func TestFindingKindsAreVerifyKinds(t *testing.T) {
	for kind, want := range map[FindingKind]verify.Kind{
		FindingUnknownItem: verify.UnknownItem, FindingUndecodable: verify.Undecodable,
		FindingIndexKeyMissing: verify.IndexKeyMissing, FindingIndexKeyStale: verify.IndexKeyStale,
		FindingIndexKeyExtra: verify.IndexKeyExtra, FindingDanglingEdge: verify.DanglingEdge,
		FindingOrphan: verify.Orphan, FindingCounterMismatch: verify.CounterMismatch,
		FindingBadVersion: verify.BadVersion, FindingKeyMismatch: verify.KeyMismatch,
		FindingUndeclaredAttribute: verify.UndeclaredAttribute, FindingBadExpiry: verify.BadExpiry,
		FindingMisplaced: verify.Misplaced,
	} {
		assert.Equal(t, string(want), string(kind))
	}
}
