package modeldoc

import "fmt"

// TimeToLive gathers the Time to Live attribute of item types: the one
// their Tracking.Expiry names (adjlist.Model.TimeToLive).
type TimeToLive struct {
	Attr string
	of   string // the item type that named it first
}

// Add adds item type name's expiry attribute ("" for none); a second,
// different one is an error wrapping invalid (the root's
// ErrInvalidOption): a table has one Time to Live attribute, and the
// other type's items would never expire.
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
