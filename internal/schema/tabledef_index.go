package schema

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbitem"
	"github.com/adjlist/adjlist/internal/errs"
)

// DynamoDB's limits on a table's secondary indexes.
const (
	MaxGlobalIndexes = 20
	MaxLocalIndexes  = 5
	MaxKeyAttributes = 4
)

// KeyAttribute is adjlist.KeyAttribute (Type "" is S, resolved in a
// TableIndex).
type KeyAttribute struct {
	Name string
	Type types.ScalarAttributeType
}

// Index is adjlist.Index as declared, its Projection defaulted.
type Index struct {
	Name                                string
	Local                               bool
	PartitionKey, SortKey               string
	PartitionAttributes, SortAttributes []KeyAttribute
	Projection                          types.ProjectionType
	NonKeyAttributes                    []string
	KeysTogether                        bool
}

// Attrs converts adjlist.KeyAttribute values, field for field.
func Attrs[A ~struct {
	Name string
	Type types.ScalarAttributeType
}](as []A) []KeyAttribute {
	out := make([]KeyAttribute, len(as))
	for i, a := range as {
		out[i] = KeyAttribute(a)
	}
	return out
}

func (ix *Index) native() bool {
	return len(ix.PartitionAttributes) > 0 || len(ix.SortAttributes) > 0
}

// CheckIndexes checks decls on a table keyed pk, sk with inverted index
// index ("" none; when derived, keyed on the written indexPK, indexSK).
// It returns the attributes written from templates and how many decls
// passed; err wraps [errs.ErrInvalidOption].
func CheckIndexes(pk, sk, index string, derived bool, indexPK, indexSK string, decls []Index) (written map[string]bool, passed int, err error) {
	written, names, native := map[string]bool{}, map[string]bool{}, map[string]bool{}
	globals, locals := 0, 0
	if index != "" {
		if derived {
			written[indexPK], written[indexSK] = true, true
		}
		names[index] = true
		globals++
	}
	for i := range decls {
		ix := &decls[i]
		if err := check(ix, pk, sk, names, written, native); err != nil {
			return written, i, fmt.Errorf("%w: index %q: %w", errs.ErrInvalidOption, ix.Name, err)
		}
		if ix.Local {
			locals++
		} else {
			globals++
		}
	}
	switch {
	case globals > MaxGlobalIndexes:
		err = fmt.Errorf("%w: %d global secondary indexes, DynamoDB allows %d", errs.ErrInvalidOption, globals, MaxGlobalIndexes)
	case locals > MaxLocalIndexes:
		err = fmt.Errorf("%w: %d local secondary indexes, DynamoDB allows %d", errs.ErrInvalidOption, locals, MaxLocalIndexes)
	}
	return written, len(decls), err
}

// check validates ix, recording its name and the attributes it derives
// (written) or reads (native).
func check(ix *Index, pk, sk string, names, written, native map[string]bool) error {
	switch {
	case !ddbitem.ValidIndexName(ix.Name):
		return fmt.Errorf("index names are 3-255 letters, digits, '_', '-' or '.'")
	case names[ix.Name]:
		return fmt.Errorf("declared twice")
	case ix.native() && (ix.PartitionKey != "" || ix.SortKey != ""):
		return fmt.Errorf("both derived keys (PartitionKey, SortKey) and native ones (PartitionAttributes, SortAttributes)")
	case ix.Local && (ix.PartitionKey != "" || len(ix.PartitionAttributes) > 0):
		return fmt.Errorf("a local index has the table's partition key")
	case ix.Local && ix.SortKey == "" && len(ix.SortAttributes) != 1:
		return fmt.Errorf("a local index needs a SortKey or one sort attribute")
	case !ix.Local && !ix.native() && ix.PartitionKey == "":
		return fmt.Errorf("no PartitionKey or PartitionAttributes")
	case !ix.Local && ix.native() && len(ix.PartitionAttributes) == 0:
		return fmt.Errorf("native sort attributes need native partition attributes")
	case len(ix.PartitionAttributes) > MaxKeyAttributes || len(ix.SortAttributes) > MaxKeyAttributes:
		return fmt.Errorf("more than %d key attributes", MaxKeyAttributes)
	case ix.KeysTogether && (ix.native() || ix.Local || ix.SortKey == ""):
		return fmt.Errorf("KeysTogether needs a global index with derived PartitionKey and SortKey")
	}
	if err := CheckProjection(ix.Projection, ix.NonKeyAttributes); err != nil {
		return err
	}
	names[ix.Name] = true
	if !ix.native() {
		for _, a := range []string{ix.PartitionKey, ix.SortKey} {
			if a == "" {
				continue
			}
			if a == pk || a == sk || written[a] || native[a] {
				return fmt.Errorf("key attribute %q is empty or used by the table or another index", a)
			}
			written[a] = true
		}
		return nil
	}
	for _, a := range slices.Concat(ix.PartitionAttributes, ix.SortAttributes) {
		// Native attributes are only read: indexes may share one, and it
		// may be a key attribute items carry already (SK, GSI1PK).
		if a.Name == "" {
			return fmt.Errorf("empty key attribute name")
		}
		if a.Type != "" && a.Type != types.ScalarAttributeTypeS && a.Type != types.ScalarAttributeTypeN {
			return fmt.Errorf("key attribute %q has type %q, want S or N", a.Name, a.Type)
		}
		native[a.Name] = true
	}
	return nil
}

// Dedupe drops repeated names, keeping the first of each.
func Dedupe(names []string) []string {
	out := names[:0:0]
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
