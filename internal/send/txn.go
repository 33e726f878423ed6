package send

import (
	"unicode/utf16"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// DynamoDB's limits on one transaction.
const (
	MaxActions = 100             // actions, or reads
	MaxSize    = 4 * 1024 * 1024 // bytes of items written
	MaxToken   = 36              // ClientRequestToken's length, by TokenLen
)

// TokenLen is token's length as DynamoDB measures a ClientRequestToken:
// in characters (UTF-16 code units), not bytes.
func TokenLen(token string) (n int) {
	for _, r := range token {
		n += utf16.RuneLen(r)
	}
	return n
}

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

// TxUpdate is the action that applies update (names and values in c)
// under c if set, asking for the stored item when c fails.
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
