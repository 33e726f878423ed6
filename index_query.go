package adjlist

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

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
	return indexQuery(n.t, op, &n.it, index, values, n.decodeItem)
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
	k.kind = it.kind
	return newQuery(t, op, k, decode)
}

// indexKeys is the partition and sort key prefix that it's items have in
// index, the partition's variable parts given by values.
func (it *itemType) indexKeys(t *Table, index string, values []any) (queryKeys, error) {
	ix, err := t.index(index)
	if err != nil {
		return queryKeys{}, err
	}
	if ix.native() && ix.Local && it.homePK != nil {
		// An entity's partition: its partition key's ids come first.
		n := len(it.homePK.fieldsOf(nil))
		ids := make([]string, 0, n)
		for _, v := range values[:min(n, len(values))] {
			id, ok := v.(string)
			if err := checkID(index, id); !ok || err != nil {
				return queryKeys{}, fmt.Errorf("%w: index %s takes the partition key's %d ids first, got %v", ErrInvalidOption, index, n, v)
			}
			ids = append(ids, id)
		}
		if len(ids) < n {
			return queryKeys{}, fmt.Errorf("%w: index %s takes the partition key's %d ids first", ErrInvalidOption, index, n)
		}
		pk := it.homePK.render(it.homePK.fieldsOf(nil), ids)
		values = append([]any{pk}, values[n:]...)
		return nativeQueryKeys(ix, []KeyAttribute{{Name: t.opts.PartitionKey}}, values)
	}
	if ix.native() && ix.Local {
		// The partition is the item type's own: its first value is an id.
		if len(values) == 0 {
			return queryKeys{}, fmt.Errorf("%w: index %s takes the partition's id first", ErrInvalidOption, index)
		}
		home := KeyPart{kind: it.home}
		id, ok := values[0].(string)
		if err := checkID(index, id); !ok || err != nil {
			return queryKeys{}, fmt.Errorf("%w: index %s takes the partition's id first, got %v", ErrInvalidOption, index, values[0])
		}
		pk := it.prefixes.prefix(home.kind) + joinKey(id)
		values = append([]any{pk}, values[1:]...)
		return nativeQueryKeys(ix, []KeyAttribute{{Name: t.opts.PartitionKey}}, values)
	}
	if ix.native() {
		return nativeQueryKeys(ix, ix.PartitionAttributes, values)
	}
	b, ok := it.indexIn(index)
	if !ok {
		return queryKeys{}, fmt.Errorf("%w: %s declares no keys in index %s", ErrInvalidOption, it.kind, index)
	}
	pk, err := it.fill(b, values)
	if err != nil {
		return queryKeys{}, fmt.Errorf("%w: index %s partition key %s: %w", ErrInvalidOption, index, partsString(b.pk), err)
	}
	// The same limit writes enforce (template.go): a partition value no
	// item can hold is refused before the request, not by DynamoDB.
	if err := checkLen(index, "index partition key", pk, MaxPartitionKeyLen); err != nil {
		return queryKeys{}, err
	}
	k := queryKeys{index: index, pk: pk, local: ix.Local, freeSK: b.skAttr != ""}
	if b.skAttr != "" {
		k.skPrefix, k.skExact = staticPrefix(b.sk, &it.prefixes)
		k.skRest = indexRest(b.sk, &it.prefixes)
	}
	if b.shards > 0 {
		k.shardPKs = shardKeys(pk, b.shards)
		if err := checkLen(index, "index partition key", k.shardPKs[len(k.shardPKs)-1], MaxPartitionKeyLen); err != nil {
			return queryKeys{}, err
		}
	}
	return k, nil
}

// fill renders b's partition key template with values in place of its
// variable parts.
func (it *itemType) fill(b *boundIndex, values []any) (string, error) {
	var sb strings.Builder
	n := 0
	for _, p := range b.pk {
		if !p.variable() {
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
		name := partsString([]KeyPart{p})
		id, ok := v.(string)
		if !ok {
			return "", fmt.Errorf("%s takes an id string, got %T", name, v)
		}
		if err := checkID(name, id); err != nil {
			return "", err
		}
		if p.kind != partField {
			sb.WriteString(it.prefixes.prefix(p.kind))
		}
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

// nativeKeys is the key condition of a query on a native index: every
// partition attribute, and the leading sort attributes, equal to values;
// range conditions apply to next, the first sort attribute not fixed.
type nativeKeys struct {
	eq   []nativeValue
	next *KeyAttribute
	pkN  int // how many of eq are the partition's
}

type nativeValue struct {
	name string
	av   types.AttributeValue
}

// avValue hands a ready AttributeValue to the expression builder.
type avValue struct{ av types.AttributeValue }

func (v avValue) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) { return v.av, nil }

// nativeQueryKeys is the query on native index ix whose values are its
// partition attributes' values, then optionally its leading sort
// attributes', in order: a value cannot skip an attribute, so DynamoDB's
// rule that conditions on sort attributes go from the left holds by
// construction.
func nativeQueryKeys(ix *Index, partition []KeyAttribute, values []any) (queryKeys, error) {
	attrs := slices.Concat(partition, ix.SortAttributes)
	switch {
	case len(values) < len(partition):
		return queryKeys{}, fmt.Errorf("%w: index %s: %d values given, its partition key has %d attributes", ErrInvalidOption, ix.Name, len(values), len(partition))
	case len(values) > len(attrs):
		return queryKeys{}, fmt.Errorf("%w: index %s: %d values given, it has %d key attributes", ErrInvalidOption, ix.Name, len(values), len(attrs))
	}
	nk := &nativeKeys{pkN: len(partition)}
	var desc []string
	for i, v := range values {
		av, err := typedValue(attrs[i], v)
		if err != nil {
			return queryKeys{}, fmt.Errorf("%w: index %s: %w", ErrInvalidOption, ix.Name, err)
		}
		if s, ok := av.(*types.AttributeValueMemberS); ok {
			attr, limit := "index partition key", MaxPartitionKeyLen
			if i >= len(partition) {
				attr, limit = "index sort key", MaxSortKeyLen
			}
			if err := checkLen(ix.Name, attr, s.Value, limit); err != nil {
				return queryKeys{}, err
			}
		}
		nk.eq = append(nk.eq, nativeValue{attrs[i].Name, av})
		desc = append(desc, attrs[i].Name+"="+attrText(av))
	}
	if len(values) < len(attrs) {
		nk.next = &attrs[len(values)]
	}
	return queryKeys{index: ix.Name, pk: strings.Join(desc, ","), native: nk, freeSK: nk.next != nil, local: ix.Local}, nil
}

// typedValue converts a query value to key attribute a's type: a string
// for S; any Go number, or a string holding one, for N.
func typedValue(a KeyAttribute, v any) (types.AttributeValue, error) {
	if s, ok := v.(string); ok && attrType(a) == types.ScalarAttributeTypeN {
		return numberText(a.Name, s)
	}
	av, err := attributevalue.Marshal(v)
	if err != nil {
		return nil, err
	}
	switch av := av.(type) {
	case *types.AttributeValueMemberS:
		if attrType(a) == types.ScalarAttributeTypeS && av.Value != "" {
			return av, nil
		}
	case *types.AttributeValueMemberN:
		if attrType(a) == types.ScalarAttributeTypeN {
			return av, nil
		}
	}
	return nil, fmt.Errorf("%s is of type %s, got %T %v", a.Name, attrType(a), v, v)
}

// numberText checks that s is a number DynamoDB accepts.
func numberText(name, s string) (types.AttributeValue, error) {
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return nil, fmt.Errorf("%s is a number, got %q", name, s)
	}
	return &types.AttributeValueMemberN{Value: s}, nil
}

// buildNative builds the expressions of a query on a native index: an
// equality on each fixed attribute, then sk's condition on the next.
func (t *Table) buildNative(k queryKeys, sk skCond, filter *expression.ConditionBuilder, proj []string) (expression.Expression, error) {
	nk := k.native
	conds := make([]expression.KeyConditionBuilder, 0, len(nk.eq)+1)
	for _, v := range nk.eq {
		conds = append(conds, expression.Key(v.name).Equal(expression.Value(avValue{v.av})))
	}
	if sk.op != skNone {
		lo, err := typedValue(*nk.next, sk.lo)
		if err != nil {
			return expression.Expression{}, err
		}
		key, val := expression.Key(nk.next.Name), expression.Value(avValue{lo})
		switch sk.op {
		case skBetween:
			hi, err := typedValue(*nk.next, sk.hi)
			if err != nil {
				return expression.Expression{}, err
			}
			conds = append(conds, key.Between(val, expression.Value(avValue{hi})))
		case skGT:
			conds = append(conds, key.GreaterThan(val))
		case skGE:
			conds = append(conds, key.GreaterThanEqual(val))
		case skLT:
			conds = append(conds, key.LessThan(val))
		case skLE:
			conds = append(conds, key.LessThanEqual(val))
		case skEQ:
			conds = append(conds, key.Equal(val))
		case skBeginsWith:
			conds = append(conds, key.BeginsWith(sk.lo))
		}
	}
	kc := conds[0]
	if len(conds) > 1 {
		kc = expression.KeyAnd(conds...)
	}
	return t.finishExpr(expression.NewBuilder().WithKeyCondition(kc), k, filter, proj)
}

// nativeBounds checks the values of a sort key condition on a native
// index's next attribute: of its type, lo not after hi, begins_with only
// on strings. Values are the data's own, not escaped: a native attribute
// is a plain value, not a composed key (Query's rule for range values).
func nativeBounds(next *KeyAttribute, name, a, b string) error {
	lo, err := typedValue(*next, a)
	if err != nil {
		return err
	}
	if name == "BeginsWith" && attrType(*next) != types.ScalarAttributeTypeS {
		return fmt.Errorf("BeginsWith on number attribute %s", next.Name)
	}
	if name != "Between" {
		return nil
	}
	hi, err := typedValue(*next, b)
	if err != nil {
		return err
	}
	if n, ok := lo.(*types.AttributeValueMemberN); ok {
		x, _ := strconv.ParseFloat(n.Value, 64)
		y, _ := strconv.ParseFloat(hi.(*types.AttributeValueMemberN).Value, 64)
		if x > y {
			return fmt.Errorf("Between(%s, %s): lo is greater than hi", a, b)
		}
	} else if a > b {
		return fmt.Errorf("Between(%q, %q): lo sorts after hi", a, b)
	}
	return nil
}
