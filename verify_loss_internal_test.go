package adjlist

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The struct shapes attributevalue names fields of: tags, skipped and
// unexported fields, embedded structs (unexported, by pointer, twice at
// one depth), and names that hide each other.
type (
	lossInner struct {
		A string
		B string `dynamodbav:"b"`
	}
	lossOther struct {
		A string
		B string `dynamodbav:"b"`
	}
	lossTagged struct {
		W string `dynamodbav:"A"`
	}
	lossWrap1 struct{ lossInner }
	lossWrap2 struct{ lossInner }
	lossPlain struct {
		Name   string `dynamodbav:"name,omitempty"`
		Plain  int
		Skip   string `dynamodbav:"-"`
		Empty  string `dynamodbav:",omitempty"`
		hidden string
		Nested lossInner `dynamodbav:"nested"`
	}
	lossEmbedded struct {
		lossInner             // unexported type: its fields are promoted
		*lossTagged           // by pointer
		A           string    // hides lossInner.A
		Named       lossOther `dynamodbav:"named"` // a tag name: not flattened
	}
	lossConflict struct {
		lossInner // A and b at depth 1 ...
		lossOther // ... twice: both hidden
		Z         string
	}
	lossTagWins struct {
		lossOther  // A untagged at depth 1
		lossTagged // A tagged at depth 1: wins
	}
	lossTwice struct {
		lossWrap1 // lossInner at depth 2 ...
		lossWrap2 // ... twice: its names hide each other
		C         string
	}
	lossJSON struct {
		A string `json:"a"`
		B string `json:"-" dynamodbav:"bb"`
		C string `dynamodbav:"cc" json:"c2"`
		D string `dynamodbav:"-" json:"d"`
		E string `dynamodbav:"e"`
	}
	// lossSelf marshals itself: its attributes cannot be known.
	lossSelf struct{ A string }
)

func (*lossSelf) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{}}, nil
}

// declaredAttrs names the attributes attributevalue's encoder writes for
// a value whose every field is set, under the default tag key and a
// custom one; maps, interfaces and types that marshal themselves hold
// every attribute.
func TestDeclaredAttrs(t *testing.T) {
	in := lossInner{A: "a", B: "b"}
	for _, c := range []struct {
		name   string
		v      any
		tagKey string
		want   []string
	}{
		{"tags, skips, nesting", lossPlain{Name: "n", Plain: 1, Skip: "s", Empty: "e", hidden: "h", Nested: in}, "", []string{"Empty", "Plain", "name", "nested"}},
		{"embedded", lossEmbedded{lossInner: in, lossTagged: &lossTagged{W: "w"}, A: "a", Named: lossOther(in)}, "", []string{"A", "b", "named"}},
		{"the same names at one depth", lossConflict{lossInner: in, lossOther: lossOther(in), Z: "z"}, "", []string{"Z"}},
		{"a tag wins at its depth", lossTagWins{lossOther: lossOther(in), lossTagged: lossTagged{W: "w"}}, "", []string{"A", "b"}},
		{"one type embedded twice", lossTwice{lossWrap1: lossWrap1{in}, lossWrap2: lossWrap2{in}, C: "c"}, "", []string{"C"}},
		{"pointer", &lossPlain{Name: "n", Plain: 1, Empty: "e", Nested: in}, "", []string{"Empty", "Plain", "name", "nested"}},
		{"default tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, "", []string{"A", "bb", "cc", "e"}},
		{"json tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, "json", []string{"a", "c2", "d", "e"}},
		{"dynamodbav tag key", lossJSON{A: "a", B: "b", C: "c", D: "d", E: "e"}, defaultTagKey, []string{"A", "bb", "cc", "e"}},
		{"empty struct", struct{}{}, "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, all := declaredAttrs(reflect.TypeOf(c.v), c.tagKey)
			require.False(t, all)
			slices.Sort(got)
			assert.Equal(t, c.want, got)

			enc := attributevalue.NewEncoder(func(o *attributevalue.EncoderOptions) {
				if c.tagKey != "" {
					o.TagKey = c.tagKey
				}
			})
			av, err := enc.Encode(c.v)
			require.NoError(t, err)
			m, ok := av.(*types.AttributeValueMemberM)
			require.True(t, ok)
			var written []string
			for name := range m.Value {
				written = append(written, name)
			}
			slices.Sort(written)
			assert.Equal(t, c.want, written, "what attributevalue writes")
		})
	}
	for _, typ := range []reflect.Type{
		reflect.TypeFor[map[string]any](), reflect.TypeFor[map[string]types.AttributeValue](), reflect.TypeFor[*map[string]int](),
		reflect.TypeFor[any](), reflect.TypeFor[lossSelf](), reflect.TypeFor[*lossSelf](),
	} {
		names, all := declaredAttrs(typ, "")
		assert.True(t, all, "%v holds every attribute", typ)
		assert.Nil(t, names)
	}
}

// holdsOf adds to what the data type declares the table's keys, its
// derived index keys and what the handle tracks, by the table's encoder
// tag key; nil for a data type that holds everything.
func TestHoldsOf(t *testing.T) {
	tb := NewTable(nil, "t", func(o *Options) {
		o.Indexes = []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		o.EncoderOptions = func(e *attributevalue.EncoderOptions) { e.TagKey = "json" }
	})
	got := tb.holdsOf(reflect.TypeFor[lossJSON](), &tracking{version: "v", expiry: "ttl"})
	want := []string{"GSI1PK", "GSI1SK", "GSI2PK", "GSI2SK", "PK", "SK", "a", "c2", "d", "e", "ttl", "v"}
	assert.Equal(t, want, got.names)
	assert.Equal(t, want, slices.Sorted(maps.Keys(got.set)))
	assert.Zero(t, tb.holdsOf(reflect.TypeFor[map[string]any](), &tracking{}))
}

// The check for undeclared attributes allocates nothing on an item that
// has none: inspecting an item costs the allocations it cost without the
// check.
func TestUndeclaredCheckAllocatesNothing(t *testing.T) {
	tb := NewTable(nil, "t")
	type student struct {
		Name string `dynamodbav:"name"`
		Year int    `dynamodbav:"year"`
	}
	students := NewNode[student](tb, "STU", "PROFILE", func(o *NodeOptions) { o.Tracking = Tracking{Version: "version"} })
	item, _, err := students.item("a91", student{Name: "Ann", Year: 2}, true, nil)
	require.NoError(t, err)
	v := newVerifier(tb, 1)
	require.NotNil(t, v.types[0].holds.set)
	var want keyAttrs
	k := itemKeyOf(tb, item)
	inspect := func() {
		if _, found := v.inspectAt(item, k, &want); len(found) > 0 {
			t.Fatal(found)
		}
	}
	with := testing.AllocsPerRun(100, inspect)
	v.types[0].holds = held{}
	without := testing.AllocsPerRun(100, inspect)
	assert.Equal(t, without, with)
}

// loses finds an attribute the set does not hold whichever way it looks:
// counting the set's names the item holds (a set not much larger than the
// item), or looking the item's attributes up (a much larger set).
func TestHeldLoses(t *testing.T) {
	s := &types.AttributeValueMemberS{Value: "x"}
	small := held{set: map[string]bool{"PK": true, "SK": true, "name": true}, names: []string{"PK", "SK", "name"}}
	big := held{set: map[string]bool{}}
	for _, n := range []string{"PK", "SK", "a", "b", "c", "d", "e", "f", "g", "h"} {
		big.set[n] = true
		big.names = append(big.names, n)
	}
	for _, c := range []struct {
		name string
		h    held
		item Item
		want bool
	}{
		{"small, all held", small, Item{"PK": s, "SK": s, "name": s}, false},
		{"small, some held", small, Item{"PK": s, "SK": s}, false},
		{"small, one more", small, Item{"PK": s, "SK": s, "name": s, "nick": s}, true},
		{"small, one other", small, Item{"PK": s, "nick": s}, true},
		{"big, all held", big, Item{"PK": s, "SK": s, "h": s}, false},
		{"big, one other", big, Item{"PK": s, "SK": s, "nick": s}, true},
		{"any", held{}, Item{"nick": s}, false},
	} {
		assert.Equal(t, c.want, c.h.loses(c.item), c.name)
	}
}
