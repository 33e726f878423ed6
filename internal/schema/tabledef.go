package schema

import (
	"context"
	"fmt"
	"strings"

	"github.com/adjlist/adjlist/internal/errs"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Defaults fills each empty name: "PK", "SK", "GSI1", "GSI1PK", "GSI1SK";
// indexSK may be nil (an index without a sort key).
func Defaults(pk, sk, index, indexPK, indexSK *string) {
	if indexSK == nil {
		indexSK = new(string)
	}
	for _, d := range [...]struct {
		p *string
		v string
	}{{pk, "PK"}, {sk, "SK"}, {index, "GSI1"}, {indexPK, "GSI1PK"}, {indexSK, "GSI1SK"}} {
		if *d.p == "" {
			*d.p = d.v
		}
	}
}

// Config is what NewTable checks of a table's options, defaults filled.
type Config struct {
	Name                         string
	EncoderTagKey, DecoderTagKey string
	BatchMaxAttempts             int
	PartitionKey, SortKey        string
	// IndexSortKey has no default when IndexPartitionOnly (no sort key).
	IndexPartitionKey, IndexSortKey string
	IndexPartitionOnly, NoIndex     bool
	PartitionKeyType, SortKeyType   types.ScalarAttributeType // "", S or N
}

// KeyedOnSortKey reports whether the inverted index's partition and sort
// keys are the table's sort and partition keys.
func (c *Config) KeyedOnSortKey() bool {
	return c.IndexPartitionKey == c.SortKey && c.IndexSortKey == c.PartitionKey
}

// Check returns why c cannot work, wrapping [errs.ErrInvalidOption]. It
// names only the fields at fault, never the options (they hold the
// CursorKey).
func (c *Config) Check() error {
	switch {
	case c.Name == "":
		return fmt.Errorf("%w: empty table name", errs.ErrInvalidOption)
	case c.EncoderTagKey != c.DecoderTagKey:
		return fmt.Errorf("%w: EncoderOptions tag key %q and DecoderOptions tag key %q differ: reads would not fill what writes store", errs.ErrInvalidOption, c.EncoderTagKey, c.DecoderTagKey)
	case c.BatchMaxAttempts < 1:
		return fmt.Errorf("%w: BatchMaxAttempts %d", errs.ErrInvalidOption, c.BatchMaxAttempts)
	case !keyType(c.PartitionKeyType):
		return fmt.Errorf("%w: Options.PartitionKeyType %q, want S or N", errs.ErrInvalidOption, c.PartitionKeyType)
	case !keyType(c.SortKeyType):
		return fmt.Errorf("%w: Options.SortKeyType %q, want S or N", errs.ErrInvalidOption, c.SortKeyType)
	case c.PartitionKey == c.SortKey:
		return fmt.Errorf("%w: partition and sort key are both %q", errs.ErrInvalidOption, c.PartitionKey)
	case c.IndexPartitionOnly && c.NoIndex:
		return fmt.Errorf("%w: Options.IndexPartitionOnly with Options.NoIndex: a table without the inverted index has no index keys to declare", errs.ErrInvalidOption)
	case c.IndexPartitionOnly && c.IndexPartitionKey != c.SortKey:
		return fmt.Errorf("%w: Options.IndexPartitionOnly needs Options.IndexPartitionKey to be the table's sort key %q, not %q", errs.ErrInvalidOption, c.SortKey, c.IndexPartitionKey)
	case c.IndexPartitionOnly && c.IndexSortKey != "":
		return fmt.Errorf("%w: Options.IndexSortKey %q with Options.IndexPartitionOnly: a partition-only index has no sort key; leave IndexSortKey empty", errs.ErrInvalidOption, c.IndexSortKey)
	case c.IndexPartitionOnly:
	case c.KeyedOnSortKey():
	case len(map[string]bool{c.PartitionKey: true, c.SortKey: true, c.IndexPartitionKey: true, c.IndexSortKey: true}) != 4:
		return fmt.Errorf("%w: %s; the inverted index's keys must be distinct from the table's, exactly its sort and partition key, or its sort key alone with Options.IndexPartitionOnly", errs.ErrInvalidOption, c.clash())
	}
	return nil
}

func keyType(typ types.ScalarAttributeType) bool {
	return typ == "" || typ == types.ScalarAttributeTypeS || typ == types.ScalarAttributeTypeN
}

func (c *Config) clash() string {
	if c.IndexPartitionKey == c.IndexSortKey {
		return fmt.Sprintf("Options.IndexPartitionKey and Options.IndexSortKey are both %q", c.IndexPartitionKey)
	}
	var out []string
	for _, f := range [...]struct{ field, attr string }{{"IndexPartitionKey", c.IndexPartitionKey}, {"IndexSortKey", c.IndexSortKey}} {
		switch f.attr {
		case c.PartitionKey:
			out = append(out, fmt.Sprintf("Options.%s %q is the table's partition key", f.field, f.attr))
		case c.SortKey:
			out = append(out, fmt.Sprintf("Options.%s %q is the table's sort key", f.field, f.attr))
		}
	}
	return strings.Join(out, ", ")
}

// NoClient is a whole adjlist.Client standing in for a nil one: it sends
// nothing, and every request fails with Err.
type NoClient struct{ Err error }

func (c NoClient) GetItem(context.Context, *dynamodb.GetItemInput, ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) PutItem(context.Context, *dynamodb.PutItemInput, ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) UpdateItem(context.Context, *dynamodb.UpdateItemInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) DeleteItem(context.Context, *dynamodb.DeleteItemInput, ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, c.Err
}

func (c NoClient) BatchGetItem(context.Context, *dynamodb.BatchGetItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchGetItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) BatchWriteItem(context.Context, *dynamodb.BatchWriteItemInput, ...func(*dynamodb.Options)) (*dynamodb.BatchWriteItemOutput, error) {
	return nil, c.Err
}

func (c NoClient) TransactWriteItems(context.Context, *dynamodb.TransactWriteItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactWriteItemsOutput, error) {
	return nil, c.Err
}

func (c NoClient) TransactGetItems(context.Context, *dynamodb.TransactGetItemsInput, ...func(*dynamodb.Options)) (*dynamodb.TransactGetItemsOutput, error) {
	return nil, c.Err
}

func (c NoClient) Scan(context.Context, *dynamodb.ScanInput, ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	return nil, c.Err
}

func (c NoClient) CreateTable(context.Context, *dynamodb.CreateTableInput, ...func(*dynamodb.Options)) (*dynamodb.CreateTableOutput, error) {
	return nil, c.Err
}

func (c NoClient) DescribeTable(context.Context, *dynamodb.DescribeTableInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return nil, c.Err
}

func (c NoClient) DescribeTimeToLive(context.Context, *dynamodb.DescribeTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.DescribeTimeToLiveOutput, error) {
	return nil, c.Err
}

func (c NoClient) UpdateTimeToLive(context.Context, *dynamodb.UpdateTimeToLiveInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateTimeToLiveOutput, error) {
	return nil, c.Err
}

func (c NoClient) UpdateContinuousBackups(context.Context, *dynamodb.UpdateContinuousBackupsInput, ...func(*dynamodb.Options)) (*dynamodb.UpdateContinuousBackupsOutput, error) {
	return nil, c.Err
}
