package bench

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/middleware"

	"github.com/adjlist/adjlist"
)

// requestCounter counts operations as the SDK sees them (an Initialize
// middleware: once per API call) and HTTP attempts (a RoundTripper: once
// per request on the wire, retries included).
type requestCounter struct {
	mu       sync.Mutex
	ops      map[string]int
	attempts atomic.Int64
	next     http.RoundTripper
}

func (c *requestCounter) RoundTrip(r *http.Request) (*http.Response, error) {
	c.attempts.Add(1)
	return c.next.RoundTrip(r)
}

func (c *requestCounter) reset() {
	c.mu.Lock()
	c.ops = map[string]int{}
	c.mu.Unlock()
	c.attempts.Store(0)
}

func (c *requestCounter) got() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var parts []string
	for _, op := range slices.Sorted(maps.Keys(c.ops)) {
		parts = append(parts, fmt.Sprintf("%s×%d", op, c.ops[op]))
	}
	return strings.Join(parts, " ")
}

func (c *requestCounter) install(o *dynamodb.Options) {
	c.next = o.HTTPClient.(*http.Client).Transport
	o.HTTPClient = &http.Client{Transport: c}
	o.APIOptions = append(o.APIOptions, func(s *middleware.Stack) error {
		return s.Initialize.Add(middleware.InitializeMiddlewareFunc("benchCountRequests",
			func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
				c.mu.Lock()
				c.ops[middleware.GetOperationName(ctx)]++
				c.mu.Unlock()
				return next.HandleInitialize(ctx, in)
			}), middleware.Before)
	})
}

// TestRequestsPerAccessPattern checks that each access pattern makes
// exactly the requests the design needs, on DynamoDB Local: one request per
// single-item call, one Query per page (a page being what DynamoDB returns
// for the Limit or its 1 MB cap), one BatchGetItem per 100 keys, one
// BatchWriteItem per 25 items, one TransactWriteItems per transaction, and
// none for input refused before sending. Every count is also checked
// against the HTTP attempts, so an SDK retry cannot hide in it.
func TestRequestsPerAccessPattern(t *testing.T) {
	loc := needLocal(t)
	counter := &requestCounter{ops: map[string]int{}}
	client := loc.Client(counter.install)
	ctx := context.Background()
	name, a := newTable(t, client)
	defer dropTable(t, client, name)

	// Fixture: a91 enrolled in 25 courses, math204 with 25 students, a91's
	// partition also holding its profile; workspace acme with 25 projects.
	const n = 25
	var edges []Edge
	for i := range n {
		edges = append(edges, Edge{From: "a91", To: CourseID(i), Data: FixtureEnrollment})
		edges = append(edges, Edge{From: StudentID(i), To: "math204", Data: FixtureEnrollment})
	}
	if _, err := a.Enrolled.PutMany(ctx, edges); err != nil {
		t.Fatal(err)
	}
	var projects []Child
	for i := range n {
		projects = append(projects, Child{Parent: "acme", ID: ProjectID(i), Data: FixtureProject})
	}
	if _, err := a.Projects.PutMany(ctx, projects); err != nil {
		t.Fatal(err)
	}
	if err := a.Students.Put(ctx, "a91", FixtureStudent); err != nil {
		t.Fatal(err)
	}
	if err := a.Workspaces.Put(ctx, "acme", FixtureWorkspace); err != nil {
		t.Fatal(err)
	}
	var many []Edge
	for i := range 60 {
		many = append(many, Edge{From: "bulk", To: CourseID(i), Data: FixtureEnrollment})
	}
	ids := make([]string, 150)
	for i := range ids {
		ids[i] = StudentID(i)
	}

	collect := func(q adjlist.Query[Edge], want int) func() error {
		return func() error {
			got, err := q.Collect(ctx)
			if err == nil && len(got) != want {
				err = fmt.Errorf("%d items, want %d", len(got), want)
			}
			return err
		}
	}
	pages := func(q adjlist.Query[Edge], wantPages int) func() error {
		return func() error {
			cursor := ""
			for p := 1; ; p++ {
				page, err := q.Page(ctx, cursor)
				if err != nil {
					return err
				}
				if cursor = page.Cursor; cursor == "" {
					if p != wantPages {
						return fmt.Errorf("%d pages, want %d", p, wantPages)
					}
					return nil
				}
			}
		}
	}
	wantErr := func(sentinel error, fn func() error) func() error {
		return func() error {
			if err := fn(); !errors.Is(err, sentinel) {
				return fmt.Errorf("err = %v, want %v", err, sentinel)
			}
			return nil
		}
	}
	e := FixtureEnrollment
	// Handles with optimistic locking on "version", in the same table.
	locked := adjlist.NewNode[Student](a.Table, "LSTU", "PROFILE", func(o *adjlist.NodeOptions) { o.Version = "version" })
	lockedProjects := adjlist.NewCollection[Project](a.Workspaces, "LPROJ", func(o *adjlist.CollectionOptions) { o.Version = "version" })
	stamped := adjlist.NewCollection[Project](a.Workspaces, "SPROJ", func(o *adjlist.CollectionOptions) {
		o.CreatedAt, o.UpdatedAt, o.Expiry, o.Lifetime = "createdAt", "updatedAt", "expiresAt", time.Hour
	})
	// Tags on projects: edges whose one end is a child.
	tags := adjlist.NewNode[struct{}](a.Table, "TAG", "")
	tagged := adjlist.NewEdge[Enrollment](tags, "TAGGED", a.Projects)
	hasTag := adjlist.NewEdge[Enrollment](a.Projects, "HAS", tags)
	ref, err := a.Projects.Ref("acme", ProjectID(4))
	if err != nil {
		t.Fatal(err)
	}
	if err := tags.Put(ctx, "go", struct{}{}); err != nil {
		t.Fatal(err)
	}
	draft := adjlist.If(expression.Name("status").Equal(expression.Value("DRAFT")))
	grade := adjlist.Set("grade", "A")

	cases := []requestCase{
		{"Node.Put", func() error { return a.Courses.Put(ctx, "math204", Course{Title: "Linear Algebra", Credits: 4}) }, map[string]int{"PutItem": 1}},
		{"Node.Get", func() error { _, err := a.Students.Get(ctx, "a91"); return err }, map[string]int{"GetItem": 1}},
		{"Edge.Put", func() error { return a.Enrolled.Put(ctx, "new", "math204", e) }, map[string]int{"PutItem": 1}},
		{"Edge.Put same item again from a separate call (ErrExists)", wantErr(adjlist.ErrExists, func() error { return a.Enrolled.Put(ctx, "new", "math204", e) }), map[string]int{"PutItem": 1}},
		{"Edge.Put duplicate (ErrExists, stored item from the same response)", wantErr(adjlist.ErrExists, func() error {
			return a.Enrolled.Put(ctx, "new", "math204", Enrollment{EnrolledOn: "2027-01-01", Grade: "F"})
		}), map[string]int{"PutItem": 1}},
		{"Edge.Get", func() error { _, err := a.Enrolled.Get(ctx, "a91", CourseID(0)); return err }, map[string]int{"GetItem": 1}},
		{"Edge.Update", func() error {
			_, err := a.Enrolled.Update(ctx, "new", "math204", adjlist.Set("grade", "A"))
			return err
		}, map[string]int{"UpdateItem": 1}},
		{"Edge.Delete", func() error { return a.Enrolled.Delete(ctx, "new", "math204") }, map[string]int{"DeleteItem": 1}},
		{"Edge.From, one page", collect(a.Enrolled.From("a91"), n), map[string]int{"Query": 1}},
		{"Edge.From, Limit 10: pages of 10, 10, 5", collect(a.Enrolled.From("a91").Limit(10), n), map[string]int{"Query": 3}},
		{"Edge.From, Page by Page with cursors", pages(a.Enrolled.From("a91").Limit(10), 3), map[string]int{"Query": 3}},
		{"Edge.From.Desc, one page", collect(a.Enrolled.From("a91").Desc(), n), map[string]int{"Query": 1}},
		{"Edge.From.Count", func() error {
			c, err := a.Enrolled.From("a91").Count(ctx)
			if err == nil && c != n {
				err = fmt.Errorf("count %d", c)
			}
			return err
		}, map[string]int{"Query": 1}},
		{"Edge.To, one page", collect(a.Enrolled.To("math204"), n), map[string]int{"Query": 1}},
		{"Edge.To, Limit 10", collect(a.Enrolled.To("math204").Limit(10), n), map[string]int{"Query": 3}},
		{"Edge.To, Page by Page with cursors", pages(a.Enrolled.To("math204").Limit(10), 3), map[string]int{"Query": 3}},
		{"Edge.From.Between, one page", collect(a.Enrolled.From("a91").Between(CourseID(5), CourseID(14)), 10), map[string]int{"Query": 1}},
		{"Edge.From.GreaterThanEqual, Limit 10: pages of 10, 5", collect(a.Enrolled.From("a91").GreaterThanEqual(CourseID(10)).Limit(10), 15), map[string]int{"Query": 2}},
		{"Edge.To.LessThan, Page by Page with cursors: 10, 10, then the bound (dropped)", pages(a.Enrolled.To("math204").LessThan(StudentID(20)).Limit(10), 3), map[string]int{"Query": 3}},
		{"Edge.To.Filter, one page", collect(a.Enrolled.To("math204").Filter(expression.Name("grade").Equal(expression.Value(e.Grade))), n), map[string]int{"Query": 1}},
		{"Edge.To.Filter.Project.Count", func() error {
			c, err := a.Enrolled.To("math204").Filter(expression.Name("grade").Equal(expression.Value("none"))).Project("grade").Count(ctx)
			if err == nil && c != 0 {
				err = fmt.Errorf("count %d", c)
			}
			return err
		}, map[string]int{"Query": 1}},
		{"LoadPartition", func() error {
			var got []Edge
			_, err := adjlist.LoadPartition(ctx, a.Students, "a91", a.Enrolled.Into(&got))
			if err == nil && len(got) != n {
				err = fmt.Errorf("%d edges", len(got))
			}
			return err
		}, map[string]int{"Query": 1}},
		{"Edge.WaitIndexed (already indexed)", func() error {
			return a.Enrolled.WaitIndexed(ctx, StudentID(0), "math204", 0)
		}, map[string]int{"Query": 1}},
		{"LoadNode", func() error {
			n, err := adjlist.LoadNode(ctx, a.Students, a.Enrolled, "a91")
			if err == nil && len(n.Edges) != 25 {
				err = fmt.Errorf("%d edges", len(n.Edges))
			}
			return err
		}, map[string]int{"Query": 1}},
		{"Collection.Load", func() error {
			f, err := a.Projects.Load(ctx, "acme")
			if err == nil && len(f.Children) != n {
				err = fmt.Errorf("%d children", len(f.Children))
			}
			return err
		}, map[string]int{"Query": 1}},
		{"Collection.List.Desc, one page", func() error {
			_, err := a.Projects.List("acme").Desc().Limit(10).Page(ctx, "")
			return err
		}, map[string]int{"Query": 1}},
		{"Collection.Put", func() error { return a.Projects.Put(ctx, "acme", "2026-9999", FixtureProject) }, map[string]int{"PutItem": 1}},
		{"Collection.Get", func() error { _, err := a.Projects.Get(ctx, "acme", "2026-9999"); return err }, map[string]int{"GetItem": 1}},
		{"Collection.Delete", func() error { return a.Projects.Delete(ctx, "acme", "2026-9999") }, map[string]int{"DeleteItem": 1}},
		{"Node.GetMany, 150 ids: 100 + 50 keys", func() error { _, err := a.Students.GetMany(ctx, ids); return err }, map[string]int{"BatchGetItem": 2}},
		{"Edge.Hydrate, 25 edges", func() error {
			got, err := a.Enrolled.Hydrate(ctx, edges[:n])
			if err == nil && len(got) != n {
				err = fmt.Errorf("%d edges", len(got))
			}
			return err
		}, map[string]int{"BatchGetItem": 1}},
		{"Edge.PutMany, 60 edges: 25 + 25 + 10", func() error { _, err := a.Enrolled.PutMany(ctx, many); return err }, map[string]int{"BatchWriteItem": 3}},
		{"Edge.DeleteMany, 60 edges", func() error { _, err := a.Enrolled.DeleteMany(ctx, many); return err }, map[string]int{"BatchWriteItem": 3}},
		{"Edge.Put, CheckEnds", func() error {
			return a.Enrolled.Put(ctx, "a91", "math204", e, func(o *adjlist.WriteOptions) { o.CheckEnds = true })
		}, map[string]int{"TransactWriteItems": 1}},
		{"Edge.Move", func() error { return a.Enrolled.Move(ctx, "a91", "math204", "a91", "math205", e) }, map[string]int{"TransactWriteItems": 1}},
		{"Tx.Commit, 3 actions", func() error {
			tx := adjlist.NewTx(a.Table)
			a.Students.TxCheck(tx, "a91")
			a.Enrolled.Put(ctx, "a91", "phys101", e, adjlist.InTx(tx))
			a.Enrolled.Delete(ctx, "a91", "math205", adjlist.InTx(tx))
			return tx.Commit(ctx)
		}, map[string]int{"TransactWriteItems": 1}},
		{"Node.Put", func() error { return a.Courses.Put(ctx, "new101", Course{Title: "New"}) }, map[string]int{"PutItem": 1}},
		{"Node.Put duplicate (ErrExists, stored item from the same response)", wantErr(adjlist.ErrExists, func() error {
			return a.Courses.Put(ctx, "new101", Course{Title: "Other"})
		}), map[string]int{"PutItem": 1}},
		{"Node.Replace with a condition that fails (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			return a.Courses.Replace(ctx, "new101", Course{Title: "New"}, draft)
		}), map[string]int{"PutItem": 1}},
		{"Node.Update", func() error {
			_, err := a.Courses.Update(ctx, "new101", adjlist.Set("credits", 5))
			return err
		}, map[string]int{"UpdateItem": 1}},
		{"Node.Update with a condition that fails (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			_, err := a.Courses.Update(ctx, "new101", adjlist.Set("credits", 6), draft)
			return err
		}), map[string]int{"UpdateItem": 1}},
		{"Node.Delete", func() error { return a.Courses.Delete(ctx, "new101") }, map[string]int{"DeleteItem": 1}},
		{"Node.DeleteMany, 30 ids: 25 + 5", func() error { _, err := a.Students.DeleteMany(ctx, ids[120:]); return err }, map[string]int{"BatchWriteItem": 2}},
		{"Edge.Put with a condition that fails (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			return a.Enrolled.Put(ctx, "new", "math204", e, adjlist.If(expression.AttributeExists(expression.Name("grade"))))
		}), map[string]int{"PutItem": 1}},
		{"Edge.Update with a condition that fails (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			_, err := a.Enrolled.Update(ctx, "a91", CourseID(0), grade, draft)
			return err
		}), map[string]int{"UpdateItem": 1}},
		{"Edge.Delete missing (ErrNotFound, not ErrConditionFailed)", wantErr(adjlist.ErrNotFound, func() error {
			return a.Enrolled.Delete(ctx, "nobody", "math204", draft)
		}), map[string]int{"DeleteItem": 1}},
		{"Collection.Update with a condition", func() error {
			_, err := a.Projects.Update(ctx, "acme", ProjectID(0), adjlist.Set("title", "T"),
				adjlist.If(expression.Name("status").Equal(expression.Value(FixtureProject.Status))))
			return err
		}, map[string]int{"UpdateItem": 1}},
		{"Collection.Delete with a condition that fails (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			return a.Projects.Delete(ctx, "acme", ProjectID(0), draft)
		}), map[string]int{"DeleteItem": 1}},
		{"Collection.GetMany, 25 children", func() error {
			got, err := a.Projects.GetMany(ctx, projects)
			if err == nil && len(got) != n {
				err = fmt.Errorf("%d children", len(got))
			}
			return err
		}, map[string]int{"BatchGetItem": 1}},
		{"Collection.DeleteMany, 5 children", func() error { _, err := a.Projects.DeleteMany(ctx, projects[20:]); return err }, map[string]int{"BatchWriteItem": 1}},
		{"versioned Node.Put, Update, stale Update (ErrVersionConflict), Delete", func() error {
			if err := locked.Put(ctx, "v1", FixtureStudent); err != nil {
				return err
			}
			if _, err := locked.Update(ctx, "v1", adjlist.Set("year", 3), adjlist.IfVersion(1)); err != nil {
				return err
			}
			_, err := locked.Update(ctx, "v1", adjlist.Set("year", 4), adjlist.IfVersion(1))
			if !errors.Is(err, adjlist.ErrVersionConflict) {
				return fmt.Errorf("stale update: %v", err)
			}
			return locked.Delete(ctx, "v1", adjlist.IfVersion(2))
		}, map[string]int{"PutItem": 1, "UpdateItem": 2, "DeleteItem": 1}},
		{"Collection.Put and Update with timestamps and an expiry", func() error {
			if err := stamped.Put(ctx, "acme", "s1", FixtureProject, adjlist.Expires(time.Now().Add(time.Minute))); err != nil {
				return err
			}
			_, err := stamped.Update(ctx, "acme", "s1", adjlist.Set("title", "T"))
			return err
		}, map[string]int{"PutItem": 1, "UpdateItem": 1}},
		{"Collection.List with the unexpired filter, one page", func() error {
			expiresAt := expression.Name("expiresAt")
			_, err := stamped.List("acme").Filter(expression.AttributeNotExists(expiresAt).Or(expiresAt.GreaterThan(expression.Value(time.Now().Unix())))).Collect(ctx)
			return err
		}, map[string]int{"Query": 1}},
		{"Tx.Commit: Put, Update, Delete InTx, TxCheck with conditions", func() error {
			tx := adjlist.NewTx(a.Table)
			a.Courses.Put(ctx, "tx101", Course{Title: "Tx"}, adjlist.InTx(tx))
			a.Enrolled.Update(ctx, "a91", CourseID(1), grade, adjlist.InTx(tx))
			a.Projects.Delete(ctx, "acme", ProjectID(1), adjlist.InTx(tx))
			a.Projects.TxCheck(tx, "acme", ProjectID(2), adjlist.If(expression.Name("status").Equal(expression.Value(FixtureProject.Status))))
			a.Enrolled.TxCheck(tx, "a91", CourseID(2))
			a.Students.Update(ctx, "a91", adjlist.Set("year", 2), adjlist.InTx(tx))
			return tx.Commit(ctx)
		}, map[string]int{"TransactWriteItems": 1}},
		{"Tx.Commit with a failed check (ErrConditionFailed)", wantErr(adjlist.ErrConditionFailed, func() error {
			tx := adjlist.NewTx(a.Table)
			a.Courses.Delete(ctx, "tx101", adjlist.InTx(tx))
			a.Students.TxCheck(tx, "a91", draft)
			return tx.Commit(ctx)
		}), map[string]int{"TransactWriteItems": 1}},
		{"versioned Collection.Update without the version: refused before sending", wantErr(adjlist.ErrInvalidOption, func() error {
			_, err := lockedProjects.Update(ctx, "acme", "p", grade)
			return err
		}), map[string]int{}},
		{"invalid condition: refused before sending", func() error {
			err := a.Courses.Put(ctx, "x", Course{}, adjlist.If(expression.Name("").Equal(expression.Value(1))))
			if err == nil {
				return errors.New("no error")
			}
			return nil
		}, map[string]int{}},
		{"update naming a key attribute in a Tx: refused before sending", wantErr(adjlist.ErrKeyAttribute, func() error {
			tx := adjlist.NewTx(a.Table)
			a.Projects.Update(ctx, "acme", ProjectID(3), adjlist.Set("PK", "x"), adjlist.InTx(tx))
			return tx.Commit(ctx)
		}), map[string]int{}},
		{"Collection.GetMany with a bad id: refused before sending", wantErr(adjlist.ErrInvalidKey, func() error {
			_, err := a.Projects.GetMany(ctx, []Child{{Parent: "acme", ID: ""}})
			return err
		}), map[string]int{}},
		{"invalid id: refused before sending", wantErr(adjlist.ErrInvalidKey, func() error { return a.Enrolled.Put(ctx, "", "math204", e) }), map[string]int{}},
		{"invalid cursor: refused before sending", wantErr(adjlist.ErrInvalidCursor, func() error {
			_, err := a.Enrolled.From("a91").Page(ctx, "not-a-cursor")
			return err
		}), map[string]int{}},
		{"consistent read on the index: refused before sending", wantErr(adjlist.ErrIndexConsistentRead, func() error {
			_, err := a.Enrolled.To("math204").Collect(ctx, adjlist.Consistent)
			return err
		}), map[string]int{}},
		{"Edge into a child: Put, From, To, Get", func() error {
			if err := tagged.Put(ctx, "go", ref, FixtureEnrollment); err != nil {
				return err
			}
			if _, err := tagged.From("go").Collect(ctx); err != nil {
				return err
			}
			if _, err := tagged.To(ref).Collect(ctx); err != nil {
				return err
			}
			_, err := tagged.Get(ctx, "go", ref)
			return err
		}, map[string]int{"PutItem": 1, "Query": 2, "GetItem": 1}},
		{"Edge from a child: Put with CheckEnds (the child item checked), From", func() error {
			if err := hasTag.Put(ctx, ref, "go", FixtureEnrollment, func(o *adjlist.WriteOptions) { o.CheckEnds = true }); err != nil {
				return err
			}
			_, err := hasTag.From(ref).Collect(ctx)
			return err
		}, map[string]int{"TransactWriteItems": 1, "Query": 1}},
		{"DeleteChild with one kind into it: index Query, own partition Query, two BatchWriteItems, DeleteItem", func() error {
			res, err := adjlist.DeleteChild(ctx, a.Projects, "acme", ProjectID(4), tagged)
			if err == nil && (res.Incoming != 1 || res.Partition != 1 || !res.Node) {
				err = fmt.Errorf("result %+v", res)
			}
			return err
		}, map[string]int{"Query": 2, "BatchWriteItem": 2, "DeleteItem": 1}},
		{"a ref of another type: refused before sending", wantErr(adjlist.ErrInvalidKey, func() error {
			return tagged.Put(ctx, "go", "WS#acme#TASK#1", FixtureEnrollment)
		}), map[string]int{}},
	}
	counter.check(t, cases)
}

// requestCase is one call and the requests it must make, by operation.
type requestCase struct {
	name string
	run  func() error
	want map[string]int
}

// check runs each case as a subtest and compares the operations counted
// with its want, and the HTTP attempts with the operations (so that an SDK
// retry cannot hide in a count).
func (c *requestCounter) check(t *testing.T, cases []requestCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.reset()
			if err := tc.run(); err != nil {
				t.Fatal(err)
			}
			c.mu.Lock()
			got := maps.Clone(c.ops)
			c.mu.Unlock()
			if !maps.Equal(got, tc.want) {
				t.Errorf("requests: %s, want %v", c.got(), tc.want)
			}
			total := 0
			for _, n := range got {
				total += n
			}
			if a := int(c.attempts.Load()); a != total {
				t.Errorf("%d HTTP attempts for %d operations (retries?)", a, total)
			}
		})
	}
}
