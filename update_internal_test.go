package adjlist

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbexpr"
)

type upProject struct {
	Status    string `dynamodbav:"status"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// TestUpdateImmutable: methods return new Updates; building one for a
// request, with the handle's own clauses, leaves the caller's value as it
// was, and two Updates grown from one never share actions.
func TestUpdateImmutable(t *testing.T) {
	t.Parallel()
	base := Set("a", 1)
	withB := base.Set("b", 2)
	withC := base.Set("c", 3)
	require.Len(t, base.ops, 1)
	assert.Equal(t, "b", withB.ops[1].Path)
	assert.Equal(t, "c", withC.ops[1].Path, "withC must not overwrite withB's action")
	assert.Equal(t, "b", withB.ops[1].Path)

	table := NewTable(nil, "t", func(o *Options) {
		o.Indexes = []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	projects := NewNode[upProject](table, "P", "", func(o *NodeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("S#{status}"), SortKey: Template("{@self}")}}
		o.Tracking = Tracking{Version: "version"}
	})
	k, err := projects.keyed("p1")
	require.NoError(t, err)
	w, err := projects.handle().change(actUpdate, nil, nil, &WriteOptions{Version: 4})
	require.NoError(t, err)
	pk, sk := k.kc.PK, k.kc.SK
	u := Set("status", "DONE")
	first, _, err := table.buildUpdate(&projects.it, projects.keyCtx(pk, sk), u, w)
	require.NoError(t, err)
	second, _, err := table.buildUpdate(&projects.it, projects.keyCtx(pk, sk), u, w)
	require.NoError(t, err, "the same Update builds again")
	assert.Equal(t, *first.Update(), *second.Update())
	// The condition names PK and version first; then status, version
	// (to 5) and GSI2PK are SET.
	assert.Equal(t, "SET #2 = :1, #1 = :2, #3 = :3\n", *first.Update())
	assert.Equal(t, map[string]string{"#0": "PK", "#1": "version", "#2": "status", "#3": "GSI2PK"}, first.Names())
	assert.Len(t, u.ops, 1, "the caller's Update is unchanged")
}

// TestDeriveIndexUpdate: index keys follow from what an Update does,
// read from its actions, without DynamoDB.
func TestDeriveIndexUpdate(t *testing.T) {
	t.Parallel()
	table := NewTable(nil, "t", func(o *Options) {
		o.Indexes = []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	projects := NewNode[upProject](table, "P", "", func(o *NodeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("S#{status}"), SortKey: Template("{createdAt}#{@self}")}}
	})
	kc := projects.keyCtx("P#p1", "P#p1")
	type change struct {
		kind ddbexpr.Kind
		path string
		val  any
	}
	for _, tc := range []struct {
		name    string
		u       Update
		derived []change // the actions added after u's own
		err     error
	}{
		{"plain set", Set("status", "DONE"), []change{{ddbexpr.OpSet, "GSI2PK", "S#DONE"}}, nil},
		{"both parts of the sort key", Set("createdAt", "2026").Set("status", "A"), []change{{ddbexpr.OpSet, "GSI2PK", "S#A"}, {ddbexpr.OpSet, "GSI2SK", "2026#P#p1"}}, nil},
		{"remove leaves the index", Remove("status"), []change{{ddbexpr.OpRemove, "GSI2PK", nil}}, nil},
		{"empty string leaves the index", Set("status", ""), []change{{ddbexpr.OpRemove, "GSI2PK", nil}}, nil},
		{"NULL leaves the index", Set("status", nil), []change{{ddbexpr.OpRemove, "GSI2PK", nil}}, nil},
		{"unrelated attribute", Set("title", "x"), nil, nil},
		{"arithmetic refused", Update{}.SetTo("status", expression.Name("status").Plus(expression.Value(1))), nil, ErrInvalidOption},
		{"ADD refused", Update{}.Add("createdAt", 1), nil, ErrInvalidOption},
		{"nested path refused", Set("status.x", "y"), nil, ErrInvalidOption},
		{"a map value refused", Set("status", map[string]int{"a": 1}), nil, ErrInvalidOption},
		{"control character refused", Set("status", "A\x00"), nil, ErrInvalidKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := deriveIndexUpdate(tc.u, projects.it.indexes, kc, table.enc, nil)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			var added []change
			for _, op := range got.ops[len(tc.u.ops):] {
				added = append(added, change{op.Kind, op.Path, op.Value})
			}
			assert.Equal(t, tc.derived, added)
		})
	}
	// A composite key (createdAt + id) given in part is refused.
	composite := NewNode[upProject](table, "Q", "", func(o *NodeOptions) {
		o.Indexes = []IndexKeys{{Index: "GSI2", PartitionKey: Template("{status}#{createdAt}"), SortKey: Template("{@self}")}}
	})
	_, err := deriveIndexUpdate(Set("status", "A"), composite.it.indexes, composite.keyCtx("Q#q", "Q#q"), table.enc, nil)
	require.ErrorIs(t, err, ErrInvalidOption)
	assert.ErrorContains(t, err, "set them all")
}
