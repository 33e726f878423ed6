package readmecheck

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/attributevalue"
	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
)

// The tests of this file run the README's blocks of "Writes" and
// "Transactions and bulk writes".

// Options.EncoderOptions and DecoderOptions: a table of json-tagged
// types.
func TestReadmeEncoderOptions(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "school")
	client, ctx := l.client, t.Context()
	// readme:begin
	table := adjlist.NewTable(client, "school", func(o *adjlist.Options) {
		o.EncoderOptions = func(eo *attributevalue.EncoderOptions) { eo.TagKey = "json" }
		o.DecoderOptions = func(do *attributevalue.DecoderOptions) { do.TagKey = "json" }
	})
	// readme:end
	l.create(t, table)
	type Profile struct {
		DisplayName string `json:"displayName"`
	}
	profiles := adjlist.NewNode[Profile](table, "USER", "PROFILE")
	require.NoError(t, profiles.Put(ctx, "ada", Profile{DisplayName: "Ada"}))
	assert.Equal(t, "Ada", sAttr(l.rawItem(t, "school", "USER#ada", "PROFILE"), "displayName"))
	p, err := profiles.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, Profile{DisplayName: "Ada"}, p)
}

// Conditions: your condition ANDed after the guard; a failed guard is the
// guard's error, your condition failing is ErrConditionFailed with the
// stored item from the same response.
func TestReadmeConditions(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "blog")
	table := adjlist.NewTable(l.client, "blog")
	l.create(t, table)
	authors := adjlist.NewNode[User](table, "AUTHOR", "PROFILE")
	posts := adjlist.NewCollection[Post](authors, "POST")
	for _, tc := range []struct {
		name   string
		stored *Post // nil: no post
		want   error
	}{
		{"published", &Post{Title: "Hello", Status: "PUBLISHED", Likes: 3}, nil},
		{"no such post", nil, adjlist.ErrNotFound},
		{"a draft", &Post{Title: "Hello", Status: "DRAFT", Likes: 3}, adjlist.ErrConditionFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if err := posts.Delete(ctx, "ada", "p1"); err != nil {
				require.ErrorIs(t, err, adjlist.ErrNotFound)
			}
			if tc.stored != nil {
				require.NoError(t, posts.Put(ctx, "ada", "p1", *tc.stored))
			}
			// readme:begin
			published := expression.Name("status").Equal(expression.Value("PUBLISHED"))
			// UpdateItem PK = "AUTHOR#ada", SK = "POST#p1":
			// ConditionExpression "(attribute_exists (#0)) AND (#1 = :0)", #0 = PK, #1 = status, :0 = "PUBLISHED"
			post, err := posts.Update(ctx, "ada", "p1", adjlist.Set("likes", 7), adjlist.If(published))
			switch {
			case errors.Is(err, adjlist.ErrNotFound): // the guard: no such post
			case errors.Is(err, adjlist.ErrConditionFailed): // yours: the post is not published
				var ccf *types.ConditionalCheckFailedException
				errors.As(err, &ccf) // ccf.Item: the stored post, from the same response
			}
			// readme:end
			if tc.want == nil {
				require.NoError(t, err)
				assert.Equal(t, Post{Title: "Hello", Status: "PUBLISHED", Likes: 7}, post)
				return
			}
			require.ErrorIs(t, err, tc.want)
			assert.Equal(t, errors.Is(err, adjlist.ErrNotFound), tc.want == adjlist.ErrNotFound, "never both")
			if tc.stored != nil {
				var ccf *types.ConditionalCheckFailedException
				require.ErrorAs(t, err, &ccf)
				var stored Post
				require.NoError(t, attributevalue.UnmarshalMap(ccf.Item, &stored))
				assert.Equal(t, *tc.stored, stored)
			}
		})
	}
}

// Optimistic locking: creates write version 1, an update conditioned on
// the version read sets the next; a stale version is ErrVersionConflict.
func TestReadmeOptimisticLocking(t *testing.T) { require.NoError(t, readmeOptimisticLocking(t)) }

// readmeOptimisticLocking is TestReadmeOptimisticLocking's body: its README blocks return their errors.
func readmeOptimisticLocking(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "blog")
	table := adjlist.NewTable(l.client, "blog")
	l.create(t, table)
	ctx := t.Context()
	// readme:begin
	type Author struct {
		Name    string `dynamodbav:"name"`
		Posts   int    `dynamodbav:"posts"`
		Version int64  `dynamodbav:"version"` // reads expose the version here
	}
	authors := adjlist.NewNode[Author](table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) {
		o.Version = "version"
	})
	err := authors.Put(ctx, "ada", Author{Name: "Ada"}) // version 1
	if err != nil {
		return err
	}
	a, err := authors.Get(ctx, "ada") // a.Version == 1
	if err != nil {
		return err
	}
	// ConditionExpression "(attribute_exists (#0)) AND (#1 = :0)", #1 = version, :0 = 1; sets version = 2
	a, err = authors.Update(ctx, "ada", adjlist.Set("posts", a.Posts+1),
		adjlist.IfVersion(a.Version))
	if errors.Is(err, adjlist.ErrVersionConflict) { /* another writer was first: read again and retry */
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, Author{Name: "Ada", Posts: 1, Version: 2}, a)

	_, err = authors.Update(ctx, "ada", adjlist.Set("posts", 5), adjlist.IfVersion(1))
	require.ErrorIs(t, err, adjlist.ErrVersionConflict, "version 1 is stale")
	got, err := authors.Get(ctx, "ada")
	require.NoError(t, err)
	assert.Equal(t, a, got, "nothing changed")
	before := l.requests.Load()
	_, err = authors.Update(ctx, "ada", adjlist.Set("posts", 5))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "Update needs IfVersion")
	assert.Equal(t, before, l.requests.Load(), "before any request")
	return nil
}

// Time: an expiry (a Number of epoch seconds) and timestamps written with
// each put, Time to Live turned on with the table, and the filter that
// leaves expired items out.
func TestReadmeTime(t *testing.T) { require.NoError(t, readmeTime(t)) }

// readmeTime is TestReadmeTime's body: its README blocks return their errors.
func readmeTime(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	db, ctx := l.client, t.Context()
	table := adjlist.NewTable(db, "school")
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	now := time.Now()
	// readme:begin
	sessions := adjlist.NewCollection[Session](users, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour    // Number, epoch seconds: now + 24h on every put
		o.CreatedAt, o.UpdatedAt = "createdAt", "updatedAt" // "2026-11-23T04:05:06.789Z"
	})
	err := adjlist.CreateTable(ctx, db, table) // TTL on expiresAt, the sessions' Expiry: UpdateTimeToLive once ACTIVE
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	ttl, err := db.DescribeTimeToLive(ctx, &dynamodb.DescribeTimeToLiveInput{TableName: aws.String("school")})
	require.NoError(t, err)
	assert.Equal(t, "expiresAt", aws.ToString(ttl.TimeToLiveDescription.AttributeName))
	// readme:continue
	err = sessions.Put(ctx, "ada", "s1", Session{Device: "phone"}, adjlist.Expires(time.Now().Add(time.Hour))) // overrides Lifetime
	// filter (attribute_not_exists (#0)) OR (#0 > :0), #0 = expiresAt, :0 = now in epoch seconds
	expiresAt := expression.Name("expiresAt")
	live := sessions.List("ada").Filter(expression.AttributeNotExists(expiresAt).Or(expiresAt.GreaterThan(expression.Value(now.Unix()))))
	// readme:end
	require.NoError(t, err)
	epoch := func(item map[string]types.AttributeValue) int64 {
		n, ok := item["expiresAt"].(*types.AttributeValueMemberN)
		require.True(t, ok, "expiresAt is a Number")
		v, err := strconv.ParseInt(n.Value, 10, 64)
		require.NoError(t, err)
		return v
	}
	s1 := l.rawItem(t, "school", "USER#ada", "SESSION#s1")
	assert.InDelta(t, now.Add(time.Hour).Unix(), epoch(s1), 5, "Expires")
	stamp := regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)
	assert.Regexp(t, stamp, sAttr(s1, "createdAt"))
	assert.Regexp(t, stamp, sAttr(s1, "updatedAt"))

	require.NoError(t, sessions.Put(ctx, "ada", "s2", Session{Device: "laptop"}))
	assert.InDelta(t, now.Add(24*time.Hour).Unix(), epoch(l.rawItem(t, "school", "USER#ada", "SESSION#s2")), 5, "Lifetime")
	require.NoError(t, sessions.Put(ctx, "ada", "s3", Session{Device: "old"}, adjlist.Expires(now.Add(-time.Hour))))
	got, err := live.Collect(ctx)
	require.NoError(t, err)
	var devices []string
	for _, s := range got {
		devices = append(devices, s.Data.Device)
	}
	assert.Equal(t, []string{"phone", "laptop"}, devices, "s3 has expired: still stored, filtered out")
	_, err = sessions.Update(ctx, "ada", "s1", adjlist.Set("createdAt", "2020-01-01T00:00:00.000Z"))
	require.ErrorIs(t, err, adjlist.ErrInvalidOption, "updates may not name CreatedAt")
	return nil
}

// Transactions and bulk writes: an edge only if both nodes exist, a move,
// a transaction that fails whole, and a bulk load with progress.
func TestReadmeTransactions(t *testing.T) { require.NoError(t, readmeTransactions(t)) }

// readmeTransactions is TestReadmeTransactions's body: its README blocks return their errors.
func readmeTransactions(t *testing.T) error {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	ctx, students, enrolled := t.Context(), s.students, s.enrolled
	require.NoError(t, students.Put(ctx, "a91", Student{Name: "Ann"}))
	for _, c := range []string{"math204", "math205", "cs101"} {
		require.NoError(t, s.courses.Put(ctx, c, Course{Title: c}))
	}
	// A token DynamoDB has not seen in the last 10 minutes, from any table.
	e, requestID := Enrollment{EnrolledOn: "2026-09-01", Grade: "B"}, "req-"+strconv.FormatInt(time.Now().UnixNano(), 36)
	var edges []adjlist.EdgeItem[Enrollment]
	for i := range 30 {
		edges = append(edges, adjlist.EdgeItem[Enrollment]{From: "b30", To: "c" + strconv.Itoa(i), Data: e})
	}
	var progress [][2]int
	report := func(written, total int) { progress = append(progress, [2]int{written, total}) }
	exists := func(from, to string) bool {
		t.Helper()
		_, err := enrolled.Get(ctx, from, to, adjlist.Consistent)
		if errors.Is(err, adjlist.ErrNotFound) {
			return false
		}
		require.NoError(t, err)
		return true
	}
	// readme:begin
	// Referential integrity: the edge only if both nodes exist, atomically
	// (ConditionCheck on each node item + guarded Put, one TransactWriteItems).
	err := enrolled.Put(ctx, "a91", "math204", e, func(o *adjlist.WriteOptions) { o.CheckEnds, o.Token = true, requestID })
	var nf *adjlist.NodeNotFoundError
	if errors.As(err, &nf) {
		return fmt.Errorf("no %s node: %w", nf.Side, err) // nf.Side is "from" or "to"
	}
	// readme:end
	require.NoError(t, err)
	assert.True(t, exists("a91", "math204"))
	require.ErrorAs(t, enrolled.Put(ctx, "a91", "bio300", e, func(o *adjlist.WriteOptions) { o.CheckEnds = true }), &nf)
	assert.Equal(t, "to", nf.Side)
	assert.False(t, exists("a91", "bio300"))
	// readme:continue

	err = enrolled.Move(ctx, "a91", "math204", "a91", "math205", e) // delete + put, atomically
	if err != nil {
		return err
	}
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, []bool{false, true}, []bool{exists("a91", "math204"), exists("a91", "math205")})
	// readme:continue

	tx := adjlist.NewTx(table) // up to 100 actions, 4 MB, one action per item
	students.TxCheck(tx, "a91")
	enrolled.Put(ctx, "a91", "cs101", e, adjlist.InTx(tx)) // joins tx: no request
	enrolled.Delete(ctx, "a91", "math204", adjlist.InTx(tx))
	err = tx.Commit(ctx) // cancellation reasons → ErrExists, ErrNotFound, ErrTxConflict
	// readme:end
	require.ErrorIs(t, err, adjlist.ErrNotFound, "a91's math204 enrolment moved to math205 above")
	assert.False(t, exists("a91", "cs101"), "all or nothing")
	// readme:continue

	// Bulk: BatchWriteItem, 25 per request, bounded workers, unprocessed items
	// resent with backoff; anything left is listed, never dropped.
	res, err := enrolled.PutMany(ctx, edges, func(o *adjlist.BulkOptions) { o.Progress = report })
	// res.Written, res.Unwritten ([]adjlist.Key)
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, 30, res.Written)
	assert.Empty(t, res.Unwritten)
	require.NotEmpty(t, progress)
	assert.Equal(t, [2]int{30, 30}, progress[len(progress)-1])
	n, err := enrolled.From("b30").Count(ctx)
	require.NoError(t, err)
	assert.Equal(t, 30, n)
	return nil
}

// Two closes of one issue race: the loser's error matches
// ErrVersionConflict and ErrNotFound, and OpError.Failed tells them apart.
func TestReadmeLostRace(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	type Issue struct {
		Status  string `dynamodbav:"status"`
		Version int64  `dynamodbav:"version"`
	}
	ctx := t.Context()
	courses := newSchool(table).courses
	issues := adjlist.NewNode[Issue](table, "ISSUE", "META", func(o *adjlist.NodeOptions) { o.Version = "version" })
	openIssues := adjlist.NewEdge[struct{}](issues, "OPENIN", courses)
	adjlist.NewItemCounter(openIssues, "open", func(o *adjlist.CounterOptions) { o.Per = "to" })
	require.NoError(t, courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}))
	require.NoError(t, issues.Put(ctx, "i1", Issue{Status: "open"}))
	require.NoError(t, openIssues.Put(ctx, "i1", "math204", struct{}{}))
	issue, gerr := issues.Get(ctx, "i1")
	require.NoError(t, gerr)
	// The winner, which read the same version.
	win := adjlist.NewTx(table)
	issues.Update(ctx, "i1", adjlist.Set("status", "closed"), adjlist.IfVersion(issue.Version), adjlist.InTx(win))
	openIssues.Delete(ctx, "i1", "math204", adjlist.InTx(win))
	require.NoError(t, win.Commit(ctx))
	var branch string
	var logged []string
	log := struct{ Printf func(string, ...any) }{func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }}
	// readme:begin
	tx := adjlist.NewTx(table)
	issues.Update(ctx, "i1", adjlist.Set("status", "closed"), adjlist.IfVersion(issue.Version), adjlist.InTx(tx))
	openIssues.Delete(ctx, "i1", "math204", adjlist.InTx(tx))
	err := tx.Commit(ctx)
	switch {
	case errors.Is(err, adjlist.ErrVersionConflict):
		// Lost the race: the issue changed since it was read (ErrNotFound holds
		// too, for the edge the winner deleted). Read it again, then answer.
		// readme:end
		branch = "conflict"
		// readme:continue
	case errors.Is(err, adjlist.ErrNotFound):
		// The issue was current but its edge was missing.
		// readme:end
		branch = "not found"
		// readme:continue
	case errors.Is(err, adjlist.ErrOutcomeUnknown):
		// No answer from DynamoDB: Commit again with the same TxOptions.Token.
		// readme:end
		branch = "unknown"
		// readme:continue
	}
	var oe *adjlist.OpError
	if errors.As(err, &oe) {
		for _, a := range oe.Failed { // "Node.Update" ErrVersionConflict, "Edge.Delete" ErrNotFound
			log.Printf("%s %s %s: %v", a.Op, a.PK, a.SK, a.Err)
		}
	}
	// readme:end
	assert.Equal(t, "conflict", branch)
	require.ErrorIs(t, err, adjlist.ErrNotFound, "both hold")
	require.Len(t, oe.Failed, 2)
	assert.Equal(t, "Node.Update", oe.Failed[0].Op)
	assert.Equal(t, "ISSUE#i1", oe.Failed[0].PK)
	assert.ErrorIs(t, oe.Failed[0].Err, adjlist.ErrVersionConflict)
	assert.Equal(t, "Edge.Delete", oe.Failed[1].Op)
	assert.ErrorIs(t, oe.Failed[1].Err, adjlist.ErrNotFound)
	assert.Len(t, logged, 2)
}

// A transactional read: a course and its enrolment count as they stood at
// one moment, one TransactGetItems.
func TestReadmeReadTx(t *testing.T) {
	t.Parallel()
	l := newLocal(t, "school")
	table := adjlist.NewTable(l.client, "school")
	l.create(t, table)
	s := newSchool(table)
	ctx, courses := t.Context(), s.courses
	counts := adjlist.NewNode[adjlist.Count](table, "CRS", "ENROLLED")
	adjlist.NewItemCounter(s.enrolled, "ENROLLED", func(o *adjlist.CounterOptions) { o.Per = "to" })
	require.NoError(t, courses.Put(ctx, "math204", Course{Title: "Linear Algebra"}))
	for _, from := range []string{"a91", "b30"} {
		require.NoError(t, s.enrolled.Put(ctx, from, "math204", Enrollment{}))
	}
	before := l.requests.Load()
	// readme:begin
	rt := adjlist.NewReadTx(table)
	course := courses.TxGet(rt, "math204") // *adjlist.Read[Course]
	count := counts.TxGet(rt, "math204")   // *adjlist.Read[adjlist.Count]
	err := rt.Run(ctx)                     // one TransactGetItems
	// course.Found, course.Data; count.Data.Count
	// readme:end
	require.NoError(t, err)
	assert.Equal(t, int64(1), l.requests.Load()-before, "one TransactGetItems")
	assert.Equal(t, &adjlist.Read[Course]{Found: true, Data: Course{Title: "Linear Algebra"}}, course)
	assert.True(t, count.Found)
	assert.Equal(t, int64(2), count.Data.Count)
}
