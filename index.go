package adjlist

import (
	"fmt"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/schema"
)

// Index declares one secondary index of a [Table] besides the inverted
// index, in [Options].Indexes; [CreateTable] creates it. It is one of two
// kinds:
//
//   - Derived keys (PartitionKey, SortKey): string attributes this package
//     writes and keeps true on every item of the types that declare keys for
//     it ([IndexKeys], e.g. GSI2PK = "STATUS#ACTIVE"); other types are not
//     in it (sparse), and several may share it (overloading).
//   - Native keys (PartitionAttributes, SortAttributes): up to 4 attributes
//     each that the items already have, typed (numbers sort as numbers);
//     this package writes nothing for it.
//
// A local index (Local) shares the table's partition key, has a derived
// SortKey or one native sort attribute, and allows strongly consistent
// reads. The zero Projection is ALL.
type Index struct {
	// Name is the index name, e.g. "GSI2".
	Name string
	// Local makes it a local secondary index: its partition key is the
	// table's, so leave PartitionKey and PartitionAttributes empty.
	Local bool
	// PartitionKey is the attribute holding the derived partition key,
	// e.g. "GSI2PK". Global derived-key indexes only.
	PartitionKey string
	// SortKey is the attribute holding the derived sort key, e.g.
	// "GSI2SK"; empty for an index without a sort key.
	SortKey string
	// PartitionAttributes are the data attributes of a native partition
	// key, in order, e.g. {{Name: "status"}}. Global indexes only.
	PartitionAttributes []KeyAttribute
	// SortAttributes are the data attributes of a native sort key, in the
	// order they sort, e.g. {{Name: "year", Type: "N"}, {Name: "title"}}.
	SortAttributes []KeyAttribute
	// Projection is ALL (default), KEYS_ONLY (the table's and the index's
	// keys) or INCLUDE (keys plus NonKeyAttributes). Every projection
	// carries the table's keys, from which reads recover the item's ids.
	Projection types.ProjectionType
	// NonKeyAttributes lists the attributes projected with INCLUDE.
	NonKeyAttributes []string
	// KeysTogether writes the index's derived key attributes all or none: an
	// item whose data lacks what one key needs carries none, e.g. the labs'
	// manager index GSI_2, GSI_2_PK = Attr("manager_title") and GSI_2_SK =
	// Template("root") on managers only. [Update] says when an update is then
	// refused. Global derived-key indexes with a sort key only, else
	// [ErrInvalidOption].
	KeysTogether bool
}

// KeyAttribute is one attribute of a native index key.
type KeyAttribute struct {
	// Name is the data attribute, e.g. "status".
	Name string
	// Type is its DynamoDB type: S (string, the default) or N (number).
	Type types.ScalarAttributeType
}

// native reports whether the index is keyed on data attributes.
func (ix *Index) native() bool {
	return len(ix.PartitionAttributes) > 0 || len(ix.SortAttributes) > 0
}

// KeySchema returns the index's key attributes in order, each with its
// type (S, or a native attribute's own): the partition key, e.g.
// [{GSI2PK S}], and the sort key, e.g. [{GSI2SK S}], or for a native
// index its attributes ([{status S}], [{year N} {title S}]). A local
// index's partition key is the table's, tablePartitionKey ("PK"), with a
// native one's sort attributes after it. CreateTable, the workbench and
// cloudformation exports and [Model.Mermaid] all read an index's keys
// here. It makes no request.
func (ix Index) KeySchema(tablePartitionKey string) (partition, sort []KeyAttribute) {
	if ix.Local {
		partition = []KeyAttribute{{Name: tablePartitionKey, Type: types.ScalarAttributeTypeS}}
	}
	if ix.native() {
		for _, a := range ix.PartitionAttributes {
			partition = append(partition, KeyAttribute{Name: a.Name, Type: attrType(a)})
		}
		for _, a := range ix.SortAttributes {
			sort = append(sort, KeyAttribute{Name: a.Name, Type: attrType(a)})
		}
		return partition, sort
	}
	if !ix.Local {
		partition = []KeyAttribute{{Name: ix.PartitionKey, Type: types.ScalarAttributeTypeS}}
	}
	if ix.SortKey != "" {
		sort = []KeyAttribute{{Name: ix.SortKey, Type: types.ScalarAttributeTypeS}}
	}
	return partition, sort
}

// keyAttrs returns the names of [Index.KeySchema].
func (ix *Index) keyAttrs(t *Table) (pk, sk []string) {
	p, s := ix.KeySchema(t.opts.PartitionKey)
	if ix.Local {
		p = p[:1] // a native local index's queries fix the table's key only
	}
	return attrNames(p), attrNames(s)
}

// cloneIndexes is a deep copy of ixs.
func cloneIndexes(ixs []Index) []Index {
	out := slices.Clone(ixs)
	for i := range out {
		out[i].PartitionAttributes = slices.Clone(out[i].PartitionAttributes)
		out[i].SortAttributes = slices.Clone(out[i].SortAttributes)
		out[i].NonKeyAttributes = slices.Clone(out[i].NonKeyAttributes)
	}
	return out
}

// index returns the declared index called name.
func (t *Table) index(name string) (*Index, error) {
	for i := range t.indexes {
		if t.indexes[i].Name == name {
			return &t.indexes[i], nil
		}
	}
	return nil, fmt.Errorf("%w: table %s has no index %q", ErrInvalidOption, t.name, name)
}

// initIndexes validates Options.Indexes and records every index, the
// attributes this package derives and what queries on each need.
func (t *Table) initIndexes() error {
	o := &t.opts
	inverted := ""
	if t.layout != noIndex {
		inverted = o.Index
		t.indexes = append(t.indexes, Index{Name: o.Index, PartitionKey: o.IndexPartitionKey, SortKey: o.IndexSortKey})
	}
	decls := make([]schema.Index, len(o.Indexes))
	for i, ix := range o.Indexes {
		if ix.Projection == "" {
			ix.Projection = types.ProjectionTypeAll
		}
		t.indexes = append(t.indexes, ix)
		decls[i] = schema.Index{Name: ix.Name, Local: ix.Local, PartitionKey: ix.PartitionKey, SortKey: ix.SortKey,
			PartitionAttributes: schema.Attrs(ix.PartitionAttributes), SortAttributes: schema.Attrs(ix.SortAttributes),
			Projection: ix.Projection, NonKeyAttributes: ix.NonKeyAttributes, KeysTogether: ix.KeysTogether}
	}
	derived, passed, err := schema.CheckIndexes(o.PartitionKey, o.SortKey, inverted, t.layout == explicitKeys, o.IndexPartitionKey, o.IndexSortKey, decls)
	t.derived, t.indexes = derived, t.indexes[:len(t.indexes)-len(decls)+passed]
	if passed < len(decls) {
		return err
	}
	t.meta = make(map[string]*indexMeta, len(t.indexes))
	for i := range t.indexes {
		ix := &t.indexes[i]
		m := &indexMeta{ix: ix}
		m.pk, m.sk = ix.keyAttrs(t)
		m.cursor = schema.Dedupe(slices.Concat(m.pk, m.sk, t.tableCursorKeys))
		m.proj = m.cursor
		if i == 0 && t.layout != noIndex {
			m.cursor, m.proj = t.indexCursorKeys, t.keyAttrs // the inverted index, as it always was
		}
		t.meta[ix.Name] = m
	}
	return err
}

// attrType is a native key attribute's type, S by default.
func attrType(a KeyAttribute) types.ScalarAttributeType {
	if a.Type == "" {
		return types.ScalarAttributeTypeS
	}
	return a.Type
}

// indexMeta is what queries on one index need, computed once.
type indexMeta struct {
	ix     *Index
	pk, sk []string // key attributes (a local index's pk is the table's)
	cursor []string // the attributes of a LastEvaluatedKey
	proj   []string // the key attributes a keys-only read projects
}
