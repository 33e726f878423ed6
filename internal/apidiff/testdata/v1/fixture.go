// Package fixture is the API before: the base revision of the tests.
package fixture

// Options configures a Table.
type Options struct {
	Name   string
	Shards int
}

// Table is a handle.
type Table struct{ opts Options }

// Get returns the item with this id.
func (t *Table) Get(id string) (string, error) { return id, nil }

// Node is a generic handle.
type Node[N any] struct{}

// Put writes n.
func (Node[N]) Put(n N) error { return nil }
