// Package fixture is the API after: Get takes a context, Options.Shards is
// gone, Node.Put returns the written item, New is new.
package fixture

import "context"

// Options configures a Table.
type Options struct {
	Name string
}

// Table is a handle.
type Table struct{ opts Options }

// New returns a Table.
func New(opts Options) *Table { return &Table{opts: opts} }

// Get returns the item with this id.
func (t *Table) Get(ctx context.Context, id string) (string, error) { return id, nil }

// Node is a generic handle.
type Node[N any] struct{}

// Put writes n and returns it.
func (Node[N]) Put(n N) (N, error) { return n, nil }
