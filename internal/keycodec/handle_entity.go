package keycodec

import (
	"fmt"
	"strings"
)

// CheckIDs checks that ids are n valid ids of the first n of an Entity
// name's key fields.
func CheckIDs(name string, fields, ids []string, n int) error {
	if len(ids) != n {
		return &Error{Name: name, ID: strings.Join(ids, ","), Reason: fmt.Sprintf("%d ids given, want %d (%s)", len(ids), n, strings.Join(fields[:n], ", "))}
	}
	for i, id := range ids {
		if err := CheckID(fields[i], id); err != nil {
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
		return &Error{Name: name, ID: strings.Join(ids, ","),
			Reason: fmt.Sprintf("%d ids given, List takes %d to %d (%s)", len(ids), pkN, len(fields), strings.Join(fields, ", "))}
	}
	return CheckIDs(name, fields, ids, len(ids))
}
