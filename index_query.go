package adjlist

import (
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
)

// NodeItem is one node item read back from a query: its id, decoded from
// its keys, and its data.
type NodeItem[N any] struct {
	ID   string // node id, e.g. "a91"
	Data N
}

// ByIndex returns the query over one partition of a derived-key index for
// this node type's items, one Query per page on the index. values fill the
// variable parts of the node type's partition key template in order (see
// [IndexKeys]): a data attribute's value (a string or a number) for
// [Attr], an id for [SelfKey]. For a local index the one value is the node
// id. With
//
//	NodeOptions.Indexes = {{Index: "GSI2", PartitionKey: Compose(Const("MAJOR"), Attr("major")), SortKey: Compose(SelfKey())}}
//
// students.ByIndex("GSI2", "physics") is
//
//	GSI2PK = "MAJOR#physics" AND begins_with(GSI2SK, "STU#")
//
// Items are decoded to the node type with their ids (from the table keys,
// which every index projects); items of other types sharing the index
// partition are skipped. Adjust and run it as any [Query]: sort key
// conditions apply to the sort key after its constant prefix ("STU#"),
// [Query.ConsistentRead] is [ErrIndexConsistentRead] on a global index.
// An unknown index, one the node type declares no keys in, or the wrong
// number or type of values fail with [ErrInvalidOption] when run, before
// any request.
func (n *Node[N]) ByIndex(index string, values ...any) Query[NodeItem[N]] {
	const op = "Node.ByIndex"
	if n.err != nil {
		return errQuery[NodeItem[N]](n.t, op, n.err)
	}
	return indexQuery(n.t, op, &n.it, index, values, n.decode)
}

// decode turns an item into a NodeItem, reporting ok=false for items that
// are not this type's node items.
func (n *Node[N]) decode(item Item) (NodeItem[N], bool, error) {
	var v NodeItem[N]
	pk, _ := stringAttr(item, n.t.opts.PartitionKey)
	sk, _ := stringAttr(item, n.t.opts.SortKey)
	typ, id, err := ParseNodeKey(pk)
	if err != nil || typ != n.typ || sk != n.marker && !(n.marker == "" && sk == pk) {
		return v, false, nil
	}
	v.ID = id
	return v, true, n.t.unmarshalData(item, &v.Data)
}

// ByIndex returns the query over one partition of a derived-key index for
// this kind of edge, as [Node.ByIndex] does: values fill the edge's
// partition key template ([Attr] values; ids for [SourceKey], [TargetKey]
// and [SelfKey]); for a local index the one value is the source id. A
// course's roster in enrolment order, with EdgeOptions.Indexes =
// {{Index: "GSI2", PartitionKey: Compose(TargetKey()), SortKey:
// Compose(Const("ENROLL"), Attr("enrolledOn"))}}:
//
//	enrolled.ByIndex("GSI2", "math204").GreaterThanEqual("2026-09-01")
//
// is GSI2PK = "CRS#math204" AND GSI2SK BETWEEN "ENROLL#2026-09-01" AND
// "ENROLL$". Both endpoint ids come back in each [EdgeItem].
func (e *Edge[E]) ByIndex(index string, values ...any) Query[EdgeItem[E]] {
	const op = "Edge.ByIndex"
	if e.err != nil {
		return errQuery[EdgeItem[E]](e.t, op, e.err)
	}
	return indexQuery(e.t, op, &e.it, index, values, e.decodeItem)
}

// ByIndex returns the query over one partition of a derived-key index for
// this collection's children, as [Node.ByIndex] does: values fill the
// children's partition key template ([Attr] values; ids for [ParentKey]
// and [SelfKey]); for a local index the one value is the parent id.
// Every active project across workspaces, newest first, with
// CollectionOptions.Indexes = {{Index: "GSI2", PartitionKey:
// Compose(Const("STATUS"), Attr("status")), SortKey:
// Compose(Attr("createdAt"))}}:
//
//	projects.ByIndex("GSI2", "ACTIVE").Desc()
//
// is GSI2PK = "STATUS#ACTIVE", ScanIndexForward=false. Each [Child] has its
// parent's id and its own.
func (c *Collection[P, C]) ByIndex(index string, values ...any) Query[Child[C]] {
	const op = "Collection.ByIndex"
	if c.err != nil {
		return errQuery[Child[C]](c.t, op, c.err)
	}
	return indexQuery(c.t, op, &c.it, index, values, c.decodeItem)
}

// indexQuery is the query of item type it over one partition of index.
func indexQuery[T any](t *Table, op string, it *itemType, index string, values []any, decode func(Item) (T, bool, error)) Query[T] {
	k, err := it.indexKeys(t, index, values)
	if err != nil {
		return errQuery[T](t, op, err)
	}
	return newQuery(t, op, k, decode)
}

// indexKeys is the partition and sort key prefix that it's items have in
// index, the partition's variable parts given by values.
func (it *itemType) indexKeys(t *Table, index string, values []any) (queryKeys, error) {
	ix, err := t.index(index)
	if err != nil {
		return queryKeys{}, err
	}
	if ix.native() {
		return queryKeys{}, fmt.Errorf("%w: index %s is native; read it with ...", ErrInvalidOption, index)
	}
	b, ok := it.indexIn(index)
	if !ok {
		return queryKeys{}, fmt.Errorf("%w: %s declares no keys in index %s", ErrInvalidOption, it.kind, index)
	}
	pk, err := it.fill(b, values)
	if err != nil {
		return queryKeys{}, fmt.Errorf("%w: index %s partition key %s: %w", ErrInvalidOption, index, Compose(b.pk...), err)
	}
	k := queryKeys{index: index, pk: pk, local: ix.Local, freeSK: b.skAttr != ""}
	if b.skAttr != "" {
		k.skPrefix, k.skExact = staticPrefix(b.sk, &it.prefixes)
		if k.skExact {
			k.skPrefix = strings.TrimSuffix(k.skPrefix, "#")
		}
	}
	if b.shards > 0 {
		k.shardPKs = shardKeys(pk, b.shards)
	}
	return k, nil
}

// fill renders b's partition key template with values in place of its
// variable parts.
func (it *itemType) fill(b *boundIndex, values []any) (string, error) {
	var sb strings.Builder
	n := 0
	for i, p := range b.pk {
		if i > 0 {
			sb.WriteByte('#')
		}
		if p.kind == partConst {
			sb.WriteString(p.name)
			continue
		}
		if n == len(values) {
			return "", fmt.Errorf("%d values given, it takes more", len(values))
		}
		v := values[n]
		n++
		if p.kind == partAttr {
			s, err := valueText(p.name, v)
			if err != nil {
				return "", err
			}
			sb.WriteString(s)
			continue
		}
		id, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s takes an id string, got %T", Compose(p), v)
		}
		if err := checkID(Compose(p).String(), id); err != nil {
			return "", err
		}
		sb.WriteString(it.prefixes.prefix(p.kind))
		sb.WriteString(joinKey(id))
	}
	if n != len(values) {
		return "", fmt.Errorf("%d values given, it takes %d", len(values), n)
	}
	return sb.String(), nil
}

// valueText is a query value's text in a key, as Attr writes the
// attribute: a string escaped, a number in DynamoDB's decimal text.
func valueText(name string, v any) (string, error) {
	av, err := attributevalue.Marshal(v)
	if err != nil {
		return "", err
	}
	text, present, err := attrKeyText(name, av)
	if err == nil && !present {
		err = fmt.Errorf("empty value for %s", name)
	}
	return text, err
}
