package exampleutil

import (
	"context"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// PrintIndex scans the secondary index indexName of tableName raw (every
// page) and prints what the index holds as [PrintTable] prints a table:
// one line per item the index contains (items without its key attributes
// are not in it), with the key columns keys (the index's partition and
// sort key first, then the table's keys), then the projected attributes.
// Rows are ordered by compare, or by their key columns if compare is nil:
// index partitions in key order, each in sort key order.
func PrintIndex(ctx context.Context, db dynamodb.ScanAPIClient, tableName, indexName string, w io.Writer, keys []string, compare func(a, b Row) int) error {
	in := &dynamodb.ScanInput{TableName: aws.String(tableName), IndexName: aws.String(indexName)}
	var items []map[string]types.AttributeValue
	pages := dynamodb.NewScanPaginator(db, in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return err
		}
		items = append(items, out.Items...)
	}
	return printItems(w, items, keys, compare)
}
