package scanner

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Position is where a walk's segments resume: the JSON inside a position
// string, e.g. {"s":[{"x":true},{"k":{"PK":"STU#a91","SK":"PROFILE"}}]}
// for segment 0 read to the end and segment 1 resuming after that key.
// Its length is the walk's number of segments.
type Position struct {
	Segments []Segment `json:"s"`
}

// Segment is one segment's place: not started (zero), resuming after
// Key, or Done.
type Segment struct {
	Done bool              `json:"x,omitempty"`
	Key  map[string]string `json:"k,omitempty"`
}

// errNotCanonical refuses a position in any spelling but the one issued.
var errNotCanonical = errors.New("scanner: position is not canonical base64url")

// Parse decodes a position string; "" is the start, with no segments. Only
// the canonical unpadded base64url spelling is accepted (Go's decoder also
// takes other final characters and ignores '\r' and '\n'), so that one
// position has one string.
func Parse(s string) (Position, error) {
	var pos Position
	if s == "" {
		return pos, nil
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodeToString(b) != s {
		return pos, errNotCanonical
	}
	err = json.Unmarshal(b, &pos)
	return pos, err
}

// String is the position string Parse reads back.
func (p Position) String() string {
	b, _ := json.Marshal(p)
	return base64.RawURLEncoding.EncodeToString(b)
}

// after is the place of a segment whose last page ended at lek (none: the
// segment is done). Key attributes must be strings, as the library's
// table keys are.
func after(lek map[string]types.AttributeValue) (Segment, error) {
	if len(lek) == 0 {
		return Segment{Done: true}, nil
	}
	key := make(map[string]string, len(lek))
	var nums map[string]string
	for name, av := range lek {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			key[name] = v.Value
		case *types.AttributeValueMemberN:
			if nums == nil {
				nums = map[string]string{}
			}
			nums[name] = v.Value
		default:
			return Segment{}, fmt.Errorf("adjlist: LastEvaluatedKey attribute %q is %T, want a string or number", name, av)
		}
	}
	if nums != nil {
		return Segment{}, fmt.Errorf("adjlist: LastEvaluatedKey has number attributes %v, want strings", nums)
	}
	return Segment{Key: key}, nil
}

// startKey is the ExclusiveStartKey that resumes s; nil from the start.
func (s Segment) startKey() map[string]types.AttributeValue {
	if s.Key == nil {
		return nil
	}
	k := make(map[string]types.AttributeValue, len(s.Key))
	for name, v := range s.Key {
		k[name] = &types.AttributeValueMemberS{Value: v}
	}
	return k
}
