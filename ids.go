package adjlist

import "github.com/adjlist/adjlist/internal/keycodec"

// PaddedID returns a child id whose byte order is its numeric order:
// prefix, '-' (omitted when prefix is empty), and seq zero-padded to width
// digits, e.g.
//
//	PaddedID("2026", 7, 4) == "2026-0007"
//
// so sort keys list children in creation order ([Query.Desc]: newest
// first); an unpadded "10" would sort before "9". Without a counter, use
// ULIDs, whose byte order is their creation time. It returns an error
// matching [ErrInvalidKey] if seq does not fit in width digits or width is
// not 1 to 20.
func PaddedID(prefix string, seq uint64, width int) (string, error) {
	id, err := keycodec.PaddedID(prefix, seq, width)
	return id, keyError(err)
}
