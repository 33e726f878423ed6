package exampleutil

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Row is one item of a printed table.
type Row struct {
	// Keys holds the values of the key columns, in the order given to
	// [PrintTable], a number as stored; "" where the item has no such
	// attribute (a node item outside the index, say).
	Keys []string
	// Attrs holds the item's other attributes, decoded, with every number
	// (alone, in a set, list or map) an [attributevalue.Number]: its
	// digits as DynamoDB stores them, never a float64 that would print
	// 1798095538 as 1.798095538e+09 or round a 20-digit number.
	Attrs map[string]any
}

// PrintTable scans tableName raw (every page) and prints it the way the
// seeds draw a table: one line per item with the key columns, then the
// item's other attributes as name=value, sorted by name. A number, in a
// column or an attribute, is printed exactly as DynamoDB stores it
// (ttl=1798095538, never 1.798095538e+09). keys names the key columns,
// partition key first, then sort key, then any index keys.
// Rows are ordered by compare, or by their key columns, ascending, if
// compare is nil (see [SeedOrder] for the seeds' order).
func PrintTable(ctx context.Context, db dynamodb.ScanAPIClient, tableName string, w io.Writer, keys []string, compare func(a, b Row) int) error {
	items, err := scan(ctx, db, tableName, 0)
	if err != nil {
		return err
	}
	return printItems(w, items, keys, compare)
}

// printItems prints items as [PrintTable] does.
func printItems(w io.Writer, items []map[string]types.AttributeValue, keys []string, compare func(a, b Row) int) error {
	rows := make([]Row, 0, len(items))
	for _, item := range items {
		var attrs map[string]any
		if err := attributevalue.UnmarshalMapWithOptions(item, &attrs, useNumber); err != nil {
			return err
		}
		r := Row{Keys: make([]string, len(keys)), Attrs: attrs}
		for i, k := range keys {
			if v, ok := attrs[k]; ok {
				r.Keys[i] = fmt.Sprint(v)
			}
			delete(attrs, k)
		}
		rows = append(rows, r)
	}
	if compare == nil {
		compare = func(a, b Row) int { return slices.Compare(a.Keys, b.Keys) }
	}
	slices.SortStableFunc(rows, compare)

	tw := tabwriter.NewWriter(w, 0, 0, 1, ' ', tabwriter.Debug)
	fmt.Fprintln(tw, strings.Join(append(slices.Clone(keys), "attributes"), "\t"))
	for _, r := range rows {
		attrs := make([]string, 0, len(r.Attrs))
		for k, v := range r.Attrs {
			attrs = append(attrs, fmt.Sprintf("%s=%v", k, v))
		}
		slices.Sort(attrs)
		fmt.Fprintln(tw, strings.Join(append(slices.Clone(r.Keys), strings.Join(attrs, ", ")), "\t"))
	}
	return tw.Flush()
}

// useNumber decodes numbers as attributevalue.Number, the string DynamoDB
// returns, which prints as it is.
func useNumber(o *attributevalue.DecoderOptions) { o.UseNumber = true }

// SeedOrder orders rows the way the seeds draw their tables: partitions
// grouped by node type, each partition's head item (the node or parent
// item) first, then the rest of the partition by sort key. It reads the
// partition key from Row.Keys[0] and the sort key from Row.Keys[1].
type SeedOrder struct {
	// Types lists node types (the partition key up to its first '#') in
	// display order; partitions of other types follow, by key.
	Types []string
	// Heads lists the sort keys that lead their partition, in order, e.g.
	// item markers such as "PROFILE" or "METADATA". An item whose sort key
	// equals its partition key (a self-keyed node) always leads.
	Heads []string
	// Desc lists the rest of each partition in descending sort key order.
	Desc bool
}

// Compare orders a before b (negative), after (positive) or neither (0).
func (o SeedOrder) Compare(a, b Row) int {
	pa, pb := a.Keys[0], b.Keys[0]
	if c := cmp.Compare(o.typeRank(pa), o.typeRank(pb)); c != 0 {
		return c
	}
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	if c := cmp.Compare(o.headRank(a), o.headRank(b)); c != 0 {
		return c
	}
	c := cmp.Compare(a.Keys[1], b.Keys[1])
	if o.Desc {
		c = -c
	}
	return c
}

func (o SeedOrder) typeRank(pk string) int {
	typ, _, _ := strings.Cut(pk, "#")
	if i := slices.Index(o.Types, typ); i >= 0 {
		return i
	}
	return len(o.Types)
}

func (o SeedOrder) headRank(r Row) int {
	if r.Keys[1] == r.Keys[0] {
		return 0
	}
	if i := slices.Index(o.Heads, r.Keys[1]); i >= 0 {
		return 1 + i
	}
	return 1 + len(o.Heads)
}

// DeleteTable deletes tableName, for -cleanup.
func DeleteTable(ctx context.Context, db API, tableName string) error {
	_, err := db.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(tableName)})
	return err
}

// Shape is an item reduced to what a seed specifies about it: the values
// of the key attributes it has, and the names of its other attributes.
// Tests compare a table's shapes with the seed's.
type Shape struct {
	// Keys maps each key attribute the item has to its string value; a key
	// attribute the item lacks (an index key on a node item) is absent.
	Keys map[string]string
	// Attrs lists the names of the item's other attributes, sorted.
	Attrs []string
}

// ScanShapes scans tableName raw, every page, and returns each item's
// [Shape], with keyAttrs naming the key attributes. A key attribute that is
// not a string is an error.
func ScanShapes(ctx context.Context, db dynamodb.ScanAPIClient, tableName string, keyAttrs ...string) ([]Shape, error) {
	return scanShapes(ctx, db, tableName, 0, keyAttrs)
}

func scanShapes(ctx context.Context, db dynamodb.ScanAPIClient, tableName string, pageSize int32, keyAttrs []string) ([]Shape, error) {
	items, err := scan(ctx, db, tableName, pageSize)
	if err != nil {
		return nil, err
	}
	shapes := make([]Shape, 0, len(items))
	for _, item := range items {
		s := Shape{Keys: map[string]string{}, Attrs: []string{}}
		for name, v := range item {
			if !slices.Contains(keyAttrs, name) {
				s.Attrs = append(s.Attrs, name)
				continue
			}
			str, ok := v.(*types.AttributeValueMemberS)
			if !ok {
				return nil, fmt.Errorf("key attribute %s is a %T, not a string", name, v)
			}
			s.Keys[name] = str.Value
		}
		slices.Sort(s.Attrs)
		shapes = append(shapes, s)
	}
	return shapes, nil
}

// scan reads every item of tableName, pageSize items per Scan request (0:
// DynamoDB's 1 MB pages).
func scan(ctx context.Context, db dynamodb.ScanAPIClient, tableName string, pageSize int32) ([]map[string]types.AttributeValue, error) {
	in := &dynamodb.ScanInput{TableName: aws.String(tableName)}
	if pageSize > 0 {
		in.Limit = aws.Int32(pageSize)
	}
	var items []map[string]types.AttributeValue
	pages := dynamodb.NewScanPaginator(db, in)
	for pages.HasMorePages() {
		out, err := pages.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		items = append(items, out.Items...)
	}
	return items, nil
}
