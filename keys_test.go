package adjlist_test

import (
	"context"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The key codec through the handles: a node's partition key, an edge's
// sort key, and the ids Decode parses back from keys.
var keyTable = adjlist.NewTable(nil, "t")

func nodeKey(typ, id string) (string, error) {
	pk, _, err := adjlist.NewNode[struct{}](keyTable, typ, "PROFILE").Key(id)
	return pk, err
}

func edgeKey(label, toType, toID string) (string, error) {
	students := adjlist.NewNode[struct{}](keyTable, "STU", "PROFILE")
	_, sk, err := adjlist.NewEdge[struct{}](students, label, adjlist.NewNode[struct{}](keyTable, toType, "M")).Key("a91", toID)
	return sk, err
}

func strItem(pk, sk string) adjlist.Item {
	return adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}
}

// parseNodeKey is the id Node.Decode reads from a node item keyed pk; ok is
// false when pk is no key of typ the codec can have built.
func parseNodeKey(typ, pk string) (string, bool) {
	v, ok, err := adjlist.NewNode[struct{}](keyTable, typ, "PROFILE").Decode(strItem(pk, "PROFILE"))
	return v.ID, ok && err == nil
}

// parseEdgeKey is the target id Edge.Decode reads from the sort key of an
// edge from "a91".
func parseEdgeKey(label, toType, sk string) (string, bool) {
	students := adjlist.NewNode[struct{}](keyTable, "STU", "PROFILE")
	e := adjlist.NewEdge[struct{}](students, label, adjlist.NewNode[struct{}](keyTable, toType, "M"))
	v, ok, err := e.Decode(strItem("STU#a91", sk))
	return v.To, ok && err == nil
}

func TestNodeKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ, id, want string
	}{
		{"STU", "a91", "STU#a91"},
		{"CRS", "math204", "CRS#math204"},
		{"WS", "acme", "WS#acme"},
		{"STU", "a91#ENROLL#CRS#x", "STU#a91%23ENROLL%23CRS%23x"},
		{"STU", "100%", "STU#100%25"},
		{"STU", "%23", "STU#%2523"},
		{"STU", "Ünïcødé 名前", "STU#Ünïcødé 名前"},
		{"STU", "A91", "STU#A91"},
		{"STU", "no\u00a0break", "STU#no\u00a0break"}, // U+00A0 is not a control character
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			got, err := nodeKey(tt.typ, tt.id)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			id, ok := parseNodeKey(tt.typ, got)
			require.True(t, ok)
			assert.Equal(t, tt.id, id)
		})
	}
}

func TestEdgeKey(t *testing.T) {
	t.Parallel()
	tests := []struct {
		label, typ, id, want string
	}{
		{"ENROLL", "CRS", "math204", "ENROLL#CRS#math204"},
		{"ENROLL", "CRS", "cs101", "ENROLL#CRS#cs101"},
		{"ENROLL", "CRS", "x#y", "ENROLL#CRS#x%23y"},
		{"follows-v2", "USER.v1", "_", "follows-v2#USER.v1#_"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got, err := edgeKey(tt.label, tt.typ, tt.id)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			id, ok := parseEdgeKey(tt.label, tt.typ, got)
			require.True(t, ok)
			assert.Equal(t, tt.id, id)
		})
	}
}

func TestKeyLimits(t *testing.T) {
	t.Parallel()
	const prefix = "STU#"
	// "é" is two bytes: limits count UTF-8 bytes, not runes.
	multibyte := func(n int) string { return strings.Repeat("é", n/2) + strings.Repeat("a", n%2) }
	tests := []struct {
		name  string
		build func() (string, error)
		ok    bool
	}{
		{"partition key 2048 bytes", func() (string, error) { return nodeKey("STU", multibyte(2048-len(prefix))) }, true},
		{"partition key 2049 bytes", func() (string, error) { return nodeKey("STU", multibyte(2049-len(prefix))) }, false},
		{"sort key 1024 bytes", func() (string, error) { return edgeKey("ENROLL", "CRS", multibyte(1024-len("ENROLL#CRS#"))) }, true},
		{"sort key 1025 bytes", func() (string, error) { return edgeKey("ENROLL", "CRS", multibyte(1025-len("ENROLL#CRS#"))) }, false},
		{"escaping counts", func() (string, error) { return edgeKey("ENROLL", "CRS", strings.Repeat("#", 338)) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := tt.build()
			if tt.ok {
				require.NoError(t, err)
				assert.True(t, len(k) == maxPartitionKeyLen || len(k) == maxSortKeyLen, "len %d", len(k))
				return
			}
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
			var ke *adjlist.KeyError
			require.ErrorAs(t, err, &ke)
			assert.Contains(t, ke.Reason, "bytes")
		})
	}
}

func TestInvalidKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		build func() (string, error)
	}{
		{"empty id", func() (string, error) { return nodeKey("STU", "") }},
		{"invalid UTF-8", func() (string, error) { return nodeKey("STU", "a\xff") }},
		{"NUL", func() (string, error) { return nodeKey("STU", "a\x00b") }},
		{"newline", func() (string, error) { return nodeKey("STU", "a91\nSTU#b30") }},
		{"escape sequence", func() (string, error) { return nodeKey("STU", "\x1b[2J") }},
		{"DEL", func() (string, error) { return nodeKey("STU", "a\x7f") }},
		{"C1 control", func() (string, error) { return nodeKey("STU", "a\u0085") }},
		{"empty type", func() (string, error) { return nodeKey("", "a91") }},
		{"type with separator", func() (string, error) { return nodeKey("STU#X", "a91") }},
		{"type with escape", func() (string, error) { return nodeKey("ST%", "a91") }},
		{"type with space", func() (string, error) { return nodeKey("S U", "a91") }},
		{"edge empty id", func() (string, error) { return edgeKey("ENROLL", "CRS", "") }},
		{"edge bad label", func() (string, error) { return edgeKey("EN#ROLL", "CRS", "x") }},
		{"edge bad type", func() (string, error) { return edgeKey("ENROLL", "", "x") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.build()
			require.ErrorIs(t, err, adjlist.ErrInvalidKey)
		})
	}
}

func TestParseRejectsForeignKeys(t *testing.T) {
	t.Parallel()
	for _, k := range []string{"", "STU", "STU#", "#a91", "STU#a#91", "STU#a%2", "STU#a%41", "STU#\xff", "S U#a"} {
		_, ok := parseNodeKey("STU", k)
		assert.False(t, ok, "node key %q", k)
	}
	for _, k := range []string{"", "PROFILE", "METADATA", "ENROLL#CRS", "ENROLL#CRS#", "ENROLL#CRS#a#b", "ENROLL##x"} {
		_, ok := parseEdgeKey("ENROLL", "CRS", k)
		assert.False(t, ok, "edge sort key %q", k)
	}
}

// FuzzKeys checks the codec's three promises on arbitrary ids: exact round
// trip, no collision between distinct ids, and no escaped id that reaches
// past the separator (so begins_with prefixes ending in '#' stay exact).
func FuzzKeys(f *testing.F) {
	for _, s := range [][2]string{{"a91", "a9"}, {"a91#ENROLL#CRS#x", "a91"}, {"%23", "#"}, {"%", "%25"}, {"A91", "a91"}, {"é", "e\u0301"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ka, errA := nodeKey("STU", a)
		kb, errB := nodeKey("STU", b)
		if a == "" || !utf8.ValidString(a) || strings.IndexFunc(a, unicode.IsControl) >= 0 {
			require.ErrorIs(t, errA, adjlist.ErrInvalidKey)
			return
		}
		if errA != nil {
			require.ErrorIs(t, errA, adjlist.ErrInvalidKey)
			require.Greater(t, len(a), maxPartitionKeyLen/3-4)
			return
		}
		require.True(t, strings.HasPrefix(ka, "STU#"))
		require.NotContains(t, ka[len("STU#"):], "#", "escaped id holds a separator")
		id, ok := parseNodeKey("STU", ka)
		require.True(t, ok)
		require.Equal(t, a, id)

		ea, err := edgeKey("ENROLL", "CRS", a)
		if err == nil {
			id, ok := parseEdgeKey("ENROLL", "CRS", ea)
			require.True(t, ok)
			require.Equal(t, a, id)
			require.NotContains(t, ea[len("ENROLL#CRS#"):], "#")
		}

		if errB == nil && a != b {
			require.NotEqual(t, ka, kb, "ids %q and %q collide", a, b)
			eb, err := edgeKey("ENROLL", "CRS", b)
			if err == nil && ea != "" {
				require.NotEqual(t, ea, eb)
			}
		}
	})
}

// Every sort key the library builds, not only an edge's, is accepted at
// 1024 bytes and refused one byte later, before any request (the
// nil client would answer ErrInvalidOption, not ErrInvalidKey).
func TestSortKeyLimitEverywhere(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tbl := adjlist.NewTable(nil, "t")
	students := adjlist.NewNode[Student](tbl, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](tbl, "CRS", "METADATA")
	self := adjlist.NewNode[Student](tbl, "STU", "")                     // SK = "STU#" + id
	projects := adjlist.NewCollection[Project](students, "PROJ")         // SK = "PROJ#" + id
	unlabelled := adjlist.NewEdge[Enrollment](students, "", courses)     // SK = "CRS#" + to
	enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses) // index SK = "STU#" + from
	id := func(prefix string, n int) string { return strings.Repeat("x", n-len(prefix)) }
	for _, tt := range []struct {
		name string
		key  func(n int) error
	}{
		{"self-keyed node", func(n int) error { _, _, err := self.Key(id("STU#", n)); return err }},
		{"collection child", func(n int) error { _, _, err := projects.Key("a91", id("PROJ#", n)); return err }},
		{"unlabelled edge", func(n int) error { _, err := unlabelled.Get(ctx, "a91", id("CRS#", n)); return err }},
		{"index sort key", func(n int) error { _, err := enrolled.Get(ctx, id("STU#", n), "math204"); return err }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.NotErrorIs(t, tt.key(maxSortKeyLen), adjlist.ErrInvalidKey)
			assert.ErrorIs(t, tt.key(maxSortKeyLen+1), adjlist.ErrInvalidKey)
		})
	}
}
