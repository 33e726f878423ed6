package main

import (
	"bytes"
	"context"
	"fmt"
	"hash/fnv"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// shard is the GSI1 shard of the item with table keys pk, sk: FNV-1a of
// pk NUL sk modulo 4, two digits, as IndexKeys.Shards documents.
func shard(pk, sk string) string {
	h := fnv.New32a()
	h.Write([]byte(pk + "\x00" + sk))
	return fmt.Sprintf("%02d", h.Sum32()%shards)
}

// item is one row of the table; data "" means the item is not in GSI1.
func item(pk, typeTarget, data string, attrs ...string) exampleutil.Shape {
	keys := map[string]string{"PK": pk, "TypeTarget": typeTarget}
	if data != "" {
		keys["Data"], keys["Node"] = data, pk
	}
	return exampletest.Item(keys, attrs...)
}

// graphTable is the table every run leaves: each node's own item (found by
// name in GSI1), and in each person's partition a birth item (GSI1 by
// date, sharded), KNOWS edges (GSI2 only), HAS edges (GSI1 by skill,
// sharded) and LIVES_IN and WORKS_IN edges (GSI1 by place).
func graphTable() exampletest.Seed {
	var items []exampleutil.Shape
	for id, name := range skillNames {
		items = append(items, item("SKILL#"+id, "SKILL#"+id, "NAME#"+name, "name"))
	}
	for id, p := range placeNames {
		items = append(items, item("PLACE#"+id, "PLACE#"+id, "NAME#"+p.Name, "country", "name"))
	}
	for _, p := range people {
		pk := "PERSON#" + p.id
		born := "BORN#" + p.born
		items = append(items,
			item(pk, pk, "NAME#"+p.name, "name"),
			item(pk, born, born+"#"+shard(pk, born)),
			item(pk, "LIVES_IN#PLACE#"+p.lives, "PLACE#"+p.lives, "since"),
			item(pk, "WORKS_IN#PLACE#"+p.works, "PLACE#"+p.works, "role"))
		for _, k := range p.knows {
			items = append(items, item(pk, "KNOWS#PERSON#"+k, "", "since"))
		}
		for s := range p.skills {
			items = append(items, item(pk, "HAS#SKILL#"+s, "SKILL#"+s+"#"+shard(pk, "HAS#SKILL#"+s), "level"))
		}
	}
	// Each skill's PEOPLE count, beside the skill's own item.
	for id := range skillNames {
		items = append(items, item("SKILL#"+id, "PEOPLE", "", "count", "counter"))
	}
	return exampletest.Seed{KeyAttrs: []string{"PK", "TypeTarget", "Data", "Node"}, Items: items}
}

func TestRunLeavesTheGraph(t *testing.T) {
	seed := graphTable()
	require.Len(t, seed.Items, 45)
	db, table := exampletest.RunTwice(t, example, seed, func(_ int, out string) {
		// Both runs read the same graph: the second rewrites identical
		// items, which guarded puts accept.
		exampletest.ContainsAll(t, out,
			"42 writes, one request each (a HAS edge and its skill's PEOPLE count in one transaction); adjlist derived every Data and Node\n",
			"top skills by people (ByCount, the PEOPLE counts):\n  go        4\n  dynamodb  2\n  rust      2\n  [1 request,",
			"ada's neighbourhood (one Query on PK = \"PERSON#ada\"):\n"+
				"  name      Ada Okafor\n"+
				"  born      1990-12-10\n"+
				"  knows     bob since 2020-01-01\n"+
				"  knows     cy since 2020-01-01\n"+
				"  skill     dynamodb (expert)\n"+
				"  skill     go (expert)\n"+
				"  lives in  london since 2020-01-01\n"+
				"  works in  london as engineer\n"+
				"  [1 request,",
			"everyone with skill go (GSI1, 4 shards merged):\n"+
				"  ada  expert\n"+
				"  bob  intermediate\n"+
				"  dee  expert\n"+
				"  eve  beginner\n"+
				"  [4 requests,",
			"everyone born on 1990-12-10 (GSI1, 4 shards merged):\n"+
				"  ada, bob, dee\n"+
				"  [4 requests,",
			"everyone in london (GSI1, lives and works in one read):\n"+
				"  ada  lives there since 2020-01-01\n"+
				"  cy   lives there since 2020-01-01\n"+
				"  ada  works there as engineer\n"+
				"  bob  works there as engineer\n"+
				"  [1 request,",
			"who is called Cy Tanaka (GSI1):\n  cy\n  [1 request,",
			"who knows bob (GSI2, the inverse direction):\n"+
				"  ada  since 2020-01-01\n"+
				"  cy   since 2020-01-01\n"+
				"  dee  since 2020-01-01\n"+
				"  eve  since 2020-01-01\n"+
				"  [1 request,",
			// The raw table and both indexes, as the seed draws them.
			"PK             |TypeTarget            |Data               |Node           |attributes\n"+
				"PERSON#ada     |PERSON#ada            |NAME#Ada Okafor    |PERSON#ada     |name=Ada Okafor\n",
			"PERSON#ada     |KNOWS#PERSON#bob      |                   |               |since=2020-01-01\n",
			"index GSI1 (Data, Node):\nData               |Node           |PK             |TypeTarget            |attributes\n",
			"PLACE#london       |PERSON#ada     |PERSON#ada     |LIVES_IN#PLACE#london |since=2020-01-01\n"+
				"PLACE#london       |PERSON#ada     |PERSON#ada     |WORKS_IN#PLACE#london |role=engineer\n"+
				"PLACE#london       |PERSON#bob     |PERSON#bob     |WORKS_IN#PLACE#london |role=engineer\n"+
				"PLACE#london       |PERSON#cy      |PERSON#cy      |LIVES_IN#PLACE#london |since=2020-01-01\n",
			"index GSI2 (TypeTarget, PK):\nTypeTarget            |PK             |Data               |Node           |attributes\n",
			"KNOWS#PERSON#bob      |PERSON#ada     |                   |               |since=2020-01-01\n",
		)
		// KNOWS edges have no Data, so GSI1 leaves them out (a sparse
		// index); GSI2 holds every item.
		gsi1 := out[strings.Index(out, "index GSI1"):strings.Index(out, "index GSI2")]
		assert.NotContains(t, gsi1, "KNOWS#")
		assert.Equal(t, 45+2, strings.Count(out[strings.Index(out, "index GSI2"):], "\n"), "GSI2: a title, a header and every item")
	})

	// GSI1 on Data (partition) and Node (sort), derived; GSI2 on the
	// table's own TypeTarget (partition) and PK (sort); ByCount on the
	// aggregate items' counter and count.
	desc := exampletest.DescribeTable(t, db, table)
	assert.Equal(t, exampletest.KeySchema("PK", "TypeTarget"), desc.KeySchema)
	keys := map[string][]types.KeySchemaElement{}
	for _, gsi := range desc.GlobalSecondaryIndexes {
		keys[aws.ToString(gsi.IndexName)] = gsi.KeySchema
		assert.Equal(t, types.ProjectionTypeAll, gsi.Projection.ProjectionType)
	}
	assert.Equal(t, map[string][]types.KeySchemaElement{
		"GSI1":    exampletest.KeySchema("Data", "Node"),
		"GSI2":    exampletest.KeySchema("TypeTarget", "PK"),
		"ByCount": exampletest.KeySchema("counter", "count"),
	}, keys)
	assert.Empty(t, desc.LocalSecondaryIndexes)
}

// countingClient records every Query the example sends, as its index and
// key condition with names and values in place of the placeholders.
type countingClient struct {
	*dynamodb.Client
	mu      sync.Mutex
	queries []string
}

var placeholder = regexp.MustCompile(`[#:][0-9]+`)

func (c *countingClient) Query(ctx context.Context, in *dynamodb.QueryInput, optFns ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	cond := placeholder.ReplaceAllStringFunc(aws.ToString(in.KeyConditionExpression), func(ph string) string {
		if n, ok := in.ExpressionAttributeNames[ph]; ok {
			return n
		}
		if v, ok := in.ExpressionAttributeValues[ph].(*types.AttributeValueMemberS); ok {
			return v.Value
		}
		return ph
	})
	on := aws.ToString(in.IndexName)
	if on == "" {
		on = "table"
	}
	c.mu.Lock()
	c.queries = append(c.queries, on+": "+cond)
	c.mu.Unlock()
	return c.Client.Query(ctx, in, optFns...)
}

// Each access pattern is one Query per page: one on the table for a whole
// neighbourhood, one per shard for the sharded aggregations, one for an
// unsharded GSI1 partition, one on GSI2. Nothing else is queried.
func TestAccessPatternRequests(t *testing.T) {
	db := &countingClient{Client: ddbtest.Client(t)}
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })
	require.NoError(t, example.Run(context.Background(), db, table, false, new(bytes.Buffer)))

	shardsOf := func(partition string) []string {
		var q []string
		for i := range shards {
			q = append(q, fmt.Sprintf("GSI1: (Data = %s#%02d) AND (begins_with (Node, PERSON#))", partition, i))
		}
		return q
	}
	want := []string{"table: PK = PERSON#ada"}
	want = append(want, shardsOf("SKILL#go")...)
	want = append(want, shardsOf("BORN#1990-12-10")...)
	want = append(want,
		"GSI1: (Data = PLACE#london) AND (begins_with (Node, PERSON#))",
		"GSI1: (Data = NAME#Cy Tanaka) AND (begins_with (Node, PERSON#))",
		"GSI2: (TypeTarget = KNOWS#PERSON#bob) AND (begins_with (PK, PERSON#))",
		"ByCount: counter = PEOPLE",
	)
	assert.ElementsMatch(t, want, db.queries)
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/graph -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	exampletest.ContainsAll(t, exampletest.Describe(t, example, "-table", "graph"),
		"### Table `graph`",
		"| item | PK | TypeTarget | attributes |",
		"| node PERSON | `PERSON#<id>` | `PERSON#<id>` | name |",
		"| node SKILL | `SKILL#<id>` | `SKILL#<id>` | name |",
		"| node PLACE | `PLACE#<id>` | `PLACE#<id>` | name, country |",
		"| child BORN of PERSON | `PERSON#<id>` | `BORN#<child>` |  |",
		"| edge KNOWS (PERSON → PERSON) | `PERSON#<from>` | `KNOWS#PERSON#<to>` | since |",
		"| edge HAS (PERSON → SKILL) | `PERSON#<from>` | `HAS#SKILL#<to>` | level |",
		"| edge LIVES_IN (PERSON → PLACE) | `PERSON#<from>` | `LIVES_IN#PLACE#<to>` | since |",
		"| edge WORKS_IN (PERSON → PLACE) | `PERSON#<from>` | `WORKS_IN#PLACE#<to>` | role |",
		"Index `GSI2` is keyed on TypeTarget (partition) and PK (sort).",
		"| PERSON's KNOWS edges from PERSON (reverse) | `Edge.To` | Query | `TypeTarget = \"KNOWS#PERSON#<to>\" AND begins_with(PK, \"PERSON#\")` | GSI2 (eventually consistent) |",
		"| PERSON item with its KNOWS edges to PERSON | `LoadNode` | Query | `PK = \"PERSON#<from>\"` | table |",
		"| everyone with a skill | `Edge.ByIndex(\"GSI1\", …)` | 4 Queries in parallel, merged | `(Data = \"SKILL#<skill>\") AND (begins_with (Node, \"PERSON#\"))` | GSI1 (eventually consistent) |",
		"| everyone born on a date | `Collection.ByIndex(\"GSI1\", …)` | 4 Queries in parallel, merged | `(Data = \"BORN#<date>\") AND (begins_with (Node, \"PERSON#\"))` | GSI1 (eventually consistent) |",
		"| everyone who lives or works in a place (PageIndex) | `Edge.ByIndex(\"GSI1\", …)` | Query | `(Data = \"PLACE#<place>\") AND (begins_with (Node, \"PERSON#\"))` | GSI1 (eventually consistent) |",
		"| a person by name | `Node.ByIndex(\"GSI1\", …)` | Query | `(Data = \"NAME#<name>\") AND (begins_with (Node, \"PERSON#\"))` | GSI1 (eventually consistent) |",
		// GSI1, overloaded: every item type's Data and Node; KNOWS is
		// not in it.
		"Index `GSI1` (global, projection ALL): Data (partition), Node (sort).\n\n"+
			"| item | Data | Node |\n"+
			"| --- | --- | --- |\n"+
			"| node PERSON | `NAME#<name>` | `PERSON#<id>` |\n"+
			"| node SKILL | `NAME#<name>` | `SKILL#<id>` |\n"+
			"| node PLACE | `NAME#<name>` | `PLACE#<id>` |\n"+
			"| child BORN of PERSON | `BORN#<child>#<shard of key, 4>` | `PERSON#<id>` |\n"+
			"| edge HAS (PERSON → SKILL) | `SKILL#<to>#<shard of key, 4>` | `PERSON#<from>` |\n"+
			"| edge LIVES_IN (PERSON → PLACE) | `PLACE#<to>` | `PERSON#<from>` |\n"+
			"| edge WORKS_IN (PERSON → PLACE) | `PLACE#<to>` | `PERSON#<from>` |\n",
	)
}
