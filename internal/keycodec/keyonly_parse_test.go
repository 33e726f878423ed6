package keycodec

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestKeyOnlyParseCorners pins how a value kept only inside an index key
// is read back from the key, through the path a read takes (Index.Compile,
// BindFields, Fill): every key a write renders parses back to its values,
// and a key no write renders (another program's) is read only when it
// parses unambiguously, else refused (the value is not filled).
func TestKeyOnlyParseCorners(t *testing.T) {
	lit := func(s string) Part { return Part{Kind: Lit, Text: s} }
	attr := func(s string) Part { return Part{Kind: Attr, Text: s} }
	field := func(s string) Part { return Part{Kind: Field, Text: s} }
	type row struct {
		ID     string `dynamodbav:"id"`
		Date   string `dynamodbav:"date"`
		Status string `dynamodbav:"status"`
	}
	fields := []string{"id"}
	for _, c := range []struct {
		name   string
		pk, sk []Part // GSI1PK, GSI1SK; pk nil: only the sort key holds date
		shards int
		attr   string // the key attribute read
		key    string
		want   string // "" for not read
	}{
		// Keys a write renders.
		{"alone", nil, []Part{attr("date")}, 0, "GSI1SK", "2026-01-01", "2026-01-01"},
		{"escaped", nil, []Part{attr("date")}, 0, "GSI1SK", "a%23b%25", "a#b%"},
		{"prefixed", nil, []Part{lit("D#"), attr("date")}, 0, "GSI1SK", "D#2026-01-01", "2026-01-01"},
		{"after another", nil, []Part{attr("status"), lit("#"), attr("date")}, 0, "GSI1SK", "open#2026-01-01", "2026-01-01"},
		{"before another", nil, []Part{attr("date"), lit("#"), attr("status")}, 0, "GSI1SK", "2026-01-01#open", "2026-01-01"},
		{"after a key field", nil, []Part{field("id"), lit("#"), attr("date")}, 0, "GSI1SK", "u%231#2026-01-01", "2026-01-01"},
		{"named twice, the same", nil, []Part{attr("date"), lit("#"), attr("date")}, 0, "GSI1SK", "2026-01-01#2026-01-01", "2026-01-01"},
		{"sharded", []Part{lit("D#"), attr("date")}, nil, 4, "GSI1PK", "D#2026-01-01#07", "2026-01-01"},
		// Keys no write of this template renders.
		{"prefix added", nil, []Part{lit("D#"), attr("date")}, 0, "GSI1SK", "2026-01-01", ""},
		{"prefix removed", nil, []Part{attr("date")}, 0, "GSI1SK", "D#2026-01-01", ""},
		{"text after", nil, []Part{attr("date"), lit("#x")}, 0, "GSI1SK", "2026-01-01#y", ""},
		{"a part more", nil, []Part{attr("status"), lit("#"), attr("date")}, 0, "GSI1SK", "2026-01-01", ""},
		{"a part less", nil, []Part{attr("date")}, 0, "GSI1SK", "open#2026-01-01", ""},
		{"malformed escape", nil, []Part{attr("date")}, 0, "GSI1SK", "a%2", ""},
		// Changed corners: the old reader took each of these.
		// An empty value: a write never renders one (an empty value
		// leaves the key unwritten), so "D#" is not date "".
		{"empty value", nil, []Part{lit("D#"), attr("date")}, 0, "GSI1SK", "D#", ""},
		{"empty other value", nil, []Part{attr("status"), lit("#"), attr("date")}, 0, "GSI1SK", "#2026-01-01", ""},
		// Named twice with two values: a write renders one value twice;
		// which of the two is date is ambiguous.
		{"named twice, differing", nil, []Part{attr("date"), lit("#"), attr("date")}, 0, "GSI1SK", "2026-01-01#2026-02-02", ""},
		// The shard suffix is two digits, or none (a key written before
		// the index was sharded), as a table key's shard suffix parses.
		{"sharded, no suffix", []Part{lit("D#"), attr("date")}, nil, 4, "GSI1PK", "D#2026-01-01", "2026-01-01"},
		{"sharded, suffix not a shard", []Part{lit("D#"), attr("date")}, nil, 4, "GSI1PK", "D#2026-01-01#x", ""},
		{"sharded, a segment more", []Part{attr("date")}, nil, 4, "GSI1PK", "2026-01-01#a#07", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := Index{Name: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", PK: c.pk, SK: c.sk, Shards: c.shards}
			if c.pk == nil {
				b.PK = []Part{lit("P")}
			}
			if c.sk == nil {
				b.SK = []Part{lit("S")}
			}
			b.Attrs = append(Attrs(b.PK), Attrs(b.SK)...)
			b.Compile(&Ctx{Fields: fields})
			d, err := BindFields(reflect.TypeOf(row{}), "dynamodbav", fields, []Index{b}, []string{"date"})
			require.NoError(t, err)
			item := Item{c.attr: &types.AttributeValueMemberS{Value: c.key}}
			d.Fill(fields, []string{"u#1"}, item)
			if c.want == "" {
				assert.Nil(t, item["date"], "%s refused", c.key)
				require.Error(t, d.Unreadable(item, "PK", "SK"))
				return
			}
			assert.Equal(t, &types.AttributeValueMemberS{Value: c.want}, item["date"])
			require.NoError(t, d.Unreadable(item, "PK", "SK"))
		})
	}
}

// TestIndexKeyParsesBack: every index key a write renders parses back to
// the values it was rendered from.
func TestIndexKeyParsesBack(t *testing.T) {
	parts := []Part{{Kind: Lit, Text: "F#"}, {Kind: Field, Text: "id"}, {Kind: Lit, Text: "#"}, {Kind: Attr, Text: "status"},
		{Kind: Lit, Text: "#"}, {Kind: Attr, Text: "date"}}
	for _, v := range [][3]string{{"u1", "open", "2026"}, {"a#b", "50%", "x%23"}, {"é", "%25", "#"}} {
		b := Index{Name: "GSI1", PKAttr: "GSI1PK", SKAttr: "GSI1SK", PK: parts, SK: parts, Shards: 7, Attrs: []string{"status", "date", "status", "date"}}
		b.Compile(&Ctx{Fields: []string{"id"}})
		data := Item{"status": &types.AttributeValueMemberS{Value: v[1]}, "date": &types.AttributeValueMemberS{Value: v[2]}}
		type row struct {
			Date string `dynamodbav:"date"`
		}
		d, err := BindFields(reflect.TypeOf(row{}), "dynamodbav", []string{"id"}, []Index{b}, []string{"date"})
		require.NoError(t, err)
		for _, sort := range []bool{false, true} {
			key, ok, err := b.KeyValue(sort, data, &Ctx{Fields: []string{"id"}, IDs: []string{v[0]}, PK: "p", SK: "s"})
			require.NoError(t, err)
			require.True(t, ok)
			attr := map[bool]string{false: "GSI1PK", true: "GSI1SK"}[sort]
			item := Item{attr: &types.AttributeValueMemberS{Value: key}}
			d.Fill([]string{"id"}, []string{v[0]}, item)
			assert.Equal(t, &types.AttributeValueMemberS{Value: v[2]}, item["date"], key)
		}
	}
}
