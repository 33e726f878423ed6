package paging

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// Cursor is the JSON inside a page cursor, naming its query so that it
// cannot be replayed against another.
type Cursor struct {
	V      int               `json:"v"`
	Index  string            `json:"i,omitempty"`
	Desc   bool              `json:"d,omitempty"`
	Query  string            `json:"q"` // the query's fingerprint
	Key    map[string]string `json:"k,omitempty"`
	Num    map[string]string `json:"n,omitempty"` // number key attributes
	Shards []CursorShard     `json:"s,omitempty"` // a sharded read's places
}

// CursorShard is a shard's (or scan segment's) place: not started (zero),
// resuming after Key and Num, or Done.
type CursorShard struct {
	Done bool              `json:"x,omitempty"`
	Key  map[string]string `json:"k,omitempty"`
	Num  map[string]string `json:"n,omitempty"`
}

// version 2 added the query fingerprint.
const version = 2

// Identity is what a cursor must match to open; Query is the [Fingerprint].
type Identity struct {
	Index         string
	Desc, Sharded bool
	Query         string
}

// Seal stamps c with id, encodes it and, with a key, signs it.
func Seal(c Cursor, id Identity, key []byte) (string, error) {
	c.V, c.Index, c.Desc, c.Query = version, id.Index, id.Desc, id.Query
	b, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	out := base64.RawURLEncoding.EncodeToString(b)
	if key != nil {
		out += "." + base64.RawURLEncoding.EncodeToString(sign(key, b))
	}
	return out, nil
}

// sign is HMAC-SHA256 under the table's key.
func sign(key, payload []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(payload)
	return m.Sum(nil)
}

// Open checks a cursor's encoding (only the string issued opens),
// signature under key (nil: unsigned) and identity; its error is a
// [BadCursor].
func Open(s string, id Identity, key []byte) (Cursor, error) {
	var c Cursor
	payload, sig, signed := strings.Cut(s, ".")
	b, err := DecodeExact(payload)
	if err != nil {
		return c, err
	}
	if key != nil {
		mac, err := DecodeExact(sig)
		if !signed || err != nil || !hmac.Equal(mac, sign(key, b)) {
			return c, BadCursor("signature does not match")
		}
	} else if signed {
		return c, BadCursor("signed, but the table has no CursorKey")
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, BadCursor("not a cursor")
	}
	switch {
	case c.V != version:
		return c, BadCursor(fmt.Sprintf("version %d", c.V))
	case c.Index != id.Index:
		return c, BadCursor("from another index")
	case c.Desc != id.Desc:
		return c, BadCursor("from the other direction")
	case (c.Shards != nil) != id.Sharded:
		return c, BadCursor("from a read with another number of shards")
	case c.Query != id.Query:
		return c, BadCursor("from another query")
	}
	return c, nil
}

// BadCursor is why a cursor does not open; a constant costs no allocation.
type BadCursor string

func (b BadCursor) Error() string { return string(b) }

const errNotCanonical = BadCursor("not canonical base64url")

// DecodeExact decodes unpadded base64url in its one canonical spelling:
// Go's decoder also takes other final characters (unused low bits) and
// ignores '\r' and '\n', so a second string would open the same cursor.
func DecodeExact(s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || base64.RawURLEncoding.EncodedLen(len(b)) != len(s) || base64.RawURLEncoding.EncodeToString(b) != s {
		return nil, errNotCanonical
	}
	return b, nil
}
