package send

import (
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's limits on one transaction.
const (
	// MaxActions is the most actions, or reads, one transaction holds.
	MaxActions = 100
	// MaxSize is the most bytes of items one transaction may write.
	MaxSize = 4 * 1024 * 1024
	// MaxToken is the longest ClientRequestToken DynamoDB accepts.
	MaxToken = 36
)

// key is an item's primary key: an action's or a read's.
type key struct{ pk, sk string }

// TxPut is the action that writes item in table, under c if it is set,
// asking for the stored item when c fails (ALL_OLD).
func TxPut(table *string, item Item, c Cond) types.TransactWriteItem {
	p := &types.Put{TableName: table, Item: item}
	if c.Expr != nil {
		p.ConditionExpression = c.Expr
		p.ExpressionAttributeNames = c.Names
		p.ExpressionAttributeValues = c.Values
		p.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	return types.TransactWriteItem{Put: p}
}

// TxUpdate is the action that changes the item with key by the update
// expression, under c if it is set (the update's names and values are
// c's), asking for the stored item when c fails.
func TxUpdate(table *string, key Item, update *string, c Cond) types.TransactWriteItem {
	u := &types.Update{TableName: table, Key: key, UpdateExpression: update,
		ConditionExpression: c.Expr, ExpressionAttributeNames: c.Names, ExpressionAttributeValues: c.Values}
	if c.Expr != nil {
		u.ReturnValuesOnConditionCheckFailure = types.ReturnValuesOnConditionCheckFailureAllOld
	}
	return types.TransactWriteItem{Update: u}
}

// TxDelete is the action that deletes the item with key, under c, asking
// for the stored item when c fails.
func TxDelete(table *string, key Item, c Cond) types.TransactWriteItem {
	return types.TransactWriteItem{Delete: &types.Delete{
		TableName:                           table,
		Key:                                 key,
		ConditionExpression:                 c.Expr,
		ExpressionAttributeNames:            c.Names,
		ExpressionAttributeValues:           c.Values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}
}

// TxCheck is the action that checks c on the item with key, writing
// nothing, asking for the stored item when c fails.
func TxCheck(table *string, key Item, c Cond) types.TransactWriteItem {
	return types.TransactWriteItem{ConditionCheck: &types.ConditionCheck{
		TableName:                           table,
		Key:                                 key,
		ConditionExpression:                 c.Expr,
		ExpressionAttributeNames:            c.Names,
		ExpressionAttributeValues:           c.Values,
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	}}
}
