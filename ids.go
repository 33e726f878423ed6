package adjlist

import "github.com/adjlist/adjlist/internal/keycodec"

// PaddedID returns a child id whose byte order is its numeric order:
// prefix, '-' (omitted when prefix is empty), and seq zero-padded to
// width digits, e.g.
//
//	PaddedID("2026", 7, 4) == "2026-0007"
//
// With a time-ordered prefix (a year, a date) and a per-prefix sequence,
// sort keys then list children in creation order, newest first with
// [Query.Desc]. Sort keys compare as UTF-8 bytes, so ids must sort as bytes:
// "2026-0010" follows "2026-0009", but an unpadded "10" would precede "9".
// For ids generated without a counter, use ULIDs (e.g.
// github.com/oklog/ulid/v2's ulid.Make().String()): 26 characters whose
// byte order is their creation time in milliseconds.
//
// It returns an error matching [ErrInvalidKey] if seq does not fit in width
// digits or width is not 1 to 20.
func PaddedID(prefix string, seq uint64, width int) (string, error) {
	id, err := keycodec.PaddedID(prefix, seq, width)
	return id, keyError(err)
}
