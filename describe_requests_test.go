package adjlist_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// requestRecorder is a client that answers every GetItem with an item
// of the key alone and every Query with nothing, and keeps each request, written as Describe's access patterns
// write them (names and values in place of the placeholders), on its
// own: a GetItem as its key, a Query as its key condition, filter and
// direction, with the index it reads.
type requestRecorder struct {
	adjlist.Client // nil: any other request panics
	mu             sync.Mutex
	sent           []sentRequest
}

type sentRequest struct{ request, cond, index string }

func (r *requestRecorder) GetItem(_ context.Context, in *dynamodb.GetItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	var key []string
	for _, k := range []string{"PK", "SK", "id", "sk"} { // the tables' key attributes, partition first
		if v, ok := in.Key[k]; ok {
			key = append(key, k+" = "+sentValue(v))
		}
	}
	r.record(sentRequest{request: "GetItem", cond: strings.Join(key, " AND ")})
	return &dynamodb.GetItemOutput{Item: in.Key}, nil // found: Load goes on to its Query
}

func (r *requestRecorder) Query(_ context.Context, in *dynamodb.QueryInput, _ ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	fill := func(expr string) string {
		return regexp.MustCompile(`[#:][0-9]+`).ReplaceAllStringFunc(expr, func(ph string) string {
			if n, ok := in.ExpressionAttributeNames[ph]; ok {
				return n
			}
			return sentValue(in.ExpressionAttributeValues[ph])
		})
	}
	cond := fill(aws.ToString(in.KeyConditionExpression))
	if f := aws.ToString(in.FilterExpression); f != "" {
		cond += "; filter " + fill(f)
	}
	if !aws.ToBool(in.ScanIndexForward) {
		cond += "; ScanIndexForward=false"
	}
	r.record(sentRequest{request: "Query", cond: cond, index: aws.ToString(in.IndexName)})
	return &dynamodb.QueryOutput{}, nil
}

func (r *requestRecorder) record(s sentRequest) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, s)
}

func (r *requestRecorder) take() []sentRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.sent
	r.sent = nil
	return s
}

func sentValue(v types.AttributeValue) string {
	switch v := v.(type) {
	case *types.AttributeValueMemberS:
		return strconv.Quote(v.Value)
	case *types.AttributeValueMemberN:
		return v.Value
	}
	return fmt.Sprint(v)
}

// bare is a condition without parentheses or spaces, the form in which
// Describe's plain key conditions and the builder's are compared.
func bare(s string) string { return strings.NewReplacer("(", "", ")", "", " ", "").Replace(s) }

// TestDescribeSaysWhatReadsSend: every access pattern Describe writes for
// the presets (Node, Edge, Collection, nested and sharded ones, Entity,
// Counter, ItemCounter), in each of the four index layouts, is the
// request its read sends for the placeholder ids: the same key condition
// and filter, direction, index and number of requests (a sharded read's
// "<shard of from, 8>" one request per shard). A pattern with no read
// below fails the test, so a new one must be checked too.
func TestDescribeSaysWhatReadsSend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	layouts := map[string]func(*adjlist.Options){
		"explicit keys":   func(*adjlist.Options) {},
		"sort key index":  func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexSortKey = "SK", "PK" },
		"sort key only":   func(o *adjlist.Options) { o.IndexPartitionKey, o.IndexPartitionOnly = "SK", true },
		"no index":        func(o *adjlist.Options) { o.NoIndex = true },
		"number key (id)": nil,
	}
	type review struct {
		Stars int `dynamodbav:"stars"`
	}
	type order struct {
		OrderID int `dynamodbav:"orderID"`
	}
	for name, layout := range layouts {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rec := &requestRecorder{}
			// reads are the read of each (item, call) pattern, for the
			// ids Describe writes.
			reads := map[[2]string]func(){}
			ids := strings.NewReplacer() // a number key's placeholder → the id read
			read := func(item, call string, f func()) { reads[[2]string{item, call}] = f }
			var handles []adjlist.Describer
			var table *adjlist.Table
			if layout == nil {
				table = adjlist.NewTable(rec, "t", func(o *adjlist.Options) {
					o.PartitionKey, o.PartitionKeyType, o.SortKey, o.NoIndex = "id", types.ScalarAttributeTypeN, "sk", true
				})
				orders := adjlist.NewEntity[order](table, "order", "{orderID}", "order")
				lines := adjlist.NewEntity[review](table, "line", "{orderID}", "LINE#{line}")
				ids = strings.NewReplacer("<orderID>", "1")
				read("entity order", "Entity.Get", func() { _, _ = orders.Get(ctx, adjlist.IDs{"1"}) })
				read("entity line", "Entity.Get", func() { _, _ = lines.Get(ctx, adjlist.IDs{"1", "<line>"}) })
				read("entity line", "Entity.List", func() { _, _ = lines.List("1").Collect(ctx) })
				handles = append(handles, orders, lines)
			} else {
				table = adjlist.NewTable(rec, "t", layout)
				orgs := adjlist.NewNode[Org](table, "ORG", "META")
				projects := adjlist.NewCollection[Project](orgs, "PROJ")
				issues := adjlist.NewNestedCollection[Issue](projects, "ISSUE")
				notes := adjlist.NewNestedCollection[Comment](issues, "NOTE", func(o *adjlist.CollectionOptions) { o.Shards = 3 })
				logs := adjlist.NewCollection[Issue](orgs, "LOG", func(o *adjlist.CollectionOptions) { o.Shards = 4 })
				students := adjlist.NewNode[Student](table, "STU", "PROFILE")
				courses := adjlist.NewNode[Course](table, "CRS", "")
				enrolled := adjlist.NewEdge[Enrollment](students, "ENROLL", courses)
				tagged := adjlist.NewEdge[Enrollment](students, "TAGGED", projects)
				has := adjlist.NewEdge[Enrollment](issues, "HAS", courses)
				count := newEdgeCounter(enrolled, "ENROLLED")
				open := adjlist.NewItemCounter(issues, "OPEN", func(o *adjlist.CounterOptions) { o.GroupBy = "title" })
				reviews := adjlist.NewEntity[review](table, "review", "BOOK#{book}", "REVIEW#{user}")
				handles = append(handles, orgs, projects, issues, notes, logs, students, courses, enrolled, tagged, has, count, open, reviews)
				project, err := projects.Ref("<id>", "<PROJ id>")
				require.NoError(t, err)
				issue, err := issues.Ref(project, "<ISSUE id>")
				require.NoError(t, err)
				projTo, err := projects.Ref("<to parent>", "<to>")
				require.NoError(t, err)
				issueFrom, err := issues.Ref(project, "<from>")
				require.NoError(t, err)
				// A child's ref as Describe draws it, its levels named.
				issueFrom = strings.Replace(issueFrom, "<id>", "<from parent parent>", 1)
				issueFrom = strings.Replace(issueFrom, "<PROJ id>", "<from parent>", 1)
				read("node ORG", "Node.Get", func() { _, _ = orgs.Get(ctx, "<id>") })
				read("node STU", "Node.Get", func() { _, _ = students.Get(ctx, "<id>") })
				read("node CRS", "Node.Get", func() { _, _ = courses.Get(ctx, "<id>") })
				for _, c := range []struct {
					item   string
					list   func() adjlist.Query[adjlist.Child[Issue]]
					get    func()
					load   func()
					isNode bool
				}{
					{"child LOG of ORG", func() adjlist.Query[adjlist.Child[Issue]] { return logs.List("<id>") },
						func() { _, _ = logs.Get(ctx, "<id>", "<child>") }, func() { _, _ = logs.Load(ctx, "<id>") }, true},
					{"child ISSUE of ORG/PROJ", func() adjlist.Query[adjlist.Child[Issue]] { return issues.List(project) },
						func() { _, _ = issues.Get(ctx, project, "<child>") }, func() { _, _ = issues.Load(ctx, project) }, false},
				} {
					read(c.item, "Collection.List(id).Desc()", func() { _, _ = c.list().Desc().Collect(ctx) })
					read(c.item, "Collection.List(id).Count()", func() { _, _ = c.list().Count(ctx) })
					read(c.item, "Collection.Get", c.get)
					read(c.item, "Collection.Load", c.load)
				}
				read("child PROJ of ORG", "Collection.List(id).Desc()", func() { _, _ = projects.List("<id>").Desc().Collect(ctx) })
				read("child PROJ of ORG", "Collection.List(id).Count()", func() { _, _ = projects.List("<id>").Count(ctx) })
				read("child PROJ of ORG", "Collection.Get", func() { _, _ = projects.Get(ctx, "<id>", "<child>") })
				read("child PROJ of ORG", "Collection.Load", func() { _, _ = projects.Load(ctx, "<id>") })
				read("child NOTE of ORG/PROJ/ISSUE", "Collection.List(id).Desc()", func() { _, _ = notes.List(issue).Desc().Collect(ctx) })
				read("child NOTE of ORG/PROJ/ISSUE", "Collection.List(id).Count()", func() { _, _ = notes.List(issue).Count(ctx) })
				read("child NOTE of ORG/PROJ/ISSUE", "Collection.Get", func() { _, _ = notes.Get(ctx, issue, "<child>") })
				read("child NOTE of ORG/PROJ/ISSUE", "Collection.Load", func() { _, _ = notes.Load(ctx, issue) })
				edge := func(item string, from, to, get, load func()) {
					read(item, "Edge.From", from)
					if name != "no index" { // no reverse reads
						read(item, "Edge.To", to)
					}
					read(item, "Edge.Get", get)
					if load != nil {
						read(item, "LoadNode", load)
					}
				}
				edge("edge ENROLL (STU → CRS)", func() { _, _ = enrolled.From("<from>").Collect(ctx) }, func() { _, _ = enrolled.To("<to>").Collect(ctx) },
					func() { _, _ = enrolled.Get(ctx, "<from>", "<to>") }, func() { _, _ = adjlist.LoadNode(ctx, students, enrolled, "<from>") })
				edge("edge TAGGED (STU → ORG/PROJ)", func() { _, _ = tagged.From("<from>").Collect(ctx) }, func() { _, _ = tagged.To(projTo).Collect(ctx) },
					func() { _, _ = tagged.Get(ctx, "<from>", projTo) }, func() { _, _ = adjlist.LoadNode(ctx, students, tagged, "<from>") })
				edge("edge HAS (ORG/PROJ/ISSUE → CRS)", func() { _, _ = has.From(issueFrom).Collect(ctx) }, func() { _, _ = has.To("<to>").Collect(ctx) },
					func() { _, _ = has.Get(ctx, issueFrom, "<to>") }, nil)
				if name == "explicit keys" {
					follows := adjlist.NewEdge[Enrollment](students, "FOLLOWS", students, func(o *adjlist.EdgeOptions) { o.Shards = 8 })
					handles = append(handles, follows)
					edge("edge FOLLOWS (STU → STU)", func() { _, _ = follows.From("<from>").Collect(ctx) }, func() { _, _ = follows.To("<to>").Collect(ctx) },
						func() { _, _ = follows.Get(ctx, "<from>", "<to>") }, func() { _, _ = adjlist.LoadNode(ctx, students, follows, "<from>") })
				}
				read("counter ENROLLED", "ItemCounter.Get", func() { _, _ = count.Get(ctx, "<id>") })
				read("counter OPEN", "ItemCounter.Get", func() { _, _ = open.Get(ctx, adjlist.IDs{project}, "<title>") })
				read("entity review", "Entity.Get", func() { _, _ = reviews.Get(ctx, adjlist.IDs{"<book>", "<user>"}) })
				read("entity review", "Entity.List", func() { _, _ = reviews.List("<book>").Collect(ctx) })
			}
			m, err := adjlist.DescribeModel(table, handles...)
			require.NoError(t, err)
			require.NotEmpty(t, m.AccessPatterns)
			described := map[[2]string]bool{}
			for _, p := range m.AccessPatterns {
				described[[2]string{p.Item, p.Call}] = true
				run, ok := reads[[2]string{p.Item, p.Call}]
				if !assert.True(t, ok, "no read for %s's %s", p.Item, p.Call) {
					continue
				}
				p.KeyCondition = ids.Replace(p.KeyCondition)
				run()
				sent := rec.take()
				require.NotEmpty(t, sent, "%s's %s", p.Item, p.Call)
				if strings.HasPrefix(p.Request, "GetItem of the parent, then ") {
					assert.Equal(t, "GetItem", sent[0].request, "%s's %s reads the parent first", p.Item, p.Call)
					sent = sent[1:]
				}
				// The number of requests: one, or one per shard.
				wantN := 1
				if n, _, ok := strings.Cut(p.Request, " Queries in parallel"); ok {
					wantN, err = strconv.Atoi(n[strings.LastIndex(n, " ")+1:])
					require.NoError(t, err)
				}
				require.Len(t, sent, wantN, "%s's %s: %q", p.Item, p.Call, p.Request)
				// The shard placeholder stands for each shard's two digits.
				want := regexp.QuoteMeta(bare(p.KeyCondition))
				want = regexp.MustCompile(`<shardof[a-z]+,[0-9]+>`).ReplaceAllString(want, `[0-9]{2}`)
				shards := map[string]bool{}
				for _, s := range sent {
					assert.Equal(t, p.Request == "GetItem", s.request == "GetItem", "%s's %s", p.Item, p.Call)
					assert.Regexp(t, "^"+want+"$", bare(s.cond), "%s's %s: described %s", p.Item, p.Call, p.KeyCondition)
					assert.Equal(t, p.Index, s.index, "%s's %s", p.Item, p.Call)
					shards[s.cond] = true
				}
				assert.Len(t, shards, wantN, "%s's %s: a request per shard", p.Item, p.Call)
			}
			for k := range reads {
				assert.True(t, described[k], "%s's %s is not described", k[0], k[1])
			}
		})
	}
}
