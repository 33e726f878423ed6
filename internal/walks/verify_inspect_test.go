package walks

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"

	"github.com/adjlist/adjlist/internal/ddbitem"
)

// The check for undeclared attributes allocates nothing on an item that
// has none: inspecting an item costs the allocations it cost without the
// check.
func TestUndeclaredCheckAllocatesNothing(t *testing.T) {
	s := func(v string) types.AttributeValue { return &types.AttributeValueMemberS{Value: v} }
	n := func(v string) types.AttributeValue { return &types.AttributeValueMemberN{Value: v} }
	names := []string{"GSI1PK", "GSI1SK", "PK", "SK", "name", "version", "year"}
	h := Held{Set: map[string]bool{}, Names: names}
	for _, name := range names {
		h.Set[name] = true
	}
	m := &Model{PartitionKey: "PK", Types: []Type{{Name: "node STU", PKPrefix: "STU#", SKPrefix: "PROFILE",
		Match: func(Item) bool { return true }, Version: "version", Holds: h, Check: func(Item) error { return nil }}}}
	item := Item{"PK": s("STU#a91"), "SK": s("PROFILE"), "name": s("Ann"), "year": n("2"), "version": n("1")}
	var want ddbitem.Attrs
	inspect := func() {
		if _, found := m.Inspect(item, "STU#a91", "PROFILE", &want); len(found) > 0 {
			t.Fatal(found)
		}
	}
	with := testing.AllocsPerRun(100, inspect)
	m.Types[0].Holds = Held{}
	without := testing.AllocsPerRun(100, inspect)
	assert.Equal(t, without, with)

	m.Types[0].Holds = h
	item["nick"] = s("A")
	_, found := m.Inspect(item, "STU#a91", "PROFILE", &want)
	assert.Equal(t, []Finding{{Kind: UndeclaredAttribute, Type: "node STU", Key: Key{PK: "STU#a91", SK: "PROFILE"}, Attribute: "nick", Have: `S "A"`}}, found)
}

// Loses finds an attribute the set does not hold whichever way it looks:
// counting the set's names the item holds (a set not much larger than the
// item), or looking the item's attributes up (a much larger set).
func TestHeldLoses(t *testing.T) {
	s := &types.AttributeValueMemberS{Value: "x"}
	small := Held{Set: map[string]bool{"PK": true, "SK": true, "name": true}, Names: []string{"PK", "SK", "name"}}
	big := Held{Set: map[string]bool{}}
	for _, n := range []string{"PK", "SK", "a", "b", "c", "d", "e", "f", "g", "h"} {
		big.Set[n] = true
		big.Names = append(big.Names, n)
	}
	for _, c := range []struct {
		name string
		h    Held
		item Item
		want bool
	}{
		{"small, all held", small, Item{"PK": s, "SK": s, "name": s}, false},
		{"small, some held", small, Item{"PK": s, "SK": s}, false},
		{"small, one more", small, Item{"PK": s, "SK": s, "name": s, "nick": s}, true},
		{"small, one other", small, Item{"PK": s, "nick": s}, true},
		{"big, all held", big, Item{"PK": s, "SK": s, "h": s}, false},
		{"big, one other", big, Item{"PK": s, "SK": s, "nick": s}, true},
		{"any", Held{}, Item{"nick": s}, false},
	} {
		assert.Equal(t, c.want, c.h.Loses(c.item), c.name)
	}
}
