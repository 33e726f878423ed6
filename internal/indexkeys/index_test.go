package indexkeys

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/writeexpr"
)

var (
	gsi2     = Target{Name: "GSI2", PK: []string{"GSI2PK"}, SK: []string{"GSI2SK"}}
	status   = []keycodec.Part{{Kind: keycodec.Const, Text: "STATUS"}, {Kind: keycodec.Lit, Text: "#"}, {Kind: keycodec.Attr, Text: "status"}}
	self     = []keycodec.Part{{Kind: keycodec.Self}}
	allowed  = []keycodec.Kind{keycodec.Self, keycodec.Const, keycodec.Attr}
	noRole   = func(string) string { return "" }
	prefixes = keycodec.Ctx{Self: "STU#"}
)

func bind(t *testing.T, ix Target, d Decl) Index {
	t.Helper()
	b, err := Bind(ix, d, nil, keycodec.Self, allowed, noRole)
	require.NoError(t, err)
	b.Compile(&prefixes)
	return b
}

// The shard of an index partition is FNV-1a of the item's table keys:
// the values pinned here are those items already stored carry.
func TestShardIsStable(t *testing.T) {
	assert.Equal(t, "11", keycodec.Shard("STU#a91\x00ENROLL#CRS#math204", 16))
	assert.Equal(t, "06", keycodec.Shard("a91", 10))
	assert.Equal(t, "61", keycodec.Shard("", 100))
}

func TestBindRefuses(t *testing.T) {
	attr := func(name string) []keycodec.Part { return []keycodec.Part{{Kind: keycodec.Attr, Text: name}} }
	for _, tc := range []struct {
		name string
		ix   Target
		d    Decl
		want string
	}{
		{"native", Target{Name: "N", Native: true}, Decl{PK: status}, "a native index"},
		{"inverted", Target{Name: "GSI1", Inverted: true, PK: []string{"GSI1PK"}}, Decl{PK: status}, "the inverted index"},
		{"local with a partition key", Target{Name: "LSI1", Local: true, PK: []string{"PK"}, SK: []string{"LSI1SK"}}, Decl{PK: status, SK: self}, "leave PartitionKey zero"},
		{"no partition key", gsi2, Decl{SK: self}, "no PartitionKey"},
		{"no sort key", gsi2, Decl{PK: status}, "SortKey must be given"},
		{"too many shards", gsi2, Decl{PK: status, SK: self, Shards: 101, MaxShards: 100}, "IndexKeys.Shards 101, want 0 to 100"},
		{"sharded local", Target{Name: "LSI1", Local: true, PK: []string{"PK"}, SK: []string{"LSI1SK"}}, Decl{SK: self, Shards: 2, MaxShards: 100}, "cannot be sharded"},
		{"part not available", gsi2, Decl{PK: []keycodec.Part{{Kind: keycodec.Target}}, SK: self}, "part <target> is not available"},
		{"empty attribute", gsi2, Decl{PK: attr(""), SK: self}, `Attr("") names no data attribute`},
		{"own key attribute", gsi2, Decl{PK: attr("GSI2SK"), SK: self}, "declare the index with native keys (Index.SortAttributes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Bind(tc.ix, tc.d, nil, keycodec.Self, allowed, noRole)
			require.ErrorContains(t, err, tc.want)
		})
	}
	_, err := Bind(gsi2, Decl{PK: attr("PK"), SK: self}, nil, keycodec.Self, allowed, func(n string) string { return "the table's partition key" })
	require.EqualError(t, err, `Attr("PK") is a key attribute (the table's partition key), which this package writes, not a data attribute`)
	_, err = Bind(gsi2, Decl{PK: []keycodec.Part{{Kind: keycodec.Const, Text: "a b"}}, SK: self}, nil, keycodec.Self, allowed, noRole)
	require.Error(t, err) // KeyError's, which adjlist sets
}

// Add and Derived write the same keys; an item lacking the partition
// key's data keeps its sort key alone (sparse).
func TestAddAndDerivedAgree(t *testing.T) {
	b := bind(t, gsi2, Decl{PK: status, SK: self})
	assert.Equal(t, []string{"status"}, b.Attrs)
	assert.Equal(t, "STU#", b.SKPrefix) // the item type's node key prefix
	kc := &keycodec.Ctx{Self: "STU#a91", PK: "STU#a91", SK: "STU#a91"}
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
	pk, ok, err := sharded.PartitionKey(item, kc)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "STATUS#A%231#"+keycodec.Shard("STU#a91\x00STU#a91", 16), pk)
}

func TestDeriveUpdate(t *testing.T) {
	b := bind(t, gsi2, Decl{PK: status, SK: self})
	kc := &keycodec.Ctx{Self: "STU#a91", PK: "STU#a91", SK: "STU#a91"}
	enc := attributevalue.NewEncoder()
	ops := []writeexpr.Op{{Kind: writeexpr.OpSet, Path: "status", Value: "B"}}
	got, err := DeriveUpdate(ops, []Index{b}, kc, enc, nil)
	require.NoError(t, err)
	require.Len(t, ops, 1, "the update's own actions are never changed")
	assert.Equal(t, []writeexpr.Op{ops[0], {Kind: writeexpr.OpSet, Path: "GSI2PK", Value: "STATUS#B"}}, got)

	composite := bind(t, gsi2, Decl{PK: append(append([]keycodec.Part(nil), status...), keycodec.Part{Kind: keycodec.Lit, Text: "#"}, keycodec.Part{Kind: keycodec.Attr, Text: "kind"}), SK: self})
	_, err = DeriveUpdate(ops, []Index{composite}, kc, enc, nil)
	require.ErrorIs(t, err, errs.ErrInvalidOption)
	_, err = DeriveUpdate([]writeexpr.Op{{Kind: writeexpr.OpRemove, Path: "status"}}, []Index{composite}, kc, enc, []string{"kind"})
	require.ErrorIs(t, err, errs.ErrKeyAttribute)
}

// The lab's manager index: a partition key from a data attribute that only
// managers carry, a sort key of literal text. Kept together, an item
// lacking the partition key's data (absent or empty, the rule that leaves
// a key unwritten) carries neither key; kept apart, it keeps the sort key.
func TestKeysTogether(t *testing.T) {
	title := []keycodec.Part{{Kind: keycodec.Attr, Text: "manager_title"}}
	root := []keycodec.Part{{Kind: keycodec.Lit, Text: "root"}}
	together := gsi2
	together.Together = true
	kc := &keycodec.Ctx{Self: "EMP#e1", PK: "EMP#e1", SK: "EMP#e1"}
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	manager := []ddbitem.Attr{{Name: "GSI2PK", Value: "CTO"}, {Name: "GSI2SK", Value: "root"}}
	for _, tc := range []struct {
		name string
		ix   Target
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

// An update of an index whose keys are kept together changes all or none
// of them, and is refused when the stored item's other key is unknown.
func TestDeriveUpdateKeysTogether(t *testing.T) {
	attr := func(name string) []keycodec.Part { return []keycodec.Part{{Kind: keycodec.Attr, Text: name}} }
	root := []keycodec.Part{{Kind: keycodec.Lit, Text: "root"}}
	together := gsi2
	together.Together = true
	kc := &keycodec.Ctx{Self: "EMP#e1", PK: "EMP#e1", SK: "EMP#e1"}
	set := func(name string, v any) writeexpr.Op {
		return writeexpr.Op{Kind: writeexpr.OpSet, Path: name, Value: v}
	}
	remove := func(name string) writeexpr.Op { return writeexpr.Op{Kind: writeexpr.OpRemove, Path: name} }
	for _, tc := range []struct {
		name    string
		pk, sk  []keycodec.Part
		ops     []writeexpr.Op
		keyOnly []string
		want    []writeexpr.Op // after ops
		err     error
		msg     string
	}{
		{name: "promoted", pk: attr("manager_title"), sk: root, ops: []writeexpr.Op{set("manager_title", "CTO")},
			want: []writeexpr.Op{set("GSI2PK", "CTO"), set("GSI2SK", "root")}},
		{name: "demoted: every key goes", pk: attr("manager_title"), sk: root, ops: []writeexpr.Op{remove("manager_title")},
			want: []writeexpr.Op{remove("GSI2PK"), remove("GSI2SK")}},
		{name: "emptied: every key goes", pk: attr("manager_title"), sk: attr("hired"), ops: []writeexpr.Op{set("hired", "")},
			want: []writeexpr.Op{remove("GSI2PK"), remove("GSI2SK")}},
		{name: "untouched", pk: attr("manager_title"), sk: root, ops: []writeexpr.Op{set("name", "Ann")}},
		{name: "both set", pk: attr("manager_title"), sk: attr("hired"), ops: []writeexpr.Op{set("manager_title", "CTO"), set("hired", "2020")},
			want: []writeexpr.Op{set("GSI2PK", "CTO"), set("GSI2SK", "2020")}},
		{name: "other key unknown", pk: attr("manager_title"), sk: attr("hired"), ops: []writeexpr.Op{set("manager_title", "CTO")},
			err: errs.ErrInvalidOption, msg: `index GSI2 keeps its keys together, and the update sets ["manager_title"] for its key GSI2PK but not ["hired"] for its key GSI2SK`},
		{name: "other key unknown, sort key set", pk: attr("manager_title"), sk: attr("hired"), ops: []writeexpr.Op{set("hired", "2020")},
			err: errs.ErrInvalidOption, msg: `not ["manager_title"] for its key GSI2PK`},
		{name: "removal loses a key-only value", pk: attr("manager_title"), sk: attr("hired"), ops: []writeexpr.Op{remove("manager_title")},
			keyOnly: []string{"hired"}, err: errs.ErrKeyAttribute, msg: "index GSI2's key GSI2SK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bind(t, together, Decl{PK: tc.pk, SK: tc.sk})
			got, err := DeriveUpdate(tc.ops, []Index{b}, kc, attributevalue.NewEncoder(), tc.keyOnly)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				assert.ErrorContains(t, err, tc.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, append(append([]writeexpr.Op(nil), tc.ops...), tc.want...), got)
		})
	}
}
