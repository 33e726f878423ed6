package adjlist_test

import (
	"errors"
	"strings"
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

// Node.Key: "With an error, pk and sk are "": every handle's Key returns
// no part of a key it refused". Each case's partition key alone is valid,
// so a Key that returned what it had built would return it.
func TestKeyRefusedReturnsNoKey(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "t")
	workspaces := adjlist.NewNode[Workspace](table, "WS", "META")
	bills := adjlist.NewNode[Workspace](table, "BILL", "") // SK = PK: at most 1024 bytes
	projects := adjlist.NewCollection[Project](workspaces, "PROJ")
	tagged := adjlist.NewEdge[Tagging](workspaces, "TAGGED", workspaces)
	follows := adjlist.NewEntity[anyData](table, "follow", "u#{userID}", "f#{followerID}")
	long := strings.Repeat("x", 1100) // fits a partition key, not a sort key
	for name, call := range map[string]func() (string, string, error){
		"Node.Key empty marker": func() (string, string, error) { return bills.Key(long) },
		"Node.Key too long":     func() (string, string, error) { return workspaces.Key(long + long) },
		"Edge.Key":              func() (string, string, error) { return tagged.Key("acme", long) },
		"Collection.Key":        func() (string, string, error) { return projects.Key("acme", long) },
		"Collection.Key empty":  func() (string, string, error) { return projects.Key("acme", "") },
		"Entity.Key":            func() (string, string, error) { return follows.Key("12345", long) },
		"Entity.Key empty":      func() (string, string, error) { return follows.Key("12345", "") },
	} {
		pk, sk, err := call()
		require.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
		assert.Empty(t, pk, name)
		assert.Empty(t, sk, name)
	}
}
