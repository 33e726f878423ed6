package modeldoc

import "fmt"

// TimeToLive gathers item types' Tracking.Expiry (adjlist.Model.TimeToLive).
type TimeToLive struct {
	Attr string
	of   string // the item type that named it first
}

// Add adds item type name's expiry ("" none); a different second one
// wraps invalid: a table has one, so the other's items would never expire.
func (ttl *TimeToLive) Add(expiry, name string, invalid error) error {
	switch {
	case expiry == "":
	case ttl.Attr == "":
		ttl.Attr, ttl.of = expiry, name
	case expiry != ttl.Attr:
		return fmt.Errorf("%w: %s and %s name different Tracking.Expiry attributes, %q and %q; a table has one Time to Live attribute",
			invalid, ttl.of, name, ttl.Attr, expiry)
	}
	return nil
}
