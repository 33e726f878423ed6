package keycodec

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/adjlist/adjlist/internal/errs"
)

// Error is adjlist's KeyError. Functions here return a *Error, nil when
// nothing is refused; [errs.Key] turns it into an error (nil for nil).
type Error = errs.KeyError

// CheckName refuses a programmer-chosen name that is not ValidName; kind
// says what it names ("node type").
func CheckName(kind, name string) *Error {
	if !ValidName(name) {
		return &Error{Name: kind, ID: name, Reason: "names are 1-64 ASCII letters, digits, '_', '-' or '.'"}
	}
	return nil
}

// CheckID refuses an id no key may hold, before it is escaped. Control
// characters (C0, DEL, C1) DynamoDB would store, but a NUL or an escape
// sequence is never a real identifier (it truncates C strings, rewrites
// terminals, hides in logs): they are refused as hostile input.
func CheckID(name, id string) *Error {
	switch {
	case id == "":
		return &Error{Name: name, ID: id, Reason: "empty id"}
	case !utf8.ValidString(id):
		return &Error{Name: name, ID: id, Reason: "id is not valid UTF-8"}
	case HasControl(id):
		return &Error{Name: name, ID: id, Reason: "id contains a control character"}
	}
	return nil
}

// HasControl reports whether the valid UTF-8 string s holds a C0 or C1
// control character or DEL.
func HasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c == 0x7f || (c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0) {
			return true
		}
	}
	return false
}

// DynamoDB's size limits for key values, in UTF-8 bytes (adjlist's
// MaxPartitionKeyLen and MaxSortKeyLen).
const (
	MaxPartitionKeyLen = 2048
	MaxSortKeyLen      = 1024
)

// CheckLen refuses a built key over DynamoDB's size limit for it, in
// bytes; attr says which key ("sort key").
func CheckLen(name, attr, key string, limit int) *Error {
	if len(key) > limit {
		return &Error{Name: name, ID: key, Reason: fmt.Sprintf("%s value is %d bytes, DynamoDB allows %d", attr, len(key), limit)}
	}
	return nil
}

// CheckIDs checks that ids are valid ids of the first n key fields.
func CheckIDs(name string, fields, ids []string, n int) error {
	if len(ids) != n {
		return &Error{Name: name, ID: strings.Join(ids, ","), Reason: fmt.Sprintf("%d ids given, want %d (%s)", len(ids), n, strings.Join(fields[:n], ", "))}
	}
	for i, id := range ids {
		if err := CheckID(fields[i], id); err != nil {
			return errs.Key(err)
		}
	}
	return nil
}

// CheckListIDs checks the ids of an Entity List: the partition key's pkN
// fields, then optionally leading ones of the sort key's.
func CheckListIDs(name string, fields, ids []string, pkN int) error {
	if len(ids) < pkN || len(ids) > len(fields) {
		return &Error{Name: name, ID: strings.Join(ids, ","),
			Reason: fmt.Sprintf("%d ids given, List takes %d to %d (%s)", len(ids), pkN, len(fields), strings.Join(fields, ", "))}
	}
	return CheckIDs(name, fields, ids, len(ids))
}
