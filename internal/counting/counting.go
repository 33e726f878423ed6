// Package counting is the transaction actions of adjlist's counters on
// plain keys: applying a stream record idempotently, changing a count, and
// a cascade's counted delete. Package adjlist renders the keys.
package counting

import (
	"strings"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist/internal/send"
)

// maxSequenceLen is the width sequence numbers are padded to, so that
// they compare as strings: DynamoDB Streams' are 21 to 40 digits.
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
// applied (seq, padded by [Sequence]), and the aggregate's change by one.
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
		Add(table, aggKey, name, delta, ""),
	}, nil
}

// Add is the action adding delta to counter name's aggregate at key (and
// naming the counter on it, for an index keyed on it); with pkAttr, only
// if the aggregate exists.
func Add(table *string, key map[string]types.AttributeValue, name string, delta int64, pkAttr string) types.TransactWriteItem {
	b := expression.NewBuilder().WithUpdate(expression.Add(expression.Name("count"), expression.Value(delta)).
		Set(expression.Name("counter"), expression.Value(name)))
	if pkAttr != "" {
		b = b.WithCondition(expression.AttributeExists(expression.Name(pkAttr)))
	}
	e := mustBuild(b)
	return send.TxUpdate(table, key, e.Update(), send.Cond{Expr: e.Condition(), Names: e.Names(), Values: e.Values()})
}

// Counted is one count a counted item's delete changes: counter Name's
// count item at Aggregate.
type Counted struct {
	Name      string
	Aggregate map[string]types.AttributeValue
}

// Delete is the actions of deleting the counted item at key, conditioned
// on its existence, and of counting it down on each of counts, each
// conditioned on the count item existing (a delete never makes one).
func Delete(table *string, pkAttr string, key map[string]types.AttributeValue, counts []Counted) []types.TransactWriteItem {
	exists := mustBuild(expression.NewBuilder().WithCondition(expression.AttributeExists(expression.Name(pkAttr))))
	out := make([]types.TransactWriteItem, 0, 1+len(counts))
	out = append(out, send.TxDelete(table, key, send.Cond{Expr: exists.Condition(), Names: exists.Names()}))
	for _, c := range counts {
		out = append(out, Add(table, c.Aggregate, c.Name, -1, pkAttr))
	}
	return out
}

// Failed reads a cancelled [Delete]'s reason codes: gone is whether the
// item was missing; keep is the counts whose count item exists, to send
// again (all of them when no condition failed).
func Failed(codes []string, counts []Counted) (gone bool, keep []Counted) {
	failed := func(i int) bool { return i < len(codes) && codes[i] == "ConditionalCheckFailed" }
	if failed(0) {
		return true, nil
	}
	for i, c := range counts {
		if !failed(1 + i) {
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
