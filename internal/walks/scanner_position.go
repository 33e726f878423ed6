package walks

import (
	"encoding/base64"
	"encoding/json"

	"github.com/adjlist/adjlist/internal/paging"
)

// Position is where a walk's segments resume: the JSON inside a position
// string, e.g. {"s":[{"x":true},{"k":{"PK":"STU#a91","SK":"PROFILE"}}]}
// for segment 0 read to the end and segment 1 resuming after that key;
// number key attributes are under "n" ({"k":{"sk":"order"},"n":{"id":"42"}}).
// Its length is the walk's number of segments.
type Position struct {
	Segments []Segment `json:"s"`
}

// Segment is one segment's place: not started (zero), resuming after
// Key, or Done. It is a sharded query's place in its cursor too.
type Segment = paging.CursorShard

// Parse decodes a position string; "" is the start, with no segments. Only
// the canonical spelling is accepted ([paging.DecodeExact]), so that
// one position has one string.
func Parse(s string) (Position, error) {
	var pos Position
	if s == "" {
		return pos, nil
	}
	b, err := paging.DecodeExact(s)
	if err != nil {
		return pos, err
	}
	err = json.Unmarshal(b, &pos)
	return pos, err
}

// String is the position string Parse reads back.
func (p Position) String() string {
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}
