// Entity key data (data*.go): is how an Entity's keys relate to the attributes of its
// Go type ([Fields]): a key field the type declares is the item's own
// value, taken from the data on a write and filled in from the keys on a
// read, and an attribute kept only inside keys (EntityOptions.KeyOnly) is
// parsed back from the key that holds it. It also holds the rules for the
// number text a key holds as DynamoDB stores it (number.go).
//
// Package adjlist's Entity keeps one [Fields] and its promises; this
// code works on plain items, ids and the derived index keys (derived*.go),
// returning internal/errs' error values, which adjlist re-exports.

package keycodec
