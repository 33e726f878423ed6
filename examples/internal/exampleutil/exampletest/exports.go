package exampletest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/cloudformation"
	"github.com/adjlist/adjlist/ddblocal"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/internal/cfnlint"
	"github.com/adjlist/adjlist/workbench"
)

// Exports runs ex as a command twice and checks the files of -workbench
// and -cloudformation:
//
//   - with -describe, without DynamoDB: both files are written, the data
//     model has the structure of NoSQL Workbench's sample models and no
//     sample items, and the template is cfn-lint clean; -describe alone
//     names the default table (adjlist-<example>), and -describe -cleanup
//     is refused with the reason (exampleutil's TestMainExitCodes holds
//     the exit status Main gives it);
//   - after a run on a fresh table of DynamoDB Local (reached through
//     AWS_ENDPOINT_URL_DYNAMODB, as a user's shell would): the data model's
//     TableData is exactly the table's items, and the template's
//     properties create a table with the run's key schema and indexes,
//     with the Time to Live the run enabled.
//
// It returns the data model written after the run, for checks of the
// example's own.
func Exports(t *testing.T, ex exampleutil.Example) *workbench.File {
	t.Helper()
	dir := t.TempDir()
	wb, cf := filepath.Join(dir, "model.json"), filepath.Join(dir, "table.json")
	var out bytes.Buffer
	require.NoError(t, ex.Execute(context.Background(), []string{"-describe", "-table", "exported", "-workbench", wb, "-cloudformation", cf}, &out))
	assert.Contains(t, out.String(), "```mermaid\nflowchart LR\n", "-describe prints the diagram")
	f := readWorkbench(t, wb, "exported")
	assert.Empty(t, f.DataModel[0].TableData, "no sample items without a run")
	recordedModel(t, ex)
	cfnlint.Check(t, cf)
	tpl := readTemplate(t, cf)
	assert.Equal(t, "exported", tpl.Resources["Table"].Properties.TableName)
	sameIndexes(t, out.String(), f, tpl)
	// As a user's first command: the default table, and a flag -describe
	// would ignore refused (Main exits 2 on it; exampleutil tests Main).
	out.Reset()
	require.NoError(t, ex.Execute(context.Background(), []string{"-describe"}, &out))
	assert.Contains(t, out.String(), "### Table `adjlist-"+ex.Name+"`")
	err := ex.Execute(context.Background(), []string{"-describe", "-cleanup"}, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "-cleanup has no effect with -describe")

	db := ddbtest.Client(t)
	t.Setenv(ddblocal.EnvEndpoint, aws.ToString(db.Options().BaseEndpoint))
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })
	require.NoError(t, ex.Execute(context.Background(), []string{"-table", table, "-workbench", wb, "-cloudformation", cf}, &out))
	f = readWorkbench(t, wb, table)
	scan, err := db.Scan(context.Background(), &dynamodb.ScanInput{TableName: aws.String(table)})
	require.NoError(t, err)
	var want []workbench.Item
	for _, item := range scan.Items {
		want = append(want, workbench.NewItem(item))
	}
	assert.ElementsMatch(t, want, f.DataModel[0].TableData, "TableData is the table's items")

	cfnlint.Check(t, cf)
	in := readTemplate(t, cf).Resources["Table"].Properties.CreateTableInput()
	desc := DescribeTable(t, db, table)
	assert.ElementsMatch(t, desc.KeySchema, in.KeySchema)
	assert.ElementsMatch(t, desc.AttributeDefinitions, in.AttributeDefinitions)
	assert.Len(t, in.GlobalSecondaryIndexes, len(desc.GlobalSecondaryIndexes))
	// DescribeTable need not list the indexes in the order they were
	// created: match them by name.
	byName := map[string]types.GlobalSecondaryIndex{}
	for _, g := range in.GlobalSecondaryIndexes {
		byName[aws.ToString(g.IndexName)] = g
	}
	for _, g := range desc.GlobalSecondaryIndexes {
		w, ok := byName[aws.ToString(g.IndexName)]
		if assert.True(t, ok, "index %s in the template", aws.ToString(g.IndexName)) {
			assert.Equal(t, g.KeySchema, w.KeySchema)
			assert.Equal(t, g.Projection.ProjectionType, w.Projection.ProjectionType)
		}
	}
	assert.Len(t, in.LocalSecondaryIndexes, len(desc.LocalSecondaryIndexes))
	ttl, err := db.DescribeTimeToLive(context.Background(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	require.NoError(t, err)
	var wantTTL *cloudformation.TimeToLiveSpecification
	if d := ttl.TimeToLiveDescription; d != nil && d.TimeToLiveStatus == types.TimeToLiveStatusEnabled {
		wantTTL = &cloudformation.TimeToLiveSpecification{AttributeName: aws.ToString(d.AttributeName), Enabled: true}
	}
	assert.Equal(t, wantTTL, readTemplate(t, cf).Resources["Table"].Properties.TimeToLiveSpecification, "the template's TTL is the run's")
	return f
}

var (
	markdownIndex = regexp.MustCompile("(?m)^Index `([^`]+)`")
	markdownRead  = regexp.MustCompile(`\| ([^ |]+) \((?:eventually|strongly) consistent`) // an access pattern's index (the inverted one has its keys as columns)
	mermaidIndex  = regexp.MustCompile(`\{\{"([^<"]+)<br/>`)                               // an index's hexagon
	mermaidInvert = regexp.MustCompile(`\(Edge\.To, ([^)"]+)\)"`)                          // the inverted index, on reverse arrows
)

// sameIndexes asserts that the Markdown, the Mermaid diagram, the
// CloudFormation template and the Workbench data model name the same
// indexes: Workbench all but those it cannot model (local ones, and native
// keys of several attributes; see package workbench).
func sameIndexes(t *testing.T, described string, f *workbench.File, tpl *cloudformation.Template) {
	t.Helper()
	md, diagram, _ := strings.Cut(described, "```mermaid")
	names := func(re *regexp.Regexp, s string) []string {
		var out []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			if !slices.Contains(out, m[1]) {
				out = append(out, m[1])
			}
		}
		slices.Sort(out)
		return out
	}
	in := tpl.Resources["Table"].Properties.CreateTableInput()
	var cfn, wbWant, wb []string
	for _, g := range in.GlobalSecondaryIndexes {
		cfn = append(cfn, aws.ToString(g.IndexName))
		hash, rng := 0, 0
		for _, k := range g.KeySchema {
			if k.KeyType == types.KeyTypeHash {
				hash++
			} else {
				rng++
			}
		}
		if hash == 1 && rng <= 1 {
			wbWant = append(wbWant, aws.ToString(g.IndexName))
		}
	}
	for _, l := range in.LocalSecondaryIndexes {
		cfn = append(cfn, aws.ToString(l.IndexName))
	}
	for _, g := range f.DataModel[0].GlobalSecondaryIndexes {
		wb = append(wb, g.IndexName)
	}
	slices.Sort(cfn)
	slices.Sort(wbWant)
	slices.Sort(wb)
	mermaid := slices.Compact(slices.Sorted(slices.Values(append(names(mermaidIndex, diagram), names(mermaidInvert, diagram)...))))
	markdown := slices.Compact(slices.Sorted(slices.Values(append(names(markdownIndex, md), names(markdownRead, md)...))))
	assert.Equal(t, cfn, markdown, "Markdown and CloudFormation name different indexes")
	assert.Equal(t, cfn, mermaid, "Mermaid and CloudFormation name different indexes")
	assert.Equal(t, wbWant, wb, "Workbench and CloudFormation name different global indexes")
}

// readWorkbench parses the data model at path and checks the fields AWS's
// sample models have.
func readWorkbench(t *testing.T, path, table string) *workbench.File {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var raw struct {
		ModelName     string
		ModelMetadata map[string]any
		DataModel     []map[string]json.RawMessage
	}
	require.NoError(t, json.Unmarshal(b, &raw))
	assert.Equal(t, table, raw.ModelName)
	for _, k := range []string{"Author", "DateCreated", "DateLastModified", "Description", "AWSService", "Version"} {
		assert.Contains(t, raw.ModelMetadata, k)
	}
	require.Len(t, raw.DataModel, 1)
	for _, k := range []string{"TableName", "KeyAttributes", "NonKeyAttributes", "TableData", "DataAccess", "BillingMode"} {
		assert.Contains(t, raw.DataModel[0], k)
	}
	var f workbench.File
	require.NoError(t, json.Unmarshal(b, &f))
	assert.Equal(t, table, f.DataModel[0].TableName)
	assert.NotEmpty(t, f.DataModel[0].TableFacets)
	return &f
}

func readTemplate(t *testing.T, path string) *cloudformation.Template {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var tpl cloudformation.Template
	require.NoError(t, json.Unmarshal(b, &tpl))
	require.Contains(t, tpl.Resources, "Table")
	assert.Equal(t, cloudformation.ResourceType, tpl.Resources["Table"].Type)
	return &tpl
}

// recordedModel asserts that the table of ex's model records every item
// type its handles describe, with no mistake (Table.Check): DescribeModel
// without handles is the same model.
func recordedModel(t *testing.T, ex exampleutil.Example) {
	t.Helper()
	table, handles := ex.Model(nil, "recorded")
	require.NoError(t, table.Check())
	given, err := adjlist.DescribeModel(table, handles...)
	require.NoError(t, err)
	recorded, err := adjlist.DescribeModel(table)
	require.NoError(t, err)
	// The table may record more: endpoint node types that hold no item
	// of their own (examples/orders' STUDENT and COURSE).
	assert.Subset(t, recorded.Items, given.Items, "the table records the item types the handles describe")
}
