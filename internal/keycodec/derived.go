// Derived index keys (derived*.go): is an item type's keys in its table's derived-key
// indexes, on plain items: the declarations checked against their index
// ([Bind]), the keys rendered for a write ([Add]) and a walk's check of what
// an item should carry ([Derived], [Owned], [Feeds], [Foreign]); an
// update's changes of the keys it makes stale are ddbexpr.DeriveUpdate.
//
// Package adjlist's IndexKeys, handles, Scan, Verify and Migrate hold the
// declarations and the promises; this package knows only key templates
// (internal/keycodec), attribute names and items. Its errors are
// adjlist's (internal/errs).

package keycodec
