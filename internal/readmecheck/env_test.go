package readmecheck

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/middleware"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// The data types the README's prose introduces, with the attributes its
// tables show.
type (
	Student struct {
		Name  string `dynamodbav:"name"`
		Year  int    `dynamodbav:"year"`
		Major string `dynamodbav:"major"`
	}
	Course struct {
		Title   string `dynamodbav:"title"`
		Credits int    `dynamodbav:"credits"`
		Term    string `dynamodbav:"term"`
	}
	Enrollment struct {
		EnrolledOn string `dynamodbav:"enrolledOn"`
		Grade      string `dynamodbav:"grade"`
	}
	Note struct {
		Text string `dynamodbav:"text"`
	}
	Workspace struct {
		Name      string `dynamodbav:"name"`
		Status    string `dynamodbav:"status,omitempty"`
		CreatedAt string `dynamodbav:"createdAt,omitempty"`
	}
	Project struct {
		Title     string  `dynamodbav:"title"`
		Status    *string `dynamodbav:"status,omitempty"`
		CreatedAt string  `dynamodbav:"createdAt"`
	}
	Tag struct {
		Name string `dynamodbav:"name"`
	}
	Tagging struct {
		By string `dynamodbav:"by"`
	}
	User struct {
		Name string `dynamodbav:"name"`
	}
	Team struct {
		Name string `dynamodbav:"name"`
	}
	Session struct {
		Device string `dynamodbav:"device"`
	}
	Post struct {
		Title  string `dynamodbav:"title"`
		Status string `dynamodbav:"status"`
		Likes  int    `dynamodbav:"likes"`
	}
	Follow struct {
		Since string `dynamodbav:"since"`
	}
	Entry struct {
		Tour   string `dynamodbav:"tour"`
		Region string `dynamodbav:"region"`
		Round  int    `dynamodbav:"round"`
		Score  int    `dynamodbav:"score"`
	}
	Membership struct {
		Role string `dynamodbav:"role"`
	}

	// The AWS guide's social network and gaming profile designs, with the
	// guide's attribute names.
	UserInfo struct {
		Name string `dynamodbav:"name"`
	}
	UserCounts struct {
		Followers int `dynamodbav:"follower#"`
		Following int `dynamodbav:"following#"`
		Posts     int `dynamodbav:"post#"`
	}
	Relation struct{}
	UserPost struct {
		Content string `dynamodbav:"content"`
	}
	TimelineEntry struct {
		TTL int64 `dynamodbav:"ttl"`
	}
	PlayerMeta    struct{ Currency int }
	PlayerFriends struct{ FriendList []string }
	PlayerItem    struct{ ItemCount int }

	// The AWS complaint management design: key fields that are
	// attributes too, and one kept only in the partition key.
	Complaint struct {
		ComplaintID string `dynamodbav:"complaint_id"`
		Severity    string `dynamodbav:"severity"`
	}
	Comm struct {
		ComplaintID string `dynamodbav:"complaint_id"`
		CommID      string `dynamodbav:"comm_id"`
		CommDate    string `dynamodbav:"comm_date"`
		Text        string `dynamodbav:"comm_text"`
	}

	// Model is what the README's NewModel returns.
	Model struct {
		Table   *adjlist.Table
		Users   *adjlist.Node[User]
		Teams   *adjlist.Node[Team]
		Members *adjlist.Edge[Membership]
	}
)

// local is DynamoDB Local as a README block sees it. client is the
// *dynamodb.Client the block is given: a request that names one of the
// README's tables ("school", "tenancy", ...) goes to a table of this test
// (ddbtest.TableName), and the names in the response are the README's
// again, so tests run the blocks as written, in parallel, on one server.
// Each such table is deleted when the test ends.
type local struct {
	client *dynamodb.Client
	// cfg reaches the same server with the same dummy credentials, for
	// the clients of other services a block builds (DynamoDB Streams).
	cfg aws.Config
	// requests counts the operations asked of client, retries not
	// included: a call refused before any request leaves it unchanged.
	requests atomic.Int64
}

// newLocal returns the client of a test whose blocks use the README's
// tables named.
func newLocal(t *testing.T, names ...string) *local {
	t.Helper()
	base := ddbtest.Client(t)
	to, back := map[string]string{}, map[string]string{}
	for _, name := range names {
		to[name] = ddbtest.TableName(t)
		back[to[name]] = name
	}
	l := &local{cfg: aws.Config{
		Region:       "us-east-1",
		Credentials:  credentials.NewStaticCredentialsProvider("local", "local", ""),
		BaseEndpoint: base.Options().BaseEndpoint,
	}}
	l.client = dynamodb.New(base.Options(), func(o *dynamodb.Options) {
		o.APIOptions = append(o.APIOptions, func(stack *middleware.Stack) error {
			return stack.Initialize.Add(middleware.InitializeMiddlewareFunc("readmeTables",
				func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
					l.requests.Add(1)
					renameTables(reflect.ValueOf(in.Parameters), to)
					out, md, err := next.HandleInitialize(ctx, in)
					if out.Result != nil {
						renameTables(reflect.ValueOf(out.Result), back)
					}
					return out, md, err
				}), middleware.Before)
		})
	})
	t.Cleanup(func() {
		for _, name := range names {
			_, err := l.client.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(name)})
			if err != nil && !errors.As(err, new(*types.ResourceNotFoundException)) {
				t.Errorf("deleting the README's table %s: %v", name, err)
			}
		}
	})
	return l
}

// create creates table (adjlist.CreateTable): the table a block takes as
// given.
func (l *local) create(t *testing.T, table *adjlist.Table, optFns ...func(*adjlist.CreateTableOptions)) {
	t.Helper()
	require.NoError(t, adjlist.CreateTable(t.Context(), l.client, table, optFns...))
}

// tableMaps are the fields of the DynamoDB API keyed by table name.
var tableMaps = map[string]bool{"RequestItems": true, "Responses": true, "UnprocessedItems": true, "UnprocessedKeys": true, "ItemCollectionMetrics": true}

// renameTables replaces, in the request or response v, every table name
// that names maps: each TableName field and the keys of the maps keyed
// by table name, however deep (a transaction's actions, consumed
// capacity).
func renameTables(v reflect.Value, names map[string]string) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			renameTables(v.Elem(), names)
		}
	case reflect.Slice:
		for i := range v.Len() {
			renameTables(v.Index(i), names)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			f, sf := v.Field(i), v.Type().Field(i)
			switch {
			case !sf.IsExported():
			case sf.Name == "TableName" && f.Type() == reflect.TypeFor[*string]():
				if s := f.Interface().(*string); s != nil {
					if to, ok := names[*s]; ok {
						f.Set(reflect.ValueOf(&to))
					}
				}
			case tableMaps[sf.Name] && f.Kind() == reflect.Map && f.Type().Key().Kind() == reflect.String:
				if f.IsNil() {
					continue
				}
				m := reflect.MakeMapWithSize(f.Type(), f.Len())
				for it := f.MapRange(); it.Next(); {
					k := it.Key().String()
					if to, ok := names[k]; ok {
						k = to
					}
					m.SetMapIndex(reflect.ValueOf(k).Convert(f.Type().Key()), it.Value())
				}
				f.Set(m)
			default:
				renameTables(f, names)
			}
		}
	}
}

// printer stands in for the fmt and log packages in a README block, so
// that its test can assert what the block prints: the test declares
// `fmt := new(printer)` (or log) before the block, and each Print, Printf
// or Println call is one line, without its newline. It is safe for
// concurrent use (a Scan's progress callbacks).
type printer struct {
	mu    sync.Mutex
	lines []string
}

func (p *printer) add(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.lines = append(p.lines, strings.TrimSuffix(s, "\n"))
}

func (p *printer) Print(a ...any)                 { p.add(fmt.Sprint(a...)) }
func (p *printer) Printf(format string, a ...any) { p.add(fmt.Sprintf(format, a...)) }
func (p *printer) Println(a ...any)               { p.add(fmt.Sprintln(a...)) }

// Lines returns the lines printed so far.
func (p *printer) Lines() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.lines...)
}

// school is the README's students ↔ courses model on table, holding the
// rows of the README's table ("The model: students ↔ courses") when
// seeded.
type school struct {
	students *adjlist.Node[Student]
	courses  *adjlist.Node[Course]
	enrolled *adjlist.Edge[Enrollment]
}

func newSchool(table *adjlist.Table) school {
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	courses := adjlist.NewNode[Course](table, "CRS", "METADATA")
	return school{students, courses, adjlist.NewEdge[Enrollment](students, "ENROLL", courses)}
}

// seed writes the README's table: students a91 and b30, courses math204
// and cs101, a91 in both (grade B), b30 in math204.
func (s school) seed(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	require.NoError(t, s.students.Put(ctx, "a91", Student{Name: "Ann", Year: 2, Major: "math"}))
	require.NoError(t, s.students.Put(ctx, "b30", Student{Name: "Bo", Year: 1, Major: "cs"}))
	require.NoError(t, s.courses.Put(ctx, "math204", Course{Title: "Linear Algebra", Credits: 4, Term: "2026-fall"}))
	require.NoError(t, s.courses.Put(ctx, "cs101", Course{Title: "Programming", Credits: 3, Term: "2026-fall"}))
	for _, e := range []struct{ from, to, on string }{{"a91", "math204", "2026-09-01"}, {"a91", "cs101", "2026-09-02"}, {"b30", "math204", "2026-09-03"}} {
		require.NoError(t, s.enrolled.Put(ctx, e.from, e.to, Enrollment{EnrolledOn: e.on, Grade: "B"}))
	}
}

// rawItem is the item at pk, sk of table name (PK/SK keys), read with the
// SDK alone.
func (l *local) rawItem(t *testing.T, name, pk, sk string) map[string]types.AttributeValue {
	t.Helper()
	out, err := l.client.GetItem(t.Context(), &dynamodb.GetItemInput{TableName: aws.String(name), ConsistentRead: aws.Bool(true),
		Key: map[string]types.AttributeValue{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: sk}}})
	require.NoError(t, err)
	return out.Item
}

// attrNames are the attribute names of item, sorted.
func attrNames(item map[string]types.AttributeValue) []string {
	var names []string
	for n := range item {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
