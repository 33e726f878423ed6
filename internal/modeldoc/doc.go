// Package modeldoc builds what adjlist.DescribeModel returns from the
// handles' plain facts (key formats, templates, each read's access
// pattern from its built request, the Time to Live attribute), which the
// root converts to its exported types, and draws a [Model] as Markdown
// (Describe) and as a Mermaid flowchart (Model.Mermaid).
package modeldoc

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Model is the fields of adjlist.Model the drawings read, under the same
// names, and how the inverted index is keyed.
type Model struct {
	Table                 string // the Markdown's title
	PartitionKey, SortKey string
	// InvertedIndex ("" none) is drawn as the item table's columns, and
	// as arrows rather than a box.
	InvertedIndex string
	// IndexColumns are the inverted index's key attributes when items
	// carry them ("GSI1PK", "GSI1SK"): a column each.
	IndexColumns []string
	// SortKeyIndex: the inverted index is keyed on the table's sort key
	// then partition key; PartitionOnly: on its sort key alone.
	SortKeyIndex   bool
	PartitionOnly  bool
	TimeToLive     string
	Items          []Item
	AccessPatterns []Pattern
	Indexes        []Index
}

// Item is one item type, as adjlist.ItemType has it.
type Item struct {
	Name, Kind, Type, From, To string
	PartitionKey, SortKey      string
	Attributes                 []string // in field order
	Indexes                    []Keys
}

// Keys are adjlist.ItemKeys.
type Keys struct {
	Index, PartitionKey, SortKey string
	Shards                       int
}

// Pattern is adjlist.Pattern.
type Pattern struct {
	Name, Call, Request, KeyCondition, Index, On, Item string
}

// Index is adjlist.Index as the drawings read it.
type Index struct {
	Name             string
	Local, Native    bool
	Projection       types.ProjectionType // "" is ALL
	NonKeyAttributes []string
	Partition, Sort  []string // adjlist.Index.KeySchema's
	Numbers          []string // native key attributes typed N
}

func (it *Item) keysIn(name string) (Keys, bool) {
	for _, k := range it.Indexes {
		if k.Index == name {
			return k, true
		}
	}
	return Keys{}, false
}
