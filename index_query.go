package adjlist

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/ddbexpr"
	"github.com/adjlist/adjlist/internal/keycodec"
	"github.com/adjlist/adjlist/internal/modeldoc"
	"github.com/adjlist/adjlist/internal/paging"
)

// ByIndex returns the query over one partition of a secondary index for
// this node type's items, one Query per page on the index. On a derived-key
// index values fill the variable parts of the type's partition key template
// in order ([IndexKeys]): a data value for a data attribute, encoded as a write
// encodes it ([Options].EncoderOptions), an id for {@self}, escaped as
// keys are; on a local index the one value is the node id. With
// NodeOptions.Indexes = {{Index: "GSI2", PartitionKey:
// Template("MAJOR#{major}"), SortKey: Template("{@self}")}},
// students.ByIndex("GSI2", "physics") is
//
//	GSI2PK = "MAJOR#physics" AND begins_with(GSI2SK, "STU#")
//
// On a native index ([Index].PartitionAttributes) values are the key
// attributes' values as the items hold them ("CRS#math204"), every
// partition attribute's, then optionally leading sort attributes'; on a
// native local index the node id first.
//
// Items of other types in the partition are skipped. Sort key conditions
// apply after the sort key's constant prefix; a strongly consistent read of
// a global index is [ErrIndexConsistentRead]. An unknown index, one the
// type declares no keys in, or the wrong number or type of values are
// [ErrInvalidOption] when run, before any request, naming the values taken
// ("takes 2 values (parent id, status), 1 given").
func (n *Node[N]) ByIndex(index string, values ...any) Query[NodeItem[N]] {
	return Query[NodeItem[N]]{querySpec: indexSpec(n.t, "Node.ByIndex", n.err, &n.it, index, values), decode: n.decodeItem}
}

// ByIndex returns the query over one partition of a secondary index for
// this kind of edge, as [Node.ByIndex] does. For {@source}, {@target}
// and {@self} the value is the endpoint's id as [Edge.Put] takes it, or a
// child endpoint's ref ("WS#acme#PROJ#p1"); on a local index, the source's
// id or ref. A course's roster by enrolment date, with EdgeOptions.Indexes
// = {{Index: "GSI2", PartitionKey: Template("{@target}"), SortKey:
// Template("ENROLL#{enrolledOn}")}}:
//
//	enrolled.ByIndex("GSI2", "math204").GreaterThanEqual("2026-09-01")
//	// GSI2PK = "CRS#math204" AND GSI2SK BETWEEN "ENROLL#2026-09-01" AND "ENROLL$"
//
// A range value on a sort key holding a child endpoint names it as
// [Edge.From] does: BeginsWith("acme#PROJ#2026") on Template("{@target}") is
// begins_with(GSI2SK, "WS#acme#PROJ#2026"). Each [EdgeItem] has both
// endpoint ids.
func (e *Edge[E]) ByIndex(index string, values ...any) Query[EdgeItem[E]] {
	return Query[EdgeItem[E]]{querySpec: indexSpec(e.t, "Edge.ByIndex", e.err, &e.it, index, values), decode: e.decodeItem}
}

// ByIndex returns the query over one partition of a secondary index for
// this collection's children, as [Node.ByIndex] does: ids for {@parent}
// and {@self}; on a local index, the parent id. Every active project,
// newest first, with CollectionOptions.Indexes = {{Index: "GSI2",
// PartitionKey: Template("STATUS#{status}"), SortKey:
// Template("{createdAt}")}}:
//
//	projects.ByIndex("GSI2", "ACTIVE").Desc() // GSI2PK = "STATUS#ACTIVE", ScanIndexForward=false
//
// Each [Child] has its parent's id and its own. With
// [CollectionOptions].Shards a derived local index is read on every shard
// ("WS#acme#00" …) in parallel and merged in sort key order, one request per
// unfinished shard per page; a native local index cannot be merged and is
// [ErrInvalidOption] before any request.
func (c *Collection[C, P]) ByIndex(index string, values ...any) Query[Child[C]] {
	return Query[Child[C]]{querySpec: indexSpec(c.t, "Collection.ByIndex", c.err, &c.it, index, values), decode: c.decodeItem}
}

// indexSpec is ByIndex without its decoder; herr is the handle's error.
func indexSpec(t *Table, op string, herr error, it *itemType, index string, values []any) querySpec {
	if herr != nil {
		return errSpec(t, op, herr)
	}
	k, err := it.indexKeys(t, index, values)
	if err != nil {
		return errSpec(t, op, err)
	}
	k.kind = it.kind
	return newQuerySpec(t, op, k)
}

// indexKeys is the partition and sort key prefix of it's items in index,
// the partition's variable parts given by values.
func (it *itemType) indexKeys(t *Table, index string, values []any) (queryKeys, error) {
	ix, err := t.index(index)
	if err != nil {
		return queryKeys{}, err
	}
	if ix.native() || it.byIDs && ix == &t.indexes[0] && t.layout.onSortKey() {
		return it.nativeKeys(t, ix, values)
	}
	b, ok := it.indexIn(index)
	if !ok {
		return queryKeys{}, fmt.Errorf("%w: %s declares no keys in index %s", ErrInvalidOption, it.kind, index)
	}
	if names := it.keyParts(t).Names(b.PK); len(values) != len(names) {
		return queryKeys{}, fmt.Errorf("%w: ByIndex(%q, ...): %w (partition key %s)", ErrInvalidOption, index, keycodec.Takes(names, nil, len(values)), keycodec.String(b.PK))
	}
	pk, _, err := it.keyParts(t).Fill(b.PK, values)
	if err != nil {
		return queryKeys{}, fmt.Errorf("%w: index %s partition key %s: %w", ErrInvalidOption, index, keycodec.String(b.PK), err)
	}
	// A value no item can hold is refused before the request, not by DynamoDB.
	if err := checkLen(index, "index partition key", pk, keycodec.MaxPartitionKeyLen); err != nil {
		return queryKeys{}, err
	}
	k := queryKeys{index: index, pk: pk, local: ix.Local, freeSK: b.SKAttr != "", pkNum: ix.Local && t.numKey(t.opts.PartitionKey)}
	if b.SKAttr != "" {
		k.skPrefix, k.skExact = b.SKPrefix, b.SKExact
		k.skRest = it.keyParts(t).IndexRest(b.SKC)
	}
	switch {
	case b.Shards > 0:
		k.shardPKs = keycodec.ShardKeys(pk, b.Shards)
	case ix.Local && it.shards > 0:
		// A local index's partition is the table's, which a sharded
		// collection spreads over its shards: read them all, merged.
		k.shardPKs = keycodec.ShardKeys(pk, it.shards)
	}
	if len(k.shardPKs) > 0 {
		if err := checkLen(index, "index partition key", k.shardPKs[len(k.shardPKs)-1], keycodec.MaxPartitionKeyLen); err != nil {
			return queryKeys{}, err
		}
	}
	return k, nil
}

// nativeKeys is the query of the item type on native index ix: values
// are its key attributes' values in order, except that a key attribute
// the item type spells ([itemType.spelled]) takes the ids of its
// spelling. The inverted index keyed on the table's sort key reads as a
// native index on SK, then PK (SK alone when it has no sort key).
func (it *itemType) nativeKeys(t *Table, ix *Index, values []any) (queryKeys, error) {
	partition := ix.PartitionAttributes
	switch {
	case !ix.native(): // the inverted index on SK, PK (or SK alone)
		ix = &Index{Name: ix.Name, PartitionAttributes: []KeyAttribute{{Name: t.opts.SortKey, Type: t.opts.SortKeyType}}}
		if t.layout == sortKeyIndex {
			ix.SortAttributes = []KeyAttribute{{Name: t.opts.PartitionKey, Type: t.opts.PartitionKeyType}}
		}
		partition = ix.PartitionAttributes
	case ix.Local && it.shards > 0:
		return queryKeys{}, fmt.Errorf("%w: index %s: %s is spread over %d partitions of the table, and a native local index reads one; declare a derived sort key for it (IndexKeys), whose reads merge the shards", ErrInvalidOption, ix.Name, it.kind, it.shards)
	case ix.Local:
		partition = []KeyAttribute{{Name: t.opts.PartitionKey, Type: t.opts.PartitionKeyType}}
	}
	// The values the partition attributes take, then those the sort
	// attributes may.
	var required, optional []string
	for i, a := range slices.Concat(partition, ix.SortAttributes) {
		names := []string{a.Name}
		if parts := it.spelled(t, a.Name, ix.Local); parts != nil {
			names = it.keyParts(t).Names(parts)
		}
		if i < len(partition) {
			required = append(required, names...)
		} else {
			optional = append(optional, names...)
		}
	}
	if len(values) < len(required) || len(values) > len(required)+len(optional) {
		return queryKeys{}, fmt.Errorf("%w: ByIndex(%q, ...): %w", ErrInvalidOption, ix.Name, keycodec.Takes(required, optional, len(values)))
	}
	given := values
	filled := make([]any, 0, len(values))
	for _, a := range slices.Concat(partition, ix.SortAttributes) {
		parts := it.spelled(t, a.Name, ix.Local)
		if len(values) == 0 && (parts == nil || slices.ContainsFunc(parts, keycodec.Part.Variable)) {
			break // the attributes left are not fixed
		}
		if parts == nil {
			filled, values = append(filled, values[0]), values[1:]
			continue
		}
		key, n, err := it.keyParts(t).Fill(parts, values)
		if err != nil {
			f := it.formats()
			return queryKeys{}, fmt.Errorf("%w: index %s: %s of %s is %s, which takes ids (%v given): %w", ErrInvalidOption, ix.Name, a.Name, it.kind, modeldoc.Text(f.Render(parts, 0)), given, err)
		}
		filled, values = append(filled, key), values[n:]
	}
	k, err := nativeQueryKeys(t, ix, partition, append(filled, values...))
	if err != nil || k.native.next == nil || !it.byIDs {
		return k, err
	}
	// An entity's own table keys are keys, not data: range values on the
	// one it spells next follow the rule of range values, after its
	// leading text, as on a derived index's sort key.
	k.native.tableKeys = true
	if parts := it.spelled(t, k.native.next.Name, ix.Local); parts != nil {
		k.skPrefix, _ = keycodec.StaticPrefix(parts, &it.prefixes)
		key := it.keys.sk
		if k.native.next.Name == t.opts.PartitionKey {
			key = it.keys.pk
		}
		k.skRest = key.Rest(0)
	}
	return k, nil
}

// spelled returns the parts key attribute attr is spelled by when a
// native index is keyed on it (an Entity's table keys; a preset's
// partition key in a local index), or nil for a value given as it is.
func (it *itemType) spelled(t *Table, attr string, local bool) []keycodec.Part {
	switch {
	case attr == t.opts.PartitionKey && it.byIDs:
		return it.pk
	case attr == t.opts.PartitionKey && local:
		return []keycodec.Part{{Kind: it.home}}
	case attr == t.opts.SortKey && it.byIDs:
		return it.sk
	}
	return nil
}

// nativeKeys is the key condition of a query on a native index: every
// partition attribute, and the leading sort attributes, equal to values;
// range conditions apply to next, the first sort attribute not fixed.
type nativeKeys struct {
	eq        []nativeValue
	next      *KeyAttribute
	pkN       int  // how many of eq are the partition's
	tableKeys bool // an entity's read, whose table keys hold key text
}

// keyText reports whether range values on nk's next attribute are key
// text ([keycodec.RangeKey]) rather than the data's own values.
func (nk *nativeKeys) keyText(t *Table) bool {
	return nk.tableKeys && nk.next != nil && (nk.next.Name == t.opts.PartitionKey || nk.next.Name == t.opts.SortKey)
}

type nativeValue = ddbexpr.NativeValue

// nativeQueryKeys is the query on native index ix whose values are its
// partition attributes', then leading sort attributes', in order, typed
// as t's encoder stores them: a value cannot skip an attribute, so
// DynamoDB's rule that sort conditions go from the left holds.
func nativeQueryKeys(t *Table, ix *Index, partition []KeyAttribute, values []any) (queryKeys, error) {
	attrs := slices.Concat(partition, ix.SortAttributes)
	nk := &nativeKeys{pkN: len(partition)}
	var desc []string
	for i, v := range values {
		av, err := ddbexpr.Typed(t.enc, attrs[i].Name, attrType(attrs[i]), v)
		if err != nil {
			return queryKeys{}, fmt.Errorf("%w: index %s: %w", ErrInvalidOption, ix.Name, err)
		}
		if s, ok := av.(*types.AttributeValueMemberS); ok {
			attr, limit := "index partition key", keycodec.MaxPartitionKeyLen
			if i >= len(partition) {
				attr, limit = "index sort key", keycodec.MaxSortKeyLen
			}
			if err := checkLen(ix.Name, attr, s.Value, limit); err != nil {
				return queryKeys{}, err
			}
		}
		nk.eq = append(nk.eq, nativeValue{Name: attrs[i].Name, AV: av})
		desc = append(desc, attrs[i].Name+"="+paging.AttrText(av))
	}
	if len(values) < len(attrs) {
		nk.next = &attrs[len(values)]
	}
	return queryKeys{index: ix.Name, pk: strings.Join(desc, ","), native: nk, freeSK: nk.next != nil, local: ix.Local}, nil
}
