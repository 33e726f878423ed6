package ddbexpr

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/adjlist/adjlist/internal/keycodec"
)

var (
	gsi2   = keycodec.IndexTarget{Name: "GSI2", PK: []string{"GSI2PK"}, SK: []string{"GSI2SK"}}
	status = []keycodec.Part{{Kind: keycodec.Lit, Text: "STATUS"}, {Kind: keycodec.Lit, Text: "#"}, {Kind: keycodec.Attr, Text: "status"}}
	self   = []keycodec.Part{{Kind: keycodec.Self}}
)

// bind is ix's index with d's templates, bound for an item type whose
// keys are STU#{id}.
func bind(t *testing.T, ix keycodec.IndexTarget, d keycodec.Decl) keycodec.Index {
	t.Helper()
	b, err := keycodec.Bind(ix, d, nil, keycodec.Self, []keycodec.Kind{keycodec.Self, keycodec.Attr}, func(string) string { return "" })
	require.NoError(t, err)
	b.Compile(&keycodec.Ctx{Self: "STU#"})
	return b
}

func TestDeriveUpdate(t *testing.T) {
	b := bind(t, gsi2, keycodec.Decl{PK: status, SK: self})
	kc := &keycodec.Ctx{Self: "STU#a91", PK: "STU#a91", SK: "STU#a91"}
	enc := attributevalue.NewEncoder()
	ops := []Op{{Kind: OpSet, Path: "status", Value: "B"}}
	got, err := DeriveUpdate(ops, []keycodec.Index{b}, kc, enc, nil)
	require.NoError(t, err)
	require.Len(t, ops, 1, "the update's own actions are never changed")
	assert.Equal(t, []Op{ops[0], {Kind: OpSet, Path: "GSI2PK", Value: "STATUS#B"}}, got)

	composite := bind(t, gsi2, keycodec.Decl{PK: append(append([]keycodec.Part(nil), status...), keycodec.Part{Kind: keycodec.Lit, Text: "#"}, keycodec.Part{Kind: keycodec.Attr, Text: "kind"}), SK: self})
	_, err = DeriveUpdate(ops, []keycodec.Index{composite}, kc, enc, nil)
	require.ErrorIs(t, err, errs.ErrInvalidOption)
	_, err = DeriveUpdate([]Op{{Kind: OpRemove, Path: "status"}}, []keycodec.Index{composite}, kc, enc, []string{"kind"})
	require.ErrorIs(t, err, errs.ErrKeyAttribute)
}

// An update of an index whose keys are kept together changes all or none
// of them, and is refused when the stored item's other key is unknown.
func TestDeriveUpdateKeysTogether(t *testing.T) {
	attr := func(name string) []keycodec.Part { return []keycodec.Part{{Kind: keycodec.Attr, Text: name}} }
	root := []keycodec.Part{{Kind: keycodec.Lit, Text: "root"}}
	together := gsi2
	together.Together = true
	kc := &keycodec.Ctx{Self: "EMP#e1", PK: "EMP#e1", SK: "EMP#e1"}
	set := func(name string, v any) Op {
		return Op{Kind: OpSet, Path: name, Value: v}
	}
	remove := func(name string) Op { return Op{Kind: OpRemove, Path: name} }
	for _, tc := range []struct {
		name    string
		pk, sk  []keycodec.Part
		ops     []Op
		keyOnly []string
		want    []Op // after ops
		err     error
		msg     string
	}{
		{name: "promoted", pk: attr("manager_title"), sk: root, ops: []Op{set("manager_title", "CTO")},
			want: []Op{set("GSI2PK", "CTO"), set("GSI2SK", "root")}},
		{name: "demoted: every key goes", pk: attr("manager_title"), sk: root, ops: []Op{remove("manager_title")},
			want: []Op{remove("GSI2PK"), remove("GSI2SK")}},
		{name: "emptied: every key goes", pk: attr("manager_title"), sk: attr("hired"), ops: []Op{set("hired", "")},
			want: []Op{remove("GSI2PK"), remove("GSI2SK")}},
		{name: "untouched", pk: attr("manager_title"), sk: root, ops: []Op{set("name", "Ann")}},
		{name: "both set", pk: attr("manager_title"), sk: attr("hired"), ops: []Op{set("manager_title", "CTO"), set("hired", "2020")},
			want: []Op{set("GSI2PK", "CTO"), set("GSI2SK", "2020")}},
		{name: "other key unknown", pk: attr("manager_title"), sk: attr("hired"), ops: []Op{set("manager_title", "CTO")},
			err: errs.ErrInvalidOption, msg: `index GSI2 keeps its keys together, and the update sets ["manager_title"] for its key GSI2PK but not ["hired"] for its key GSI2SK`},
		{name: "other key unknown, sort key set", pk: attr("manager_title"), sk: attr("hired"), ops: []Op{set("hired", "2020")},
			err: errs.ErrInvalidOption, msg: `not ["manager_title"] for its key GSI2PK`},
		{name: "removal loses a key-only value", pk: attr("manager_title"), sk: attr("hired"), ops: []Op{remove("manager_title")},
			keyOnly: []string{"hired"}, err: errs.ErrKeyAttribute, msg: "index GSI2's key GSI2SK"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := bind(t, together, keycodec.Decl{PK: tc.pk, SK: tc.sk})
			got, err := DeriveUpdate(tc.ops, []keycodec.Index{b}, kc, attributevalue.NewEncoder(), tc.keyOnly)
			if tc.err != nil {
				require.ErrorIs(t, err, tc.err)
				assert.ErrorContains(t, err, tc.msg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, append(append([]Op(nil), tc.ops...), tc.want...), got)
		})
	}
}
