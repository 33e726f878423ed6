package paging

import (
	"errors"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// offers is a Sink in a dealer test: it records the items
// offered to it, takes those whose sort key is in take, and the room it
// was asked to make.
type offers struct {
	take    map[string]bool
	offered []string
	took    []string
	grown   []int
	err     error
}

func (o *offers) Take(_ Item, skAV types.AttributeValue) (bool, error) {
	sk := text(skAV)
	o.offered = append(o.offered, sk)
	if o.err != nil {
		return false, o.err
	}
	if o.take[sk] {
		o.took = append(o.took, sk)
	}
	return o.take[sk], nil
}
func (o *offers) Grow(n int) { o.grown = append(o.grown, n) }
func (o *offers) Reset()     { o.took = nil }

// TestDealer: a read of several item types offers each item only to the
// targets its sort key does not rule out, in order, until one takes it
// (counting the items none takes), and grows each target's slice once per
// page by the items typed as its.
func TestDealer(t *testing.T) {
	t.Parallel()
	item := func(sk string) Item {
		return Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: sk}}
	}
	set := func(sks ...string) map[string]bool {
		m := map[string]bool{}
		for _, sk := range sks {
			m[sk] = true
		}
		return m
	}
	meta := &offers{take: set("#META#p")}
	itemsA := &offers{take: set("ITEMS#1", "ITEMS#2")} // declines ITEMS#bad
	anyKey := &offers{take: set("ITEMS#bad", "NOTE#1")}
	var other int
	d := NewDealer("SK", &other)
	d.Add(meta, "#META#")
	d.Add(itemsA, "ITEMS#")
	d.Add(anyKey, "") // a template starting with a field

	page := []Item{item("#META#p"), item("ITEMS#1"), item("ITEMS#bad"), item("ITEMS#2"), item("NOTE#1"), item("ZZZ")}
	d.Fetched(page)
	for _, it := range page {
		require.NoError(t, d.Deal(it))
	}
	assert.Equal(t, []int{1}, meta.grown)
	assert.Equal(t, []int{3}, itemsA.grown)
	assert.Equal(t, []int{2}, anyKey.grown, "NOTE#1 and ZZZ: typed by no lead")

	// A target of unknown lead first: a lead of text types the items.
	unknown, notes := &offers{}, &offers{}
	first := NewDealer("SK", new(int))
	first.Add(unknown, "")
	first.Add(notes, "NOTE#")
	first.Fetched([]Item{item("NOTE#1"), item("NOTE#2"), item("X")})
	assert.Equal(t, []int{1}, unknown.grown, "X")
	assert.Equal(t, []int{2}, notes.grown)
	assert.Equal(t, []string{"#META#p"}, meta.offered, "only the items whose sort key starts #META#")
	assert.Equal(t, []string{"ITEMS#1", "ITEMS#bad", "ITEMS#2"}, itemsA.offered)
	assert.Equal(t, []string{"ITEMS#bad", "NOTE#1", "ZZZ"}, anyKey.offered, "every item no earlier target took")
	assert.Equal(t, []string{"ITEMS#bad", "NOTE#1"}, anyKey.took)
	assert.Equal(t, 1, other, "ZZZ")

	// An item without sort key text is typed by none: offered to each.
	require.NoError(t, d.Deal(Item{"PK": &types.AttributeValueMemberS{Value: "p"}, "SK": &types.AttributeValueMemberS{Value: ""}}))
	require.NoError(t, d.Deal(Item{"PK": &types.AttributeValueMemberS{Value: "p"}}))
	assert.Equal(t, []string{"#META#p", "", ""}, meta.offered)
	assert.Equal(t, []string{"ITEMS#1", "ITEMS#bad", "ITEMS#2", "", ""}, itemsA.offered)
	assert.Equal(t, []string{"ITEMS#bad", "NOTE#1", "ZZZ", "", ""}, anyKey.offered)
	assert.Equal(t, 3, other)

	// A target's error stops the item there.
	boom := errors.New("boom")
	itemsA.err = boom
	require.ErrorIs(t, d.Deal(item("ITEMS#3")), boom)
	assert.Equal(t, []string{"ITEMS#bad", "NOTE#1", "ZZZ", "", ""}, anyKey.offered, "not offered on")
}
