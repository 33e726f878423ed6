package keycodec

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

var (
	gsi2     = IndexTarget{Name: "GSI2", PK: []string{"GSI2PK"}, SK: []string{"GSI2SK"}}
	status   = []Part{{Kind: Lit, Text: "STATUS"}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "status"}}
	self     = []Part{{Kind: Self}}
	allowed  = []Kind{Self, Attr}
	noRole   = func(string) string { return "" }
	prefixes = Ctx{Self: "STU#"}
)

func bind(t *testing.T, ix IndexTarget, d Decl) Index {
	t.Helper()
	b, err := Bind(ix, d, nil, Self, allowed, noRole)
	require.NoError(t, err)
	b.Compile(&prefixes)
	return b
}

// The shard of an index partition is FNV-1a of the item's table keys:
// the values pinned here are those items already stored carry.
func TestShardIsStable(t *testing.T) {
	assert.Equal(t, "11", Shard("STU#a91\x00ENROLL#CRS#math204", 16))
	assert.Equal(t, "06", Shard("a91", 10))
	assert.Equal(t, "61", Shard("", 100))
}

func TestBindRefuses(t *testing.T) {
	attr := func(name string) []Part { return []Part{{Kind: Attr, Text: name}} }
	for _, tc := range []struct {
		name string
		ix   IndexTarget
		d    Decl
		want string
	}{
		{"native", IndexTarget{Name: "N", Native: true}, Decl{PK: status}, "a native index"},
		{"inverted", IndexTarget{Name: "GSI1", Inverted: true, PK: []string{"GSI1PK"}}, Decl{PK: status}, "the inverted index"},
		{"local with a partition key", IndexTarget{Name: "LSI1", Local: true, PK: []string{"PK"}, SK: []string{"LSI1SK"}}, Decl{PK: status, SK: self}, "leave PartitionKey zero"},
		{"no partition key", gsi2, Decl{SK: self}, "no PartitionKey"},
		{"no sort key", gsi2, Decl{PK: status}, "SortKey must be given"},
		{"too many shards", gsi2, Decl{PK: status, SK: self, Shards: 101, MaxShards: 100}, "IndexKeys.Shards 101, want 0 to 100"},
		{"sharded local", IndexTarget{Name: "LSI1", Local: true, PK: []string{"PK"}, SK: []string{"LSI1SK"}}, Decl{SK: self, Shards: 2, MaxShards: 100}, "cannot be sharded"},
		{"part not available", gsi2, Decl{PK: []Part{{Kind: Target}}, SK: self}, "part <target> is not available"},
		{"empty attribute", gsi2, Decl{PK: attr(""), SK: self}, `{} names no data attribute`},
		{"own key attribute", gsi2, Decl{PK: attr("GSI2SK"), SK: self}, "declare the index with native keys (Index.SortAttributes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Bind(tc.ix, tc.d, nil, Self, allowed, noRole)
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := Bind(gsi2, Decl{PK: attr("PK"), SK: self}, nil, Self, allowed, func(n string) string { return "the table's partition key" })
	require.EqualError(t, err, `{PK} is a key attribute (the table's partition key), which this package writes, not a data attribute`)
}

// Add and Derived write the same keys; an item lacking the partition
// key's data keeps its sort key alone (sparse).
func TestAddAndDerivedAgree(t *testing.T) {
	b := bind(t, gsi2, Decl{PK: status, SK: self})
	assert.Equal(t, []string{"status"}, b.Attrs)
	assert.Equal(t, "STU#", b.SKPrefix) // the item type's node key prefix
	kc := &Ctx{Self: "STU#a91", PK: "STU#a91", SK: "STU#a91"}
	item := map[string]types.AttributeValue{"status": &types.AttributeValueMemberS{Value: "A#1"}}
	require.NoError(t, Add([]Index{b}, item, kc))
	assert.Equal(t, &types.AttributeValueMemberS{Value: "STATUS#A%231"}, item["GSI2PK"])
	assert.Equal(t, &types.AttributeValueMemberS{Value: "STU#a91"}, item["GSI2SK"])
	want, err := Derived([]Index{b}, item, kc, nil)
	require.NoError(t, err)
	assert.Equal(t, []ddbitem.Attr{{Name: "GSI2PK", Value: "STATUS#A%231"}, {Name: "GSI2SK", Value: "STU#a91"}}, want)

	sparse := map[string]types.AttributeValue{}
	require.NoError(t, Add([]Index{b}, sparse, kc))
	assert.Equal(t, map[string]types.AttributeValue{"GSI2SK": &types.AttributeValueMemberS{Value: "STU#a91"}}, sparse)

	owned := Owned([]Index{b}, "GSI1PK", "GSI1SK")
	assert.Equal(t, []string{"GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK"}, owned)
	assert.Equal(t, []string{"GSI3PK"}, Foreign(map[string]bool{"GSI2PK": true, "GSI3PK": true}, owned))
	assert.Equal(t, []string{"status"}, Feeds([]Index{b}))

	sharded := bind(t, gsi2, Decl{PK: status, SK: self, Shards: 16, MaxShards: 100})
	pk, ok, err := sharded.KeyValue(false, item, kc)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "STATUS#A%231#"+Shard("STU#a91\x00STU#a91", 16), pk)
}

// The lab's manager index: a partition key from a data attribute that only
// managers carry, a sort key of literal text. Kept together, an item
// lacking the partition key's data (absent or empty, the rule that leaves
// a key unwritten) carries neither key; kept apart, it keeps the sort key.
func TestKeysTogether(t *testing.T) {
	title := []Part{{Kind: Attr, Text: "manager_title"}}
	root := []Part{{Kind: Lit, Text: "root"}}
	together := gsi2
	together.Together = true
	kc := &Ctx{Self: "EMP#e1", PK: "EMP#e1", SK: "EMP#e1"}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	manager := []ddbitem.Attr{{Name: "GSI2PK", Value: "CTO"}, {Name: "GSI2SK", Value: "root"}}
	for _, tc := range []struct {
		name string
		ix   IndexTarget
		item map[string]types.AttributeValue
		want []ddbitem.Attr
	}{
		{"manager", together, map[string]types.AttributeValue{"manager_title": s("CTO")}, manager},
		{"employee", together, map[string]types.AttributeValue{}, nil},
		{"empty title", together, map[string]types.AttributeValue{"manager_title": s("")}, nil},
		{"NULL title", together, map[string]types.AttributeValue{"manager_title": &types.AttributeValueMemberNULL{Value: true}}, nil},
		{"manager, kept apart", gsi2, map[string]types.AttributeValue{"manager_title": s("CTO")}, manager},
		{"employee, kept apart", gsi2, map[string]types.AttributeValue{}, []ddbitem.Attr{{Name: "GSI2SK", Value: "root"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bind(t, tc.ix, Decl{PK: title, SK: root})
			got, err := Derived([]Index{b}, tc.item, kc, nil)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			item := map[string]types.AttributeValue{}
			for k, v := range tc.item {
				item[k] = v
			}
			require.NoError(t, Add([]Index{b}, item, kc))
			for _, a := range tc.want {
				assert.Equal(t, s(a.Value), item[a.Name])
				delete(item, a.Name)
			}
			assert.NotContains(t, item, "GSI2PK", "no stray key")
			assert.NotContains(t, item, "GSI2SK", "no stray key")
		})
	}
}
