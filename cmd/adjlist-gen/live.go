package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// defaultSample is how many items -table reads by default.
const defaultSample = 1000

// Errors of reading a live table, each before anything is written.
var (
	// errNoRegion: the SDK's configuration names no region.
	errNoRegion = errors.New("no AWS region")
	// errNoCredentials: the SDK's configuration finds no credentials.
	errNoCredentials = errors.New("no AWS credentials")
	// errNoTable: DescribeTable found no such table.
	errNoTable = errors.New("no such table")
	// errRead: a DescribeTable or Scan request failed.
	errRead = errors.New("cannot read the table")
)

// liveClient is the part of the DynamoDB API readTable uses.
type liveClient interface {
	dynamodb.DescribeTableAPIClient
	dynamodb.ScanAPIClient
}

// newLiveClient is a DynamoDB client of the SDK's default configuration
// (environment, shared config files; AWS_ENDPOINT_URL_DYNAMODB names
// another endpoint, such as DynamoDB Local's) and where names the endpoint
// for messages. A configuration without a region or credentials is an
// error, found before any request to DynamoDB.
func newLiveClient(ctx context.Context) (db *dynamodb.Client, where string, err error) {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return nil, "", fmt.Errorf("%w: the AWS configuration: %v", errRead, err)
	}
	where = "DynamoDB in " + cfg.Region
	for _, env := range []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"} {
		if e := os.Getenv(env); e != "" {
			where = e
			break
		}
	}
	if cfg.Region == "" {
		return nil, "", fmt.Errorf("%w: set AWS_REGION (or a profile's region; for DynamoDB Local any region, e.g. us-east-1)", errNoRegion)
	}
	if cfg.Credentials == nil {
		return nil, "", fmt.Errorf("%w: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (for DynamoDB Local any values)", errNoCredentials)
	}
	if _, err := cfg.Credentials.Retrieve(ctx); err != nil {
		return nil, "", fmt.Errorf("%w: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (for DynamoDB Local any values): %v", errNoCredentials, err)
	}
	return dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		// DynamoDB Local sends no CRC32 of an error response, which the
		// SDK then warns of on stderr (see package ddblocal).
		o.DisableValidateResponseChecksum = o.BaseEndpoint != nil
	}), where, nil
}

// readTable reads the live table name with db, at where (for messages):
// its definition (DescribeTable, sent while the Scan runs) and at most
// sample items (a Scan, through the SDK's paginator, of pages of at most
// sample+1 items, the one more telling whether the table holds more),
// reporting each page on progress. It returns them as the data model a
// NoSQL Workbench file holding that table and those items would be, the
// items sorted by their keys' text; what it leaves out is in the table's
// notes.
func readTable(ctx context.Context, db liveClient, where, name string, sample int, progress io.Writer) (*wbFile, error) {
	type described struct {
		out *dynamodb.DescribeTableOutput
		err error
	}
	desc := make(chan described, 1)
	go func() {
		out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		desc <- described{out, err}
	}()
	items, more, scanErr := scanSample(ctx, db, name, sample, progress)
	d := <-desc
	var notFound *types.ResourceNotFoundException
	switch err := cmp.Or(d.err, scanErr); {
	case errors.As(err, &notFound):
		return nil, fmt.Errorf("%w: %s at %s", errNoTable, name, where)
	case err != nil:
		return nil, fmt.Errorf("%w %s at %s: %v", errRead, name, where, err)
	}
	w := describedTable(d.out.Table)
	if more {
		w.liveNotes = append(w.liveNotes, fmt.Sprintf("inferred from a sample: the first %d items a Scan returned; the table may hold more (about %d by DescribeTable's ItemCount, which DynamoDB updates about every six hours), and -sample reads more", len(items), aws.ToInt64(d.out.Table.ItemCount)))
	}
	pk, sk := w.KeyAttributes.PartitionKey.AttributeName, ""
	if w.KeyAttributes.SortKey != nil {
		sk = w.KeyAttributes.SortKey.AttributeName
	}
	sortByKeys(items, pk, sk)
	w.live = items
	orderIndexes(w, items)
	return &wbFile{DataModel: []wbTable{*w}}, nil
}

// sortByKeys sorts items by their partition key pk, then their sort key
// sk, so that the package does not depend on the order a Scan returns.
func sortByKeys(items []map[string]types.AttributeValue, pk, sk string) {
	type keyed struct {
		pk, sk string
		av     map[string]types.AttributeValue
	}
	byKey := make([]keyed, len(items))
	for i, av := range items {
		byKey[i].av = av
		byKey[i].pk, _ = keyText(av[pk])
		byKey[i].sk, _ = keyText(av[sk])
	}
	slices.SortFunc(byKey, func(a, b keyed) int { return cmp.Or(cmp.Compare(a.pk, b.pk), cmp.Compare(a.sk, b.sk)) })
	for i := range byKey {
		items[i] = byKey[i].av
	}
}

// scanSample reads at most sample items of the table name; more is true
// when the table has items it did not read. It asks for one item more
// than sample (pages of at most sample+1 items), so that a table of
// exactly sample items is known to hold no more.
func scanSample(ctx context.Context, db dynamodb.ScanAPIClient, name string, sample int, progress io.Writer) (items []map[string]types.AttributeValue, more bool, err error) {
	want := min(sample, math.MaxInt32-1) + 1
	p := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{
		TableName: aws.String(name),
		Limit:     aws.Int32(int32(want)),
	})
	for p.HasMorePages() && len(items) < want {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, false, err
		}
		items = append(items, page.Items...)
		fmt.Fprintf(progress, "adjlist-gen: table %s: read %d items\n", name, min(len(items), sample))
	}
	if len(items) > sample {
		return items[:sample], true, nil
	}
	return items, false, nil
}

// describedTable is the Workbench table entry of the table d describes,
// without items: its keys and indexes. An index keyed on several
// attributes, which a Workbench model cannot hold, is left out with a
// note.
func describedTable(d *types.TableDescription) *wbTable {
	w := &wbTable{TableName: aws.ToString(d.TableName)}
	typ := map[string]string{}
	for _, a := range d.AttributeDefinitions {
		typ[aws.ToString(a.AttributeName)] = string(a.AttributeType)
	}
	keys := func(schema []types.KeySchemaElement) (k wbKeys, ok bool) {
		for _, e := range schema {
			a := &wbAttr{AttributeName: aws.ToString(e.AttributeName), AttributeType: typ[aws.ToString(e.AttributeName)]}
			into := &k.PartitionKey
			if e.KeyType == types.KeyTypeRange {
				into = &k.SortKey
			}
			if *into != nil {
				return k, false
			}
			*into = a
		}
		return k, true
	}
	w.KeyAttributes, _ = keys(d.KeySchema) // a table's keys are one attribute each
	index := func(name *string, schema []types.KeySchemaElement, p *types.Projection) (wbIndex, bool) {
		ix := wbIndex{IndexName: aws.ToString(name)}
		k, ok := keys(schema)
		if !ok {
			w.liveNotes = append(w.liveNotes, fmt.Sprintf("index %s is left out: its keys are of several attributes, which adjlist-gen does not read; declare it by hand (adjlist.Index with PartitionAttributes and SortAttributes)", ix.IndexName))
			return ix, false
		}
		ix.KeyAttributes = k
		if p != nil {
			ix.Projection.ProjectionType = string(p.ProjectionType)
			ix.Projection.NonKeyAttributes = p.NonKeyAttributes
		}
		return ix, true
	}
	for _, g := range d.GlobalSecondaryIndexes {
		if ix, ok := index(g.IndexName, g.KeySchema, g.Projection); ok {
			w.GSIs = append(w.GSIs, ix)
		}
	}
	for _, l := range d.LocalSecondaryIndexes {
		if ix, ok := index(l.IndexName, l.KeySchema, l.Projection); ok {
			w.LSIs = append(w.LSIs, ix)
		}
	}
	return w
}

// orderIndexes puts w's indexes, which DynamoDB lists in no set order, in
// the order inference decides them (the first index keyed on an
// attribute decides whether adjlist writes it): the global ones, then the
// local ones, each those with more key attributes holding composed values
// ('#' in some item's) first, then by name.
func orderIndexes(w *wbTable, items []map[string]types.AttributeValue) {
	count := func(ix wbIndex) int {
		n := 0
		for _, k := range []*wbAttr{ix.KeyAttributes.PartitionKey, ix.KeyAttributes.SortKey} {
			if k == nil || w.KeyAttributes.PartitionKey != nil && k.AttributeName == w.KeyAttributes.PartitionKey.AttributeName {
				continue
			}
			if slices.ContainsFunc(items, func(av map[string]types.AttributeValue) bool {
				s, ok := av[k.AttributeName].(*types.AttributeValueMemberS)
				return ok && strings.Contains(s.Value, "#")
			}) {
				n++
			}
		}
		return n
	}
	composed := map[string]int{}
	for _, ix := range slices.Concat(w.GSIs, w.LSIs) {
		composed[ix.IndexName] = count(ix)
	}
	for _, l := range [][]wbIndex{w.GSIs, w.LSIs} {
		slices.SortFunc(l, func(a, b wbIndex) int {
			return cmp.Or(cmp.Compare(composed[b.IndexName], composed[a.IndexName]), cmp.Compare(a.IndexName, b.IndexName))
		})
	}
}
