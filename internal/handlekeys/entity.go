package handlekeys

import (
	"fmt"
	"slices"
	"strings"

	"github.com/adjlist/adjlist/internal/keycodec"
)

// CheckIDs checks that ids are n valid ids of the first n of an Entity
// name's key fields.
func CheckIDs(name string, fields, ids []string, n int) error {
	if len(ids) != n {
		return KeyError(&keycodec.Error{Name: name, ID: strings.Join(ids, ","), Reason: fmt.Sprintf("%d ids given, want %d (%s)", len(ids), n, strings.Join(fields[:n], ", "))})
	}
	for i, id := range ids {
		if err := keycodec.CheckID(fields[i], id); err != nil {
			return keyError(err)
		}
	}
	return nil
}

// CheckListIDs checks that ids are valid ids of an Entity List's leading
// key fields: every one of the partition key's pkN, then optionally some
// of the sort key's.
func CheckListIDs(name string, fields, ids []string, pkN int) error {
	if len(ids) < pkN || len(ids) > len(fields) {
		return KeyError(&keycodec.Error{Name: name, ID: strings.Join(ids, ","),
			Reason: fmt.Sprintf("%d ids given, List takes %d to %d (%s)", len(ids), pkN, len(fields), strings.Join(fields, ", "))})
	}
	return CheckIDs(name, fields, ids, len(ids))
}

// ParseIDs reads the n ids of an Entity's key fields from an item's table
// keys pk and sk, spelled by pkc and skc; ok=false costs no allocation.
func ParseIDs(pkc, skc keycodec.Spelling, n int, pk, sk string) ([]string, bool) {
	var buf [8]string
	var ids []string
	if n <= len(buf) {
		ids = buf[:n]
	} else {
		ids = make([]string, n)
	}
	// The sort key first: the item types of one partition differ there,
	// and a read of several types offers each item to every target.
	if !skc.Parse(sk, ids) || !pkc.Parse(pk, ids) {
		return nil, false
	}
	return slices.Clone(ids), true
}
