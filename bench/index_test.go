package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/adjlist/adjlist"
)

// The secondary-index set: a project in three indexes, each key derived
// from its data,
//
//	GSI2PK = STATUS#<status>  GSI2SK = <createdAt>      (every project of a status)
//	GSI3PK = OWNER#<createdBy> GSI3SK = PROJ#<id>       (a user's projects)
//	LSI1SK = TITLE#<title>                              (a workspace's projects by title)
//
// done by the library (IndexKeys) and by hand-written SDK code.

// IndexedProject is a project's data in the index set.
type IndexedProject struct {
	Title     string `dynamodbav:"title"`
	Status    string `dynamodbav:"status"`
	CreatedBy string `dynamodbav:"createdBy"`
	CreatedAt string `dynamodbav:"createdAt"`
}

// IndexedChild is what both implementations return for a project.
type IndexedChild = adjlist.Child[IndexedProject]

// FixtureIndexedProject is the data of every fixture project of the set.
var FixtureIndexedProject = IndexedProject{Title: "Launch", Status: "active", CreatedBy: "u-1029", CreatedAt: "2026-01-07T10:00:00Z"}

// indexPatterns are the set's access patterns.
type indexPatterns interface {
	// PutProject creates a project with its three indexes' keys: one
	// PutItem guarded by attribute_not_exists(PK).
	PutProject(ctx context.Context, ws, id string, p IndexedProject) error
	// ByStatus lists every project of a status: Query GSI2, GSI2PK =
	// STATUS#<status>, every page.
	ByStatus(ctx context.Context, status string) ([]IndexedChild, error)
}

// indexedAdjList is the set done with the library.
type indexedAdjList struct {
	table    *adjlist.Table
	projects *adjlist.Collection[IndexedProject, Workspace]
}

func newIndexedAdjList(client adjlist.Client, name string) *indexedAdjList {
	t := adjlist.NewTable(client, name, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{
			{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"},
			{Name: "GSI3", PartitionKey: "GSI3PK", SortKey: "GSI3SK"},
			{Name: "LSI1", Local: true, SortKey: "LSI1SK"},
		}
	})
	ws := adjlist.NewNode[Workspace](t, "WS", wsMarker)
	projects := adjlist.NewCollection[IndexedProject](ws, "PROJ", func(o *adjlist.CollectionOptions) {
		o.Indexes = []adjlist.IndexKeys{
			{Index: "GSI2", PartitionKey: adjlist.Template("STATUS#{status}"), SortKey: adjlist.Template("{createdAt}")},
			{Index: "GSI3", PartitionKey: adjlist.Template("OWNER#{createdBy}"), SortKey: adjlist.Template("{@self}")},
			{Index: "LSI1", SortKey: adjlist.Template("TITLE#{title}")},
		}
	})
	return &indexedAdjList{table: t, projects: projects}
}

func (a *indexedAdjList) PutProject(ctx context.Context, ws, id string, p IndexedProject) error {
	return a.projects.Put(ctx, ws, id, p)
}

func (a *indexedAdjList) ByStatus(ctx context.Context, status string) ([]IndexedChild, error) {
	return a.projects.ByIndex("GSI2", status).Collect(ctx)
}

// indexedSDK is the set done with hand-written SDK code: the floor. It
// neither validates nor escapes.
type indexedSDK struct {
	client *dynamodb.Client
	name   string
}

func (s *indexedSDK) PutProject(ctx context.Context, ws, id string, p IndexedProject) error {
	item, err := attributevalue.MarshalMap(p)
	if err != nil {
		return err
	}
	sk := projPrefix + id
	item["PK"] = &types.AttributeValueMemberS{Value: wsPrefix + ws}
	item["SK"] = &types.AttributeValueMemberS{Value: sk}
	item["GSI2PK"] = &types.AttributeValueMemberS{Value: "STATUS#" + p.Status}
	item["GSI2SK"] = &types.AttributeValueMemberS{Value: p.CreatedAt}
	item["GSI3PK"] = &types.AttributeValueMemberS{Value: "OWNER#" + p.CreatedBy}
	item["GSI3SK"] = &types.AttributeValueMemberS{Value: sk}
	item["LSI1SK"] = &types.AttributeValueMemberS{Value: "TITLE#" + p.Title}
	_, err = s.client.PutItem(ctx, &dynamodb.PutItemInput{
		TableName:                           aws.String(s.name),
		Item:                                item,
		ConditionExpression:                 aws.String("attribute_not_exists(PK)"),
		ReturnValuesOnConditionCheckFailure: types.ReturnValuesOnConditionCheckFailureAllOld,
	})
	return err
}

func (s *indexedSDK) ByStatus(ctx context.Context, status string) ([]IndexedChild, error) {
	var out []IndexedChild
	in := &dynamodb.QueryInput{
		TableName:              aws.String(s.name),
		IndexName:              aws.String("GSI2"),
		KeyConditionExpression: aws.String("GSI2PK = :pk"),
		ExpressionAttributeValues: map[string]types.AttributeValue{
			":pk": &types.AttributeValueMemberS{Value: "STATUS#" + status},
		},
	}
	sdk := &SDK{Client: s.client, Name: s.name}
	err := sdk.query(ctx, in, func(n int) { out = slices.Grow(out, n) }, func(item map[string]types.AttributeValue) error {
		c := IndexedChild{Parent: strings.TrimPrefix(str(item, "PK"), wsPrefix), ID: strings.TrimPrefix(str(item, "SK"), projPrefix)}
		if err := attributevalue.UnmarshalMap(item, &c.Data); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}

func newIndexImpl(name string, client *dynamodb.Client, table string) indexPatterns {
	if name == "sdk" {
		return &indexedSDK{client: client, name: table}
	}
	return newIndexedAdjList(client, table)
}

var indexImplNames = []string{"sdk", "adjlist"}

// byStatusBody is the GSI2 Query response listing k active projects of
// workspace acme.
func byStatusBody(k int) []byte {
	items := make([]map[string]av, k)
	p := FixtureIndexedProject
	for i := range items {
		sk := projPrefix + ProjectID(i)
		items[i] = map[string]av{
			"PK": s(wsPrefix + "acme"), "SK": s(sk),
			"GSI2PK": s("STATUS#" + p.Status), "GSI2SK": s(p.CreatedAt), "GSI3PK": s("OWNER#" + p.CreatedBy), "GSI3SK": s(sk),
			"LSI1SK": s("TITLE#" + p.Title), "title": s(p.Title), "status": s(p.Status), "createdBy": s(p.CreatedBy), "createdAt": s(p.CreatedAt),
		}
	}
	return queryBody(items)
}

var indexOps = []struct {
	name   string
	bodies map[string][]byte
	run    func(ctx context.Context, p indexPatterns) (any, error)
}{
	{"put3index", map[string][]byte{TargetPutItem: EmptyBody()}, func(ctx context.Context, p indexPatterns) (any, error) {
		return nil, p.PutProject(ctx, "acme", ProjectID(7), FixtureIndexedProject)
	}},
	{"index100", map[string][]byte{TargetQuery: byStatusBody(100)}, func(ctx context.Context, p indexPatterns) (any, error) {
		return p.ByStatus(ctx, FixtureIndexedProject.Status)
	}},
}

// BenchmarkIndex measures the client-side cost of the index set as
// BenchmarkClient does the seed's: canned responses, byte-identical for
// both implementations, the full SDK stack.
func BenchmarkIndex(b *testing.B) {
	ctx := context.Background()
	order := rotate(indexImplNames, *clientRotate)
	for _, op := range indexOps {
		b.Run("op="+op.name, func(b *testing.B) {
			for _, name := range order {
				b.Run("impl="+name, func(b *testing.B) {
					p := newIndexImpl(name, NewCannedClient(NewCanned(op.bodies)), Table)
					measure(b, func() (any, error) { return op.run(ctx, p) })
				})
			}
		})
	}
}

// TestIndexSameRequestsSameResults checks that both implementations of the
// index set send the same request (the same item, to the byte, for the
// put) and return equal results from the same canned bytes.
func TestIndexSameRequestsSameResults(t *testing.T) {
	ctx := context.Background()
	for _, op := range indexOps {
		t.Run(op.name, func(t *testing.T) {
			results, requests := map[string]any{}, map[string]canonicalRequest{}
			for _, name := range indexImplNames {
				c := NewCanned(op.bodies)
				var bodies []string
				c.Record = func(target string, body []byte) { bodies = append(bodies, target+" "+string(body)) }
				v, err := op.run(ctx, newIndexImpl(name, NewCannedClient(c), Table))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(bodies) != 1 {
					t.Fatalf("%s: %d requests, want 1", name, len(bodies))
				}
				results[name], requests[name] = v, canonical(t, bodies[0])
			}
			if !reflect.DeepEqual(results["adjlist"], results["sdk"]) {
				t.Errorf("results differ:\n%+v\n%+v", results["adjlist"], results["sdk"])
			}
			if !reflect.DeepEqual(requests["adjlist"], requests["sdk"]) {
				t.Errorf("requests differ:\n%+v\n%+v", requests["adjlist"], requests["sdk"])
			}
			if op.name == "index100" && len(results["sdk"].([]IndexedChild)) != 100 {
				t.Errorf("%d items", len(results["sdk"].([]IndexedChild)))
			}
			if op.name == "put3index" {
				var item map[string]map[string]string
				if err := json.Unmarshal([]byte(requests["adjlist"].Item), &item); err != nil {
					t.Fatal(err)
				}
				if len(item) != 11 {
					t.Errorf("item has %d attributes, want 11 (keys of three indexes): %v", len(item), slices.Sorted(maps.Keys(item)))
				}
			}
		})
	}
}

var indexTableSeq atomic.Int64

// TestIndexRequestsPerAccessPattern checks, on DynamoDB Local, that the
// library's index paths make exactly one request per call or page, and
// none for refused input.
func TestIndexRequestsPerAccessPattern(t *testing.T) {
	loc := needLocal(t)
	counter := &requestCounter{ops: map[string]int{}}
	client := loc.Client(counter.install)
	ctx := context.Background()
	name := "bench-index-" + strconv.FormatInt(indexTableSeq.Add(1), 10)
	a := newIndexedAdjList(client, name)
	if err := adjlist.CreateTable(ctx, client, a.table); err != nil {
		t.Fatal(err)
	}
	defer dropTable(t, client, name)
	var many []IndexedChild
	for i := range 25 {
		many = append(many, IndexedChild{Parent: "acme", ID: ProjectID(i), Data: FixtureIndexedProject})
	}
	if _, err := a.projects.PutMany(ctx, many); err != nil {
		t.Fatal(err)
	}
	want := func(n int, q adjlist.Query[IndexedChild], optFns ...func(*adjlist.ReadOptions)) func() error {
		return func() error {
			got, err := q.Collect(ctx, optFns...)
			if err == nil && len(got) != n {
				err = fmt.Errorf("%d items, want %d", len(got), n)
			}
			return err
		}
	}
	cases := []requestCase{
		{"Collection.Put into three indexes", func() error { return a.projects.Put(ctx, "acme", "2026-9999", FixtureIndexedProject) }, map[string]int{"PutItem": 1}},
		{"Collection.Update moving the item in GSI2", func() error {
			_, err := a.projects.Update(ctx, "acme", "2026-9999", adjlist.Set("status", "done"))
			return err
		}, map[string]int{"UpdateItem": 1}},
		{"ByIndex GSI2, one page", want(25, a.projects.ByIndex("GSI2", "active")), map[string]int{"Query": 1}},
		{"ByIndex GSI2, Limit 10: pages of 10, 10, 5", want(25, a.projects.ByIndex("GSI2", "active").Limit(10)), map[string]int{"Query": 3}},
		{"ByIndex GSI3 range, Desc", want(10, a.projects.ByIndex("GSI3", "u-1029").Between(ProjectID(5), ProjectID(14)).Desc()), map[string]int{"Query": 1}},
		{"ByIndex LSI1, consistent", want(26, a.projects.ByIndex("LSI1", "acme"), adjlist.Consistent), map[string]int{"Query": 1}},
		{"ByIndex Count", func() error {
			n, err := a.projects.ByIndex("GSI2", "active").Count(ctx)
			if err == nil && n != 25 {
				err = fmt.Errorf("count %d", n)
			}
			return err
		}, map[string]int{"Query": 1}},
		{"ByIndex refused: consistent read on a GSI", func() error {
			if _, err := a.projects.ByIndex("GSI2", "active").Collect(ctx, adjlist.Consistent); err == nil {
				return fmt.Errorf("not refused")
			}
			return nil
		}, map[string]int{}},
		{"Update refused: arithmetic on a key's attribute", func() error {
			_, err := a.projects.Update(ctx, "acme", "2026-9999", adjlist.Update{}.SetTo("createdAt", expression.Name("createdAt").Plus(expression.Value(1))))
			if err == nil {
				return fmt.Errorf("not refused")
			}
			return nil
		}, map[string]int{}},
	}
	counter.check(t, cases)
}
