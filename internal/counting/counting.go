// Package counting is the machinery of adjlist's Counter that works on
// plain keys and items, apart from its handles: the marker items that
// make applying a stream record idempotent, and the transaction actions
// of an apply and of a count's change. Package adjlist renders the keys
// and maps the errors.
package counting

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/send"
)

// maxSequenceLen is the width sequence numbers are padded to, so that
// they compare as strings: DynamoDB Streams sequence numbers are decimal
// strings of 21 to 40 digits.
const maxSequenceLen = 40

// Sequence is seq padded with zeros to compare as a string with any
// other; ok is false for a seq that is not 1 to 40 decimal digits.
func Sequence(seq string) (padded string, ok bool) {
	if len(seq) == 0 || len(seq) > maxSequenceLen || strings.Trim(seq, "0123456789") != "" {
		return "", false
	}
	return strings.Repeat("0", maxSequenceLen-len(seq)) + seq, true
}

// Apply is the two actions of applying one stream record of an edge to
// counter name: the update of its marker at markerKey, conditioned on the
// record changing the edge's presence and being newer than the last one
// applied (seq, padded by [Sequence]), and the change of the aggregate at
// aggKey by one. pkAttr is the table's partition key attribute, absent
// from a marker not written yet.
func Apply(table *string, pkAttr, name string, markerKey, aggKey map[string]types.AttributeValue, seq string, present bool) ([]types.TransactWriteItem, error) {
	seqName, presentName := expression.Name("seq"), expression.Name("present")
	var cond expression.ConditionBuilder
	delta := int64(1)
	if present {
		// Counted unless already counted by a record at least as new.
		cond = expression.AttributeNotExists(expression.Name(pkAttr)).
			Or(expression.And(seqName.LessThan(expression.Value(seq)), presentName.Equal(expression.Value(false))))
	} else {
		delta = -1
		cond = expression.And(seqName.LessThan(expression.Value(seq)), presentName.Equal(expression.Value(true)))
	}
	marker, err := expression.NewBuilder().WithCondition(cond).
		WithUpdate(expression.Set(seqName, expression.Value(seq)).Set(presentName, expression.Value(present))).Build()
	if err != nil {
		return nil, err
	}
	return []types.TransactWriteItem{
		{Update: &types.Update{
			TableName: table, Key: markerKey,
			UpdateExpression: marker.Update(), ConditionExpression: marker.Condition(),
			ExpressionAttributeNames: marker.Names(), ExpressionAttributeValues: marker.Values(),
		}},
		Add(table, aggKey, name, delta),
	}, nil
}

// Add is the action adding delta to counter name's aggregate at key
// (and naming the counter on it, for an index keyed on it).
func Add(table *string, key map[string]types.AttributeValue, name string, delta int64) types.TransactWriteItem {
	upd := expression.Add(expression.Name("count"), expression.Value(delta)).
		Set(expression.Name("counter"), expression.Value(name))
	e, err := expression.NewBuilder().WithUpdate(upd).Build()
	if err != nil {
		panic(err) // constant names and values: cannot fail
	}
	return send.TxUpdate(table, key, e.Update(), send.Cond{Names: e.Names(), Values: e.Values()})
}

// Counted is one count a counted edge's delete changes: counter Name's
// aggregate at Aggregate and the key Marker of the marker an apply of the
// edge's stream records would keep (nil: not checked).
type Counted struct {
	Name              string
	Aggregate, Marker map[string]types.AttributeValue
}

// Delete is the actions of deleting the counted edge at edgeKey and
// counting it down: the edge's delete, conditioned on its existence; then
// for each of counts, the aggregate's ADD count -1, conditioned on the
// aggregate existing (a delete never makes one), and, with a Marker, a
// check that no marker of the edge exists (a count kept from a stream
// counts the edge down when it applies the delete's REMOVE record).
// pkAttr is the table's partition key attribute. [Failed] reads a
// cancellation's reason codes back.
func Delete(table *string, pkAttr string, edgeKey map[string]types.AttributeValue, counts []Counted) []types.TransactWriteItem {
	pk := expression.Name(pkAttr)
	exists := mustBuild(expression.NewBuilder().WithCondition(expression.AttributeExists(pk)))
	absent := mustBuild(expression.NewBuilder().WithCondition(expression.AttributeNotExists(pk)))
	out := make([]types.TransactWriteItem, 0, 1+2*len(counts))
	out = append(out, send.TxDelete(table, edgeKey, send.Cond{Expr: exists.Condition(), Names: exists.Names()}))
	for _, c := range counts {
		upd := expression.Add(expression.Name("count"), expression.Value(int64(-1))).
			Set(expression.Name("counter"), expression.Value(c.Name))
		e := mustBuild(expression.NewBuilder().WithUpdate(upd).WithCondition(expression.AttributeExists(pk)))
		out = append(out, send.TxUpdate(table, c.Aggregate, e.Update(), send.Cond{Expr: e.Condition(), Names: e.Names(), Values: e.Values()}))
		if c.Marker != nil {
			out = append(out, send.TxCheck(table, c.Marker, send.Cond{Expr: absent.Condition(), Names: absent.Names()}))
		}
	}
	return out
}

// Failed reads the reason codes of a cancelled [Delete] of counts back:
// gone is whether the edge was missing; keep lists the counts whose
// aggregate exists and whose edge has no stream marker, the ones to send
// again (all of them when no condition failed: a conflict).
func Failed(codes []string, counts []Counted) (gone bool, keep []Counted) {
	failed := func(i int) bool { return i < len(codes) && codes[i] == "ConditionalCheckFailed" }
	if failed(0) {
		return true, nil
	}
	i := 1
	for _, c := range counts {
		drop := failed(i)
		i++
		if c.Marker != nil {
			drop = drop || failed(i)
			i++
		}
		if !drop {
			keep = append(keep, c)
		}
	}
	return false, keep
}

func mustBuild(b expression.Builder) expression.Expression {
	e, err := b.Build()
	if err != nil {
		panic(err) // constant names and values: cannot fail
	}
	return e
}
