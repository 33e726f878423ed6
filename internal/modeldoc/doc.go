// Package modeldoc describes a single-table model for the root package.
// It builds what adjlist.DescribeModel returns from the handles' plain
// facts: key formats as parts ([Format], matched by [Match]), an item
// type's templates in the table's indexes ([Templates]), the access
// pattern of each request a handle's read sends ([QueryPattern], from
// the built request itself) and the Time to Live attribute
// ([TimeToLive]); the root converts them to its exported types. It draws
// a model as Markdown for Describe ([Markdown]) and as a Mermaid
// flowchart for Model.Mermaid ([Mermaid]), from [Model], which the root
// fills from its own.
package modeldoc

import "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

// Model is what the drawings read of a single-table model: the fields
// of adjlist.Model they need, under the same names, and for the Markdown
// how the table's inverted index is keyed.
type Model struct {
	// Table is the table name, the Markdown's title.
	Table                 string
	PartitionKey, SortKey string
	// InvertedIndex is the index of reverse edge reads, "" for none: the
	// item table's columns in the Markdown, arrows rather than a box in
	// the flowchart.
	InvertedIndex string
	// IndexColumns are the inverted index's key attributes when items
	// carry them as their own ("GSI1PK", "GSI1SK"): the Markdown's item
	// table has a column for each. Empty otherwise.
	IndexColumns []string
	// SortKeyIndex says the inverted index is keyed on the table's sort
	// key (partition) and partition key (sort), which the Markdown notes.
	SortKeyIndex bool
	// PartitionOnly says the inverted index is keyed on the table's sort
	// key alone, which the Markdown notes.
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
	// Attributes are its data attributes' names, in field order.
	Attributes []string
	// Indexes are its keys in the indexes it is in.
	Indexes []Keys
}

// Keys are an item type's key templates in one index, as
// adjlist.ItemKeys has them.
type Keys struct {
	Index, PartitionKey, SortKey string
	Shards                       int
}

// Pattern is one access pattern, as adjlist.Pattern has it: the flowchart
// reads the item type, the call ("Edge.To" draws a reverse arrow) and the
// index, the Markdown the rest.
type Pattern struct {
	Name, Call, Request, KeyCondition, Index, On, Item string
}

// Index is one secondary index, as adjlist.Index has it.
type Index struct {
	Name string
	// Local and Native (keyed on data attributes) say its kind.
	Local, Native    bool
	Projection       types.ProjectionType // "" is ALL
	NonKeyAttributes []string
	// Partition and Sort are its key attributes in order, as
	// adjlist.Index.KeySchema gives them.
	Partition, Sort []string
	// Numbers are its native key attributes typed N, in order.
	Numbers []string
}

// keysIn returns the item type's keys in index name, if it is there.
func (it *Item) keysIn(name string) (Keys, bool) {
	for _, k := range it.Indexes {
		if k.Index == name {
			return k, true
		}
	}
	return Keys{}, false
}
