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

// lossJSON is named differently under the default tag key and "json".
type lossJSON struct {
	A string `json:"a"`
	B string `json:"-" dynamodbav:"bb"`
	C string `dynamodbav:"cc" json:"c2"`
	D string `dynamodbav:"-" json:"d"`
	E string `dynamodbav:"e"`
}

// holdsOf adds to what the data type declares the table's keys, its
// derived index keys and what the handle tracks, by the table's encoder
// tag key; nil for a data type that holds everything.
func TestHoldsOf(t *testing.T) {
	tb := NewTable(nil, "t", func(o *Options) {
		o.Indexes = []Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
		o.EncoderOptions = func(e *attributevalue.EncoderOptions) { e.TagKey = "json" }
		o.DecoderOptions = func(d *attributevalue.DecoderOptions) { d.TagKey = "json" }
	})
	require.NoError(t, tb.Check())
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
	k := tb.keyOf(item)
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
