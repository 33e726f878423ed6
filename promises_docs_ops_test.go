package adjlist_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

// segmentRecorder records the TotalSegments of every Scan request.
type segmentRecorder struct {
	*dynamodb.Client
	mu    sync.Mutex
	total []int32
}

func (c *segmentRecorder) Scan(ctx context.Context, in *dynamodb.ScanInput, o ...func(*dynamodb.Options)) (*dynamodb.ScanOutput, error) {
	c.mu.Lock()
	c.total = append(c.total, aws.ToInt32(in.TotalSegments))
	c.mu.Unlock()
	return c.Client.Scan(ctx, in, o...)
}

// take returns the TotalSegments sent since the last call.
func (c *segmentRecorder) take() []int32 {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.total
	c.total = nil
	return out
}

// docs/operations.md: Scan is "one segment by default, so a table or index
// under 1 MB takes one request", and Verify "scans on 4 segments unless
// Segments says otherwise" (ScanOptions.Segments: 1 for Scan and Migrate,
// 4 for Verify).
func TestWalksScanOneSegmentVerifyFour(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	sc := &segmentRecorder{Client: db}
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ddbtest.CreateTable(t, table)
	students := adjlist.NewNode[Student](table, "STU", "PROFILE")
	require.NoError(t, students.Put(ctx, "a91", Student{Name: "Ada"}))

	_, err := adjlist.Scan(ctx, sc, students, func(context.Context, adjlist.NodeItem[Student]) error { return nil })
	require.NoError(t, err)
	assert.Equal(t, []int32{1}, sc.take(), "Scan: one segment, one request")
	_, err = adjlist.Migrate(ctx, sc, students)
	require.NoError(t, err)
	assert.Equal(t, []int32{1}, sc.take(), "Migrate: one segment, one request")
	_, err = adjlist.Verify(ctx, sc, table)
	require.NoError(t, err)
	assert.Equal(t, []int32{4, 4, 4, 4}, sc.take(), "Verify: 4 segments, one request each")
	_, err = adjlist.Verify(ctx, sc, table, func(o *adjlist.ScanOptions) { o.Segments = 2 })
	require.NoError(t, err)
	assert.Equal(t, []int32{2, 2}, sc.take(), "unless Segments says otherwise")
}

// docs/writes.md, Time: "Updates may not name Version, CreatedAt or
// UpdatedAt (ErrInvalidOption)": not by any of Update's verbs, alone or in
// a Tx, and before any request.
func TestUpdateMayNotNameWhatTrackingWrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, false)
	nodes := adjlist.NewNode[Author](b.table, "TR", "META", func(o *adjlist.NodeOptions) {
		o.Tracking = adjlist.Tracking{Version: "version", CreatedAt: "createdAt", UpdatedAt: "updatedAt"}
	})
	require.NoError(t, nodes.Put(ctx, "x", Author{Name: "x"}))
	before := b.raw(t, "TR#x", "META")
	b.calls.counts()
	for _, name := range []string{"version", "createdAt", "updatedAt"} {
		for verb, upd := range map[string]adjlist.Update{
			"Set":    adjlist.Set("name", "y").Set(name, 3),
			"Remove": adjlist.Set("name", "y").Remove(name),
			"Add":    adjlist.Set("name", "y").Add(name, 1),
			"SetTo":  adjlist.Set("name", "y").SetTo(name, expression.Name(name).Plus(expression.Value(1))),
			"Delete": adjlist.Set("name", "y").Delete(name, []string{"a"}),
		} {
			_, err := nodes.Update(ctx, "x", upd, adjlist.IfVersion(1))
			require.ErrorIs(t, err, adjlist.ErrInvalidOption, "%s %s", verb, name)
			tx := adjlist.NewTx(b.table)
			_, err = nodes.Update(ctx, "x", upd, adjlist.IfVersion(1), adjlist.InTx(tx))
			require.ErrorIs(t, err, adjlist.ErrInvalidOption, "%s %s in a Tx", verb, name)
			require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrInvalidOption, "%s %s: Commit", verb, name)
		}
	}
	assert.Empty(t, b.calls.counts(), "refused before any request")
	assert.Equal(t, before, b.raw(t, "TR#x", "META"))
}

// docs/operations.md, Traces: "A call made of others is one span of its
// own name (Edge.Put with CheckEnds, TwoHop, a counted Edge.Put); Scan,
// Migrate, Verify and Repair open one span each for all their segments
// and writes". Every request the call made is counted on its span and
// nests under it.
func TestCallsMadeOfOthersAreOneSpan(t *testing.T) {
	t.Parallel()
	s := newTracedSchool(t)
	seedTraced(t, s)
	counted := newEdgeCounter(s.enrolled, "enrolled")
	segments := func(o *adjlist.ScanOptions) { o.Segments = 3 }
	var found []adjlist.Finding
	for _, c := range []struct {
		name, span string
		requests   int64 // at least
		call       func(ctx context.Context) error
	}{
		{"counted Edge.Put", "Edge.Put", 1, func(ctx context.Context) error {
			return counted.Put(ctx, "z1", "math204", math204)
		}},
		{"counted Edge.Delete", "Edge.Delete", 1, func(ctx context.Context) error {
			return counted.Delete(ctx, "z1", "math204")
		}},
		{"TwoHop", "TwoHop", 2, func(ctx context.Context) error {
			_, err := adjlist.TwoHop(ctx, s.enrolled, s.enrolled, "a91", 10)
			return err
		}},
		{"Scan on 3 segments", "Scan", 3, func(ctx context.Context) error {
			_, err := adjlist.Scan(ctx, s.db, s.enrolled, func(context.Context, adjlist.EdgeItem[Enrollment]) error { return nil }, segments)
			return err
		}},
		{"Migrate on 3 segments", "Migrate", 3, func(ctx context.Context) error {
			_, err := adjlist.Migrate(ctx, s.db, s.enrolled, segments)
			return err
		}},
		{"Verify on 3 segments", "Verify", 3, func(ctx context.Context) error {
			res, err := adjlist.Verify(ctx, s.db, s.table, segments)
			found = res.Findings
			return err
		}},
		{"Repair of every finding", "Repair", 2, func(ctx context.Context) error {
			if len(found) < 2 {
				return errors.New("want the two uncounted courses' counter mismatches")
			}
			_, err := adjlist.Repair(ctx, s.db, s.table, found)
			return err
		}},
	} {
		outer, spans, err := s.traced(t, c.call)
		require.NoError(t, err, c.name)
		mine := children(spans, outer)
		require.Len(t, mine, 1, "%s: one span", c.name)
		assert.Equal(t, c.span, mine[0].Name(), c.name)
		requests := attrs(mine[0])["adjlist.requests"].AsInt64()
		assert.GreaterOrEqual(t, requests, c.requests, c.name)
		assert.Len(t, children(spans, mine[0].SpanContext()), int(requests), "%s: every request's span nests under it", c.name)
		assert.Len(t, spans, 1+int(requests), "%s: no other span", c.name)
	}
}

// selfMarshalled marshals itself (attributevalue.Marshaler).
type selfMarshalled struct{ Name string }

func (s selfMarshalled) MarshalDynamoDBAttributeValue() (types.AttributeValue, error) {
	return &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"name": &types.AttributeValueMemberS{Value: s.Name}}}, nil
}

func (s *selfMarshalled) UnmarshalDynamoDBAttributeValue(av types.AttributeValue) error {
	m, ok := av.(*types.AttributeValueMemberM)
	if !ok {
		return errors.New("not a map")
	}
	if n, ok := m.Value["name"].(*types.AttributeValueMemberS); ok {
		s.Name = n.Value
	}
	return nil
}

// docs/existing-tables.md, Attributes your Go type does not declare: a
// map type "holds every attribute; a type that is an interface, or that
// marshals itself (attributevalue.Marshaler), is not checked", while a
// struct's undeclared attribute is reported.
func TestVerifyChecksOnlyTypesThatDeclareAttributes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	self := adjlist.NewEntity[selfMarshalled](table, "self", "S#{id}", "X")
	iface := adjlist.NewEntity[any](table, "iface", "A#{id}", "X")
	maps := adjlist.NewEntity[map[string]any](table, "map", "M#{id}", "X")
	structs := adjlist.NewEntity[Student](table, "struct", "T#{id}", "X")
	require.NoError(t, self.Put(ctx, adjlist.IDs{"1"}, selfMarshalled{Name: "n"}))
	require.NoError(t, iface.Put(ctx, adjlist.IDs{"1"}, map[string]any{"name": "n"}))
	require.NoError(t, maps.Put(ctx, adjlist.IDs{"1"}, map[string]any{"name": "n"}))
	require.NoError(t, structs.Put(ctx, adjlist.IDs{"1"}, Student{Name: "n"}))
	for _, pk := range []string{"S#1", "A#1", "M#1", "T#1"} {
		_, err := db.UpdateItem(ctx, &dynamodb.UpdateItemInput{TableName: aws.String(table.Name()),
			Key:                       adjlist.Item{"PK": &types.AttributeValueMemberS{Value: pk}, "SK": &types.AttributeValueMemberS{Value: "X"}},
			UpdateExpression:          aws.String("SET #l = :v"),
			ExpressionAttributeNames:  map[string]string{"#l": "Level"},
			ExpressionAttributeValues: adjlist.Item{":v": &types.AttributeValueMemberN{Value: "7"}}})
		require.NoError(t, err)
	}
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	require.Len(t, res.Findings, 1, "only the struct's: %v", res.Findings)
	assert.Equal(t, `undeclared attribute: "T#1" "X" (entity struct): Level is N 7`, res.Findings[0].String())
}

// docs/existing-tables.md, What a template promises: an entity's "empty
// id, one with a control character or invalid UTF-8, and a key over 2,048
// (partition) or 1,024 (sort) bytes are ErrInvalidKey, before any
// request"; "#" and "%" are written "%23" and "%25", and count as written.
func TestEntityKeyLimitsAsWritten(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	calls := &countingClient{Client: ddbtest.Client(t)}
	table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { o.NoIndex = true })
	followers := adjlist.NewEntity[Student](table, "follower", "u#{userID}#follower", "u#{followerID}")
	fill := func(n int, fixed string) string { return strings.Repeat("x", n-len(fixed)) }
	for _, c := range []struct {
		name    string
		ids     adjlist.IDs
		refused bool
		pk, sk  string // the keys of an accepted one, when short
	}{
		{"plain ids as the design spells them", adjlist.IDs{"12345", "34567"}, false, "u#12345#follower", "u#34567"},
		{"# and % escaped", adjlist.IDs{"a#b%c", "d"}, false, "u#a%23b%25c#follower", "u#d"},
		{"partition key of 2,048 bytes", adjlist.IDs{fill(2048, "u##follower"), "f"}, false, "", ""},
		{"partition key of 2,049 bytes", adjlist.IDs{fill(2049, "u##follower"), "f"}, true, "", ""},
		{"sort key of 1,024 bytes", adjlist.IDs{"u", fill(1024, "u#")}, false, "", ""},
		{"sort key of 1,025 bytes", adjlist.IDs{"u", fill(1025, "u#")}, true, "", ""},
		{"sort key of 1,024 bytes escaped", adjlist.IDs{"u", strings.Repeat("#", 340) + "xx"}, false, "", ""},
		{"sort key of 1,025 bytes escaped", adjlist.IDs{"u", strings.Repeat("#", 340) + "xxx"}, true, "", ""},
		{"empty id", adjlist.IDs{"u", ""}, true, "", ""},
		{"control character", adjlist.IDs{"u", "a\nb"}, true, "", ""},
		{"NUL", adjlist.IDs{"a\x00b", "f"}, true, "", ""},
		{"invalid UTF-8", adjlist.IDs{"u", "\xff"}, true, "", ""},
	} {
		pk, sk, err := followers.Key(c.ids...)
		_, getErr := followers.Get(ctx, c.ids)
		if c.refused {
			assert.ErrorIs(t, err, adjlist.ErrInvalidKey, c.name)
			assert.ErrorIs(t, getErr, adjlist.ErrInvalidKey, c.name)
			continue
		}
		require.NoError(t, err, c.name)
		assert.NotErrorIs(t, getErr, adjlist.ErrInvalidKey, c.name)
		if c.pk != "" {
			assert.Equal(t, [2]string{c.pk, c.sk}, [2]string{pk, sk}, c.name)
		}
	}
	assert.Zero(t, calls.total()-calls.gets.Load(), "only the accepted keys' GetItem")
	assert.Equal(t, int64(5), calls.gets.Load(), "no request for a refused key")
}

// docs/writes.md: "A write given WriteOptions.Token (a request id, 1 to 36
// characters)", and TxOptions.Token "is 1 to 36 characters (a longer one is
// ErrInvalidOption before any request)". Characters as DynamoDB counts
// them, in UTF-16 code units (DynamoDB Local refuses a 37th, and takes 36
// "é", 72 bytes, or 18 "😀", two units each): a token DynamoDB takes is
// sent, one it refuses is refused before any request.
func TestTokenLengthInCharacters(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := newSchool(t)
	// token is prefix, then fill (w UTF-16 units each), then "x", to the
	// given units. Tokens live for the account: each run makes its own.
	unique := fmt.Sprintf("%x", time.Now().UnixNano())
	token := func(prefix string, units int, fill string, w int) string {
		tok, n := prefix+unique, len(prefix)+len(unique)
		for ; n+w <= units; n += w {
			tok += fill
		}
		return tok + strings.Repeat("x", units-n)
	}
	for i, c := range []struct {
		name, fill string
		w, units   int
	}{
		{"é", "é", 1, 36},
		{"é", "é", 1, 37},
		{"😀", "😀", 2, 36},
		{"😀", "😀", 2, 37},
		{"ASCII", "t", 1, 36},
		{"ASCII", "t", 1, 37},
	} {
		name := fmt.Sprintf("%d units of %s", c.units, c.name)
		id := fmt.Sprintf("s%d-%s", i, unique)
		before := s.calls.total()
		err := s.students.Put(ctx, id, Student{Name: name}, withToken(token("p", c.units, c.fill, c.w)))
		tx := adjlist.NewTx(s.table)
		require.NoError(t, s.courses.Put(ctx, id, Course{Title: name}, adjlist.InTx(tx)))
		txErr := tx.Commit(ctx, func(o *adjlist.TxOptions) { o.Token = token("c", c.units, c.fill, c.w) })
		if c.units > 36 {
			assert.ErrorIs(t, err, adjlist.ErrInvalidOption, name)
			assert.ErrorIs(t, txErr, adjlist.ErrInvalidOption, "%s: Commit", name)
			assert.Equal(t, before, s.calls.total(), "%s: refused before any request", name)
			continue
		}
		require.NoError(t, err, name)
		require.NoError(t, txErr, "%s: Commit", name)
		assert.Equal(t, before+2, s.calls.total(), "%s: one TransactWriteItems each", name)
	}
}

// docs/writes.md: a write given WriteOptions.Token is "a one-action
// TransactWriteItems", and each verb fails as its table row says: the
// guard's error (ErrExists, "edge already exists", ErrNotFound) even when
// the caller's condition fails too, ErrConditionFailed for the caller's
// condition alone, ErrVersionConflict for a stale version, with nothing
// written.
func TestTokenedWriteFailsAsThePlainWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newBlog(t, true)
	unique := fmt.Sprintf("%x", time.Now().UnixNano())
	n := 0
	tok := func() func(*adjlist.WriteOptions) { n++; return withToken(fmt.Sprintf("w%d-%s", n, unique)) }
	require.NoError(t, b.authors.Put(ctx, "ada", Author{Name: "Ada", Status: "DRAFT"}, tok()))
	require.NoError(t, b.follows.Put(ctx, "ada", "ada", Following{Since: "2026"}, tok()))
	stored := b.raw(t, "AUTHOR#ada", "PROFILE")
	b.calls.counts()
	for _, c := range []struct {
		name  string
		write func() error
		want  error
	}{
		{"Put of an existing item", func() error { return b.authors.Put(ctx, "ada", Author{Name: "Ada"}, tok()) }, adjlist.ErrExists},
		{"Put of an existing item, its condition failing too", func() error {
			return b.authors.Put(ctx, "ada", Author{Name: "Ada"}, tok(), adjlist.If(failsOnMissing))
		}, adjlist.ErrExists},
		{"Put whose condition fails", func() error {
			return b.authors.Put(ctx, "bob", Author{Name: "Bob"}, tok(), adjlist.If(failsOnMissing))
		}, adjlist.ErrConditionFailed},
		{"Update of a missing item", func() error {
			_, err := b.authors.Update(ctx, "bob", adjlist.Set("posts", 1), adjlist.IfVersion(1), tok())
			return err
		}, adjlist.ErrNotFound},
		{"Update whose condition fails", func() error {
			_, err := b.authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(1), tok(), adjlist.If(failsOnStored))
			return err
		}, adjlist.ErrConditionFailed},
		{"Update of a stale version", func() error {
			_, err := b.authors.Update(ctx, "ada", adjlist.Set("posts", 1), adjlist.IfVersion(5), tok())
			return err
		}, adjlist.ErrVersionConflict},
		{"Replace of a stale version", func() error {
			return b.authors.Replace(ctx, "ada", Author{Name: "x", Version: 4}, tok())
		}, adjlist.ErrVersionConflict},
		{"Delete whose condition fails", func() error {
			return b.authors.Delete(ctx, "ada", adjlist.IfVersion(1), tok(), adjlist.If(failsOnStored))
		}, adjlist.ErrConditionFailed},
		{"Delete of a missing item", func() error { return b.authors.Delete(ctx, "bob", adjlist.IfVersion(1), tok()) }, adjlist.ErrNotFound},
	} {
		err := c.write()
		require.ErrorIs(t, err, c.want, c.name)
		for _, other := range []error{adjlist.ErrExists, adjlist.ErrNotFound, adjlist.ErrConditionFailed, adjlist.ErrVersionConflict} {
			if other != c.want {
				assert.NotErrorIs(t, err, other, c.name)
			}
		}
	}
	err := b.follows.Put(ctx, "ada", "ada", Following{}, tok())
	require.ErrorIs(t, err, adjlist.ErrExists)
	assert.ErrorContains(t, err, "edge already exists")
	assert.Equal(t, map[string]int{"TransactWriteItems": 10}, b.calls.counts(), "one TransactWriteItems each")
	assert.Equal(t, stored, b.raw(t, "AUTHOR#ada", "PROFILE"), "nothing written")
}

// docs/writes.md, Time: "A cursor binds the filter's now: use one now for
// all pages of a listing." A cursor from the filter at one now is refused
// by the same filter at another, before any request; at its own now it
// reads on.
func TestCursorBindsTheFiltersNow(t *testing.T) {
	t.Parallel()
	s := newTenancy(t)
	ctx := context.Background()
	for _, id := range []string{"a", "b", "c"} {
		require.NoError(t, s.projects.Put(ctx, "acme", id, Project{Status: "ACTIVE"}))
	}
	live := func(now int64) adjlist.Query[adjlist.Child[Project]] {
		at := expression.Name("expiresAt")
		return s.projects.List("acme").Filter(expression.AttributeNotExists(at).Or(at.GreaterThan(expression.Value(now)))).Limit(1)
	}
	page, err := live(1_800_000_000).Page(ctx, "")
	require.NoError(t, err)
	require.NotEmpty(t, page.Cursor)
	before := s.calls.total()
	_, err = live(1_800_000_001).Page(ctx, page.Cursor)
	require.ErrorIs(t, err, adjlist.ErrInvalidCursor)
	assert.Equal(t, before, s.calls.total(), "refused before any request")
	next, err := live(1_800_000_000).Page(ctx, page.Cursor)
	require.NoError(t, err)
	require.Len(t, next.Items, 1)
	assert.Equal(t, "b", next.Items[0].ID)
}

// docs/existing-tables.md, What a template promises: "table.Check() lists
// every mistake of the model at once": an ambiguous pair of entities, a
// template that cannot be read back and bad names, joined, each with its
// sentinel.
func TestCheckListsEveryMistakeAtOnce(t *testing.T) {
	t.Parallel()
	table := adjlist.NewTable(nil, "social", func(o *adjlist.Options) { o.NoIndex = true })
	adjlist.NewEntity[Student](table, "user", "u#{userID}", "info")
	adjlist.NewEntity[Student](table, "anything", "u#{userID}", "{anything}")
	adjlist.NewEntity[Student](table, "dated", "d#{x}", "{date}-{id}")
	adjlist.NewNode[Student](table, "A#B", "P")
	err := table.Check()
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	require.ErrorIs(t, err, adjlist.ErrInvalidKey)
	for _, want := range []string{"entity anything could have the keys of entity user", `"{date}-{id}"`, `node type "A#B"`} {
		assert.ErrorContains(t, err, want)
	}
	assert.Len(t, strings.Split(err.Error(), "\n"), 3, "one line per mistake")
}

// A float key field, its id given (nil: the id is its value).
type (
	floatRound struct {
		Round *float64 `dynamodbav:"round"`
	}
	float32Round struct {
		Round *float32 `dynamodbav:"round"`
	}
)

// docs/existing-tables.md, Key fields that are attributes too: a number's
// id "fits the field's Go type" or is ErrInvalidKey before any request. A
// float field fits the ids it holds exactly: 9007199254740993 is no
// float64 (a read gives 9007199254740992, and Get then Replace wrote the
// item again under that key, a second item); 0.1 and 2^53 are. Ids taken
// read back as given, and Get then Replace keeps the one item.
func TestFloatKeyFieldIDsItHoldsExactly(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	calls := &countingClient{}
	table := adjlist.NewTable(calls, "t", func(o *adjlist.Options) { o.NoIndex = true })
	doubles := adjlist.NewEntity[floatRound](table, "double", "d#{round}", "s")
	singles := adjlist.NewEntity[float32Round](table, "single", "s#{round}", "s")
	for _, c := range []struct {
		name string
		put  func() error
	}{
		{"float64 9007199254740993", func() error { return doubles.Put(ctx, adjlist.IDs{"9007199254740993"}, floatRound{}) }},
		{"float64 12345678901234567891", func() error { return doubles.Replace(ctx, adjlist.IDs{"12345678901234567891"}, floatRound{}) }},
		{"float64 1.00000000000000000001", func() error { return doubles.Put(ctx, adjlist.IDs{"1.00000000000000000001"}, floatRound{}) }},
		{"float32 16777217", func() error { return singles.Put(ctx, adjlist.IDs{"16777217"}, float32Round{}) }},
		{"float32 0.100000001", func() error { return singles.Put(ctx, adjlist.IDs{"0.100000001"}, float32Round{}) }},
	} {
		var ke *adjlist.KeyError
		require.ErrorAs(t, c.put(), &ke, c.name)
		assert.ErrorIs(t, ke, adjlist.ErrInvalidKey, c.name)
	}
	assert.Zero(t, calls.total(), "refused before any request")

	db := ddbtest.Client(t)
	table = adjlist.NewTable(db, ddbtest.TableName(t), func(o *adjlist.Options) { o.NoIndex = true })
	ddbtest.CreateTable(t, table)
	doubles = adjlist.NewEntity[floatRound](table, "double", "d#{round}", "s")
	singles = adjlist.NewEntity[float32Round](table, "single", "s#{round}", "s")
	for _, id := range []string{"0.1", "9007199254740992", "-12.5"} {
		require.NoError(t, doubles.Put(ctx, adjlist.IDs{id}, floatRound{}), id)
		got, err := doubles.Get(ctx, adjlist.IDs{id})
		require.NoError(t, err, id)
		require.NoError(t, doubles.Replace(ctx, nil, got), id)
	}
	for _, id := range []string{"0.1", "16777216"} {
		require.NoError(t, singles.Put(ctx, adjlist.IDs{id}, float32Round{}), id)
		got, err := singles.Get(ctx, adjlist.IDs{id})
		require.NoError(t, err, id)
		require.NoError(t, singles.Replace(ctx, nil, got), id)
	}
	var keys []string
	_, err := adjlist.Scan(ctx, db, table, func(_ context.Context, v adjlist.TypedItem) error {
		keys = append(keys, v.Item["PK"].(*types.AttributeValueMemberS).Value)
		return nil
	})
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"d#0.1", "d#9007199254740992", "d#-12.5", "s#0.1", "s#16777216"}, keys, "Get then Replace wrote no other key")
	res, err := adjlist.Verify(ctx, db, table)
	require.NoError(t, err)
	assert.Empty(t, res.Findings)
}
