package adjlist_test

// Regression tests for the broken promises of issue 10, each named in
// RELIABILITY.md. Every one failed before its fix.

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
)

type Person struct {
	Name string `dynamodbav:"name"`
}

// TestSelfKeyedNodeEdgeCollision: an unlabelled edge between self-keyed
// nodes of one type would share the node items' primary keys (PK = SK =
// "USER#u1" for the self-loop u1 → u1), and a child type equal to a
// self-keyed parent's type the same; both are refused when declared, with
// ErrInvalidOption on every call and no request.
func TestSelfKeyedNodeEdgeCollision(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	users := adjlist.NewNode[Person](s.table, "USER", "")
	require.NoError(t, users.Put(ctx, "u1", Person{Name: "Ann"}))
	before := s.calls.total()

	friends := adjlist.NewEdge[struct{}](users, "", users)
	_, err := friends.Get(ctx, "u1", "u1")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	require.ErrorIs(t, friends.Put(ctx, "u1", "u1", struct{}{}), adjlist.ErrInvalidOption)
	_, err = friends.From("u1").Collect(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	_, err = friends.From("u1").Count(ctx)
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)

	clones := adjlist.NewCollection[Person](users, "USER")
	_, err = clones.Get(ctx, "u1", "u1")
	require.ErrorIs(t, err, adjlist.ErrInvalidOption)
	assert.Equal(t, before, s.calls.total(), "no request")

	// A labelled edge, or one to another type, has keys of its own.
	for _, e := range []*adjlist.Edge[struct{}]{
		adjlist.NewEdge[struct{}](users, "FRIEND", users),
		adjlist.NewEdge[struct{}](users, "", s.students),
	} {
		_, err := e.Get(ctx, "u1", "u1")
		require.ErrorIs(t, err, adjlist.ErrNotFound)
		require.NoError(t, e.Put(ctx, "u1", "u1", struct{}{}))
		n, err := e.From("u1").Count(ctx)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the node item is not an edge")
	}
}

// TestSortKeyIndexKeyLimits: with the index keyed on the table's sort key,
// every item's partition key is also an index sort key (at most 1024
// bytes), so a longer node, child or edge source key is ErrInvalidKey
// before any request, not a ValidationException.
func TestSortKeyIndexKeyLimits(t *testing.T) {
	t.Parallel()
	s := newSchoolLayout(t, adjlist.Options{IndexPartitionKey: "SK", IndexSortKey: "PK"}, "ENROLL")
	ctx := context.Background()
	long := strings.Repeat("x", 1500) // "STU#" + 1500 bytes: under 2048, over 1024
	projects := adjlist.NewCollection[Project](adjlist.NewNode[Workspace](s.table, "WS", "META"), "PROJ")
	before := s.calls.total()
	tests := map[string]error{
		"Node.Put":       s.students.Put(ctx, long, Student{}),
		"Collection.Put": projects.Put(ctx, long, "p1", Project{}),
		"Edge.Put":       s.enrolled.Put(ctx, long, "cs101", Enrollment{}),
	}
	for name, err := range tests {
		assert.ErrorIs(t, err, adjlist.ErrInvalidKey, name)
	}
	assert.Equal(t, before, s.calls.total(), "no request")

	// A 1024-byte key fits; on the default layout 2048 bytes do.
	fits := strings.Repeat("x", 1024-len("STU#"))
	require.NoError(t, s.students.Put(ctx, fits, Student{Name: "Fits"}))
	d := newSchool(t)
	require.NoError(t, d.students.Put(ctx, long, Student{Name: "Long"}))
}

// TestGetZeroOnError: a read that fails returns the zero value, never the
// part decoded before the bad attribute.
func TestGetZeroOnError(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	_, err := s.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: map[string]types.AttributeValue{
		"PK":    &types.AttributeValueMemberS{Value: "STU#c77"},
		"SK":    &types.AttributeValueMemberS{Value: "PROFILE"},
		"name":  &types.AttributeValueMemberS{Value: "Cy"},
		"major": &types.AttributeValueMemberS{Value: "Bio"},
		"year":  &types.AttributeValueMemberS{Value: "second"}, // an int in Student
	}})
	require.NoError(t, err)
	got, err := s.students.Get(ctx, "c77")
	require.Error(t, err)
	assert.Zero(t, got)
	many, err := s.students.GetMany(ctx, []string{"c77"})
	require.Error(t, err)
	assert.Empty(t, many)
	loaded, err := adjlist.LoadNode(ctx, s.students, s.enrolled, "c77")
	require.Error(t, err)
	assert.Zero(t, loaded.Node)
}

// TestPutCheckedSelfLoop: PutChecked of a self-loop checks its one node
// item once: it succeeds when the node exists and reports the missing node
// (Side "from") when it does not, never ErrTxLimit.
func TestPutCheckedSelfLoop(t *testing.T) {
	t.Parallel()
	db := ddbtest.Client(t)
	table := adjlist.NewTable(db, ddbtest.TableName(t))
	ctx := context.Background()
	require.NoError(t, adjlist.CreateTable(ctx, db, table))
	dropOnCleanup(t, db, table.Name())
	users := adjlist.NewNode[Person](table, "USER", "PROFILE")
	follows := adjlist.NewEdge[struct{}](users, "FOLLOWS", users)

	err := follows.Put(ctx, "u1", "u1", struct{}{}, checkEnds)
	var nf *adjlist.NodeNotFoundError
	require.ErrorAs(t, err, &nf)
	assert.Equal(t, "from", nf.Side)
	assert.NotErrorIs(t, err, adjlist.ErrTxLimit)

	require.NoError(t, users.Put(ctx, "u1", Person{Name: "Ann"}))
	require.NoError(t, follows.Put(ctx, "u1", "u1", struct{}{}, checkEnds))
	require.ErrorIs(t, follows.Put(ctx, "u1", "u1", struct{}{}, checkEnds), adjlist.ErrExists)

	// Two different actions on one item are still refused.
	tx := adjlist.NewTx(table)
	users.TxCheck(tx, "u1")
	users.Put(ctx, "u1", Person{}, adjlist.InTx(tx))
	require.ErrorIs(t, tx.Commit(ctx), adjlist.ErrTxLimit)
}

// putRaw writes an item as another program would, bypassing the library.
func putRaw(t *testing.T, s *school, attrs map[string]string) {
	t.Helper()
	item := make(map[string]types.AttributeValue, len(attrs))
	for k, v := range attrs {
		item[k] = &types.AttributeValueMemberS{Value: v}
	}
	_, err := s.db.PutItem(context.Background(), &dynamodb.PutItemInput{TableName: aws.String(s.table.Name()), Item: item})
	require.NoError(t, err)
}

// TestCountAgreesWithAll: items in a partition whose keys the codec cannot
// have built (written by another program) are skipped by All and not
// counted by Count, forward, reverse, sharded and in item collections.
func TestCountAgreesWithAll(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	sharded := adjlist.NewEdge[Enrollment](s.students, "AUDIT", s.courses, func(o *adjlist.EdgeOptions) { o.Shards = 3 })
	require.NoError(t, s.enrolled.Put(ctx, "a91", "cs101", Enrollment{Grade: "A"}))
	require.NoError(t, s.enrolled.Put(ctx, "b30", "cs101", Enrollment{Grade: "B"}))
	require.NoError(t, sharded.Put(ctx, "a91", "cs101", Enrollment{}))
	for _, sk := range []string{"ENROLL#CRS#bad%zz", "ENROLL#CRS#a#b", "ENROLL#CRS#", "AUDIT#CRS#bad%zz"} {
		putRaw(t, s, map[string]string{"PK": "STU#a91", "SK": sk})
	}
	// Foreign items in the index partition of cs101: a source key the
	// codec cannot have built, and (for the sharded edge) no shard suffix.
	putRaw(t, s, map[string]string{"PK": "STU#x%zz", "SK": "ENROLL#CRS#cs101", "GSI1PK": "CRS#cs101", "GSI1SK": "STU#x%zz"})
	putRaw(t, s, map[string]string{"PK": "STU#c7", "SK": "AUDIT#CRS#cs101", "GSI1PK": "CRS#cs101", "GSI1SK": "STU#c7"})

	tenancy := newTenancy(t)
	require.NoError(t, tenancy.workspaces.Put(ctx, "acme", Workspace{DisplayName: "Acme"}))
	require.NoError(t, tenancy.projects.Put(ctx, "acme", "p1", Project{Title: "One"}))
	for _, sk := range []string{"PROJ#bad%zz", "PROJ#a#b", "PROJ#"} {
		_, err := tenancy.db.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String(tenancy.table.Name()), Item: map[string]types.AttributeValue{
			"EntityRef": &types.AttributeValueMemberS{Value: "WS#acme"},
			"Detail":    &types.AttributeValueMemberS{Value: sk},
		}})
		require.NoError(t, err)
	}

	tests := []struct {
		name string
		q    func(*testing.T) (all, counted int)
		want int
	}{
		{"From", allAndCount(ctx, s.enrolled.From("a91")), 1},
		{"From, sharded", allAndCount(ctx, sharded.From("a91")), 1},
		{"To", allAndCount(ctx, s.enrolled.To("cs101")), 2},
		{"To, sharded", allAndCount(ctx, sharded.To("cs101")), 1},
		{"To, page limit", allAndCount(ctx, s.enrolled.To("cs101").Limit(1)), 2},
		{"Collection.List", allAndCount(ctx, tenancy.projects.List("acme")), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			all, n := tc.q(t)
			assert.Equal(t, tc.want, all)
			assert.Equal(t, all, n)
		})
	}
}

// allAndCount runs q with Collect and with Count.
func allAndCount[T any](ctx context.Context, q adjlist.Query[T]) func(*testing.T) (all, counted int) {
	return func(t *testing.T) (int, int) {
		items, err := q.Collect(ctx)
		require.NoError(t, err)
		n, err := q.Count(ctx)
		require.NoError(t, err)
		return len(items), n
	}
}

// TestReverseReadSkipsMismatchedIndexKeys: an item whose index keys do not
// follow from its table keys (GSI1PK = "CRS#math204" on an edge to cs101,
// written by another program) is skipped as foreign by every read, never
// yielded by To("math204") as an edge to cs101.
func TestReverseReadSkipsMismatchedIndexKeys(t *testing.T) {
	t.Parallel()
	s := newSchool(t)
	ctx := context.Background()
	require.NoError(t, s.enrolled.Put(ctx, "a91", "math204", Enrollment{Grade: "A"}))
	putRaw(t, s, map[string]string{"PK": "STU#b30", "SK": "ENROLL#CRS#cs101", "GSI1PK": "CRS#math204", "GSI1SK": "STU#b30", "grade": "F"})
	putRaw(t, s, map[string]string{"PK": "STU#c7", "SK": "ENROLL#CRS#math204", "GSI1PK": "CRS#math204", "GSI1SK": "STU#a91"})

	into, err := s.enrolled.To("math204").Collect(ctx)
	require.NoError(t, err)
	require.Len(t, into, 1)
	assert.Equal(t, adjlist.EdgeItem[Enrollment]{From: "a91", To: "math204", Data: Enrollment{Grade: "A"}}, into[0])
	n, err := s.enrolled.To("math204").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	for _, from := range []string{"b30", "c7"} {
		out, err := s.enrolled.From(from).Collect(ctx)
		require.NoError(t, err)
		assert.Empty(t, out, "from %s", from)
	}
}

// TestCursorBindsTheWholeQuery: a cursor resumes only the query that issued
// it; another label's read of the same index partition, another item type
// over the same keys or another direction refuse it, signed or not, before
// any request.
func TestCursorBindsTheWholeQuery(t *testing.T) {
	t.Parallel()
	for _, signed := range []bool{false, true} {
		t.Run(map[bool]string{false: "unsigned", true: "signed"}[signed], func(t *testing.T) {
			var layout adjlist.Options
			if signed {
				layout.CursorKey = []byte("0123456789abcdef0123456789abcdef")
			}
			s := newSchoolLayout(t, layout, "ENROLL")
			ctx := context.Background()
			teaches := adjlist.NewEdge[Enrollment](s.students, "TEACH", s.courses)
			for _, id := range []string{"s1", "s2", "s3"} {
				require.NoError(t, s.enrolled.Put(ctx, id, "c0", Enrollment{}))
				require.NoError(t, teaches.Put(ctx, id, "c0", Enrollment{}))
			}
			first, err := s.enrolled.To("c0").Limit(1).Page(ctx, "")
			require.NoError(t, err)
			require.NotEmpty(t, first.Cursor)
			fwd, err := s.enrolled.From("s1").Limit(1).Page(ctx, "")
			require.NoError(t, err)

			before := s.calls.total()
			_, err = teaches.To("c0").Limit(1).Page(ctx, first.Cursor)
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "another label")
			_, err = s.enrolled.To("c0").Limit(1).Desc().Page(ctx, first.Cursor)
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "another direction")
			_, err = teaches.From("s1").Page(ctx, fwd.Cursor)
			require.ErrorIs(t, err, adjlist.ErrInvalidCursor, "another label, forward")
			assert.Equal(t, before, s.calls.total(), "no request")

			// The issuing query accepts it, whatever the page size, and
			// resumes where the first page ended. (Limit counts the TEACH
			// items the filter drops, so the first page may be empty.)
			next, err := s.enrolled.To("c0").Limit(10).Page(ctx, first.Cursor)
			require.NoError(t, err)
			var sources []string
			for _, e := range append(first.Items, next.Items...) {
				sources = append(sources, e.From)
			}
			assert.Equal(t, []string{"s1", "s2", "s3"}, sources)
		})
	}
}

// TestSignedCursorsAreCanonical: only the string issued opens; other
// spellings Go's lenient base64 decoder maps to the same bytes (other
// unused low bits in the final character, inserted '\n' or '\r') are
// refused.
func TestSignedCursorsAreCanonical(t *testing.T) {
	t.Parallel()
	s := newSchoolLayout(t, adjlist.Options{CursorKey: []byte("0123456789abcdef0123456789abcdef")}, "ENROLL")
	manyEdges(t, s, 4)
	ctx := context.Background()
	q := s.enrolled.From("a91").Limit(1)
	first, err := q.Page(ctx, "")
	require.NoError(t, err)
	payload, sig, ok := strings.Cut(first.Cursor, ".")
	require.True(t, ok)

	// sameBytes lists the other last characters with which part still
	// decodes, leniently, to the same bytes.
	sameBytes := func(part string) []string {
		want, err := base64.RawURLEncoding.DecodeString(part)
		require.NoError(t, err)
		var out []string
		for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
			alt := part[:len(part)-1] + string(c)
			if got, err := base64.RawURLEncoding.DecodeString(alt); alt != part && err == nil && bytes.Equal(got, want) {
				out = append(out, alt)
			}
		}
		return out
	}
	variants := []string{
		payload[:4] + "\n" + payload[4:] + "." + sig,
		payload + "." + sig[:4] + "\r" + sig[4:],
		payload + "\r\n." + sig,
	}
	for _, alt := range sameBytes(sig) { // 32 bytes: 43 characters, 2 spare bits
		variants = append(variants, payload+"."+alt)
	}
	for _, alt := range sameBytes(payload) {
		variants = append(variants, alt+"."+sig)
	}
	require.Greater(t, len(variants), 5)
	for _, v := range variants {
		_, err := q.Page(ctx, v)
		assert.ErrorIs(t, err, adjlist.ErrInvalidCursor, "%q", v)
	}
	_, err = q.Page(ctx, first.Cursor)
	require.NoError(t, err)
}

// crcRecorder notes whether an error response came without the
// x-amz-crc32 header, the only case in which the SDK's response checksum
// validation warns (aws-sdk-go-v2#3545): DynamoDB Local omits it, real
// DynamoDB and other emulators may not.
type crcRecorder struct {
	base       http.RoundTripper
	mu         sync.Mutex
	missingCRC bool
}

func (r *crcRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := r.base.RoundTrip(req)
	if err == nil && resp.StatusCode >= 400 && resp.Header.Get("X-Amz-Crc32") == "" {
		r.mu.Lock()
		r.missingCRC = true
		r.mu.Unlock()
	}
	return resp, err
}

// TestReadmeLocalClientPrintsNoWarnings: the README's client for DynamoDB
// Local logs nothing on a failed condition check, where a client with the
// SDK's response checksum validation logs a warning (aws-sdk-go-v2#3545)
// when, and only when, the error response lacks its x-amz-crc32 header.
func TestReadmeLocalClientPrintsNoWarnings(t *testing.T) {
	t.Parallel()
	shared := ddbtest.Client(t)
	endpoint := aws.ToString(shared.Options().BaseEndpoint)
	require.NotEmpty(t, endpoint)
	ctx := context.Background()
	name := ddbtest.TableName(t)
	require.NoError(t, adjlist.CreateTable(ctx, shared, adjlist.NewTable(shared, name)))
	dropOnCleanup(t, shared, name)

	failedDelete := func(validate bool) (logged []string, missingCRC bool) {
		logger := logging.LoggerFunc(func(c logging.Classification, format string, v ...any) {
			logged = append(logged, string(c)+" "+fmt.Sprintf(format, v...))
		})
		rec := &crcRecorder{base: http.DefaultTransport}
		// The README's plain-SDK client, on a config with a logger.
		db := dynamodb.NewFromConfig(aws.Config{Logger: logger}, func(o *dynamodb.Options) {
			o.BaseEndpoint = aws.String(endpoint)
			o.Region = "us-east-1"
			o.Credentials = credentials.NewStaticCredentialsProvider("local", "local", "")
			o.DisableValidateResponseChecksum = !validate // aws/aws-sdk-go-v2#3545
			o.HTTPClient = &http.Client{Transport: rec}
		})
		users := adjlist.NewNode[Person](adjlist.NewTable(db, name), "USER", "PROFILE")
		require.ErrorIs(t, users.Delete(ctx, "missing"), adjlist.ErrNotFound)
		return logged, rec.missingCRC
	}
	logged, _ := failedDelete(false)
	assert.Empty(t, logged, "the README's client")
	logged, missingCRC := failedDelete(true)
	if missingCRC {
		assert.NotEmpty(t, logged, "with checksum validation, the SDK warns on an error response without x-amz-crc32")
	} else {
		assert.Empty(t, logged, "an error response with x-amz-crc32 validates without a warning")
	}
}
