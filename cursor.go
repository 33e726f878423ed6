package adjlist

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// cursor is the JSON inside a page cursor. It records which query it
// belongs to so that a cursor cannot be replayed against another one.
type cursor struct {
	V     int               `json:"v"`
	Index string            `json:"i,omitempty"`
	Desc  bool              `json:"d,omitempty"`
	Query string            `json:"q"` // the query's fingerprint
	Key   map[string]string `json:"k,omitempty"`
	// Num holds the key attributes that are numbers (native index keys).
	Num map[string]string `json:"n,omitempty"`
	// Shards holds, for a sharded read, where each shard resumes.
	Shards []shardState `json:"s,omitempty"`
}

// shardState is one shard's place in a merged read: not started (zero),
// resuming after Key, or Done.
type shardState struct {
	Done bool              `json:"x,omitempty"`
	Key  map[string]string `json:"k,omitempty"`
}

// cursorVersion 2 added the query fingerprint.
const cursorVersion = 2

// keyStrings turns a LastEvaluatedKey into plain strings (all key
// attributes of this package's tables are strings).
func keyStrings(lek Item) (map[string]string, error) {
	m, nums, err := keyText(lek)
	if err == nil && nums != nil {
		err = fmt.Errorf("adjlist: LastEvaluatedKey has number attributes %v, want strings", nums)
	}
	return m, err
}

// keyText splits a LastEvaluatedKey into its string and number
// attributes' text (nums is nil when there are none).
func keyText(lek Item) (strs, nums map[string]string, err error) {
	strs = make(map[string]string, len(lek))
	for name, av := range lek {
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			strs[name] = v.Value
		case *types.AttributeValueMemberN:
			if nums == nil {
				nums = map[string]string{}
			}
			nums[name] = v.Value
		default:
			return nil, nil, fmt.Errorf("adjlist: LastEvaluatedKey attribute %q is %T, want a string or number", name, av)
		}
	}
	return strs, nums, nil
}

func (q Query[T]) encodeCursor(lek Item) (string, error) {
	key, num, err := keyText(lek)
	if err != nil {
		return "", err
	}
	return q.sealCursor(cursor{Key: key, Num: num})
}

// sealCursor stamps c with the query's identity, encodes it and, with a
// CursorKey, signs it.
func (q Query[T]) sealCursor(c cursor) (string, error) {
	c.V, c.Index, c.Desc = cursorVersion, aws.ToString(q.in.IndexName), !aws.ToBool(q.in.ScanIndexForward)
	c.Query = q.fingerprint()
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	out := base64.RawURLEncoding.EncodeToString(b)
	if key := q.t.opts.CursorKey; key != nil {
		out += "." + base64.RawURLEncoding.EncodeToString(signCursor(key, b))
	}
	return out, nil
}

// signCursor is the HMAC-SHA256 of a cursor's JSON under the table's key.
func signCursor(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

func badCursor(why string) error { return fmt.Errorf("%w: %s", ErrInvalidCursor, why) }

// fingerprint identifies everything that shapes the query's results
// besides its page size: the operation (and so the item type), the index,
// the key condition, filter and projection with their names and values
// (partition, sort key prefix or range, label filter), the shards and the
// direction. A cursor carries it, so that it resumes only the query that
// issued it. It is 72 bits of SHA-256, base64url: enough to tell queries
// apart; forging is the signature's job ([Options.CursorKey]).
func (q Query[T]) fingerprint() string {
	if q.fp != "" {
		return q.fp
	}
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s;", len(s), s) }
	field(q.op)
	field(aws.ToString(q.in.IndexName))
	field(aws.ToString(q.in.KeyConditionExpression))
	field(aws.ToString(q.in.FilterExpression))
	field(aws.ToString(q.in.ProjectionExpression))
	field(fmt.Sprint(aws.ToBool(q.in.ScanIndexForward), len(q.shards)))
	for _, name := range slices.Sorted(maps.Keys(q.in.ExpressionAttributeNames)) {
		field(name)
		field(q.in.ExpressionAttributeNames[name])
	}
	for _, ph := range slices.Sorted(maps.Keys(q.in.ExpressionAttributeValues)) {
		field(ph)
		field(fmt.Sprintf("%T", q.in.ExpressionAttributeValues[ph]))
		field(attrText(q.in.ExpressionAttributeValues[ph]))
	}
	for _, sh := range q.shards {
		field(sh.pk)
	}
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:9])
}

// attrText is a value's text for the fingerprint: strings and numbers as
// they are, anything else as JSON of its Go form.
func attrText(av types.AttributeValue) string {
	switch v := av.(type) {
	case *types.AttributeValueMemberS:
		return v.Value
	case *types.AttributeValueMemberN:
		return v.Value
	}
	var x any
	if err := attributevalue.Unmarshal(av, &x); err != nil {
		return err.Error()
	}
	b, _ := json.Marshal(x)
	return string(b)
}

// decodeExact decodes unpadded base64url and accepts only the one
// canonical spelling: Go's decoder also takes other final characters
// (unused low bits) and ignores '\r' and '\n', so a second string would
// open the same cursor.
func decodeExact(s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodedLen(len(b)) != len(s) || base64.RawURLEncoding.EncodeToString(b) != s {
		return nil, ErrInvalidCursor
	}
	return b, nil
}

// openCursor checks a cursor's encoding (strict: only the string issued
// opens), signature and identity (version, index, direction, query).
func (q Query[T]) openCursor(s string) (cursor, error) {
	var c cursor
	payload, sig, signed := strings.Cut(s, ".")
	b, err := decodeExact(payload)
	if err != nil {
		return c, badCursor("not canonical base64url")
	}
	if key := q.t.opts.CursorKey; key != nil {
		mac, err := decodeExact(sig)
		if !signed || err != nil || !hmac.Equal(mac, signCursor(key, b)) {
			return c, badCursor("signature does not match")
		}
	} else if signed {
		return c, badCursor("signed, but the table has no CursorKey")
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, badCursor("not a cursor")
	}
	switch {
	case c.V != cursorVersion:
		return c, badCursor(fmt.Sprintf("version %d", c.V))
	case c.Index != aws.ToString(q.in.IndexName):
		return c, badCursor("from another index")
	case c.Desc == aws.ToBool(q.in.ScanIndexForward):
		return c, badCursor("from the other direction")
	case (c.Shards != nil) != (q.shards != nil):
		return c, badCursor("from a read with another number of shards")
	case c.Query != q.fingerprint():
		return c, badCursor("from another query")
	}
	return c, nil
}

// startKey validates a cursor's key against partition pk and the query's
// sort key range, and returns it as an ExclusiveStartKey.
func (q Query[T]) startKey(key, num map[string]string, pk string) (Item, error) {
	switch {
	case len(key)+len(num) != len(q.cursorKeys):
		return nil, badCursor("wrong key attributes")
	case q.keys.native != nil:
		for _, v := range q.keys.native.eq {
			if s, n := key[v.name], num[v.name]; attrText(v.av) != s+n {
				return nil, badCursor("from another partition")
			}
		}
	case key[q.pkAttr] != pk:
		return nil, badCursor("from another partition")
	case !q.sk.holds(key[q.skAttr], q.skPrefix):
		return nil, badCursor("outside the query's sort key range")
	}
	start := make(Item, len(q.cursorKeys))
	for _, name := range q.cursorKeys {
		if v, ok := key[name]; ok && v != "" {
			start[name] = &types.AttributeValueMemberS{Value: v}
			continue
		}
		v, ok := num[name]
		if !ok {
			return nil, badCursor("wrong key attributes")
		}
		n, err := numberText(name, v)
		if err != nil {
			return nil, badCursor("wrong key attributes")
		}
		start[name] = n
	}
	return start, nil
}

func (q Query[T]) decodeCursor(s string) (Item, error) {
	c, err := q.openCursor(s)
	if err != nil {
		return nil, err
	}
	return q.startKey(c.Key, c.Num, q.pk)
}
