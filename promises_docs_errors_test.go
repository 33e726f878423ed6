package adjlist_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// docs/writes.md, Errors: a call that reads or writes the table fails with
// an *OpError (TestOpError); the key helpers, which send nothing (Key of
// every handle, Collection.Ref and ParseRef), return the *KeyError itself,
// matching ErrInvalidKey, with no OpError around it.
func TestKeyHelpersReturnKeyErrors(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	tagged := adjlist.NewEdge[Tagging](workspaces, "TAGGED", workspaces)
	ws := adjlist.NewEntity[Workspace](table, "workspace", "w#{id}", "info")
	for name, call := range map[string]func() error{
		"Node.Key":            func() error { _, _, err := workspaces.Key(""); return err },
		"Edge.Key":            func() error { _, _, err := tagged.Key("acme", ""); return err },
		"Collection.Key":      func() error { _, _, err := projects.Key("acme", ""); return err },
		"Entity.Key":          func() error { _, _, err := ws.Key(""); return err },
		"Collection.Ref":      func() error { _, err := projects.Ref("", "p1"); return err },
		"Collection.ParseRef": func() error { _, _, err := projects.ParseRef("WS#acme"); return err },
	} {
		err := call()
		require.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
		var ke *adjlist.KeyError
		require.ErrorAs(t, err, &ke, name)
		var op *adjlist.OpError
		assert.False(t, errors.As(err, &op), "%s: no OpError: %v", name, err)
	}
}
