package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// item is one row of the seed's table: its two key attributes and the
// names of its other attributes. Nothing else: the table has no index.
func item(pk, sk string, attrs ...string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": pk, "SK": sk}, attrs...)
}

var (
	infoAttrs  = []string{"name", "content", "imageUrl"}
	countAttrs = []string{"follower#", "following#", "post#"}
	postAttrs  = []string{"content", "imageUrl", "timestamp"}
)

// seedTable is what every run leaves: the guide's item types with the
// sample model's ids, spelled as the design spells them.
var seedTable = exampletest.Seed{
	KeyAttrs: []string{"PK", "SK"},
	Items: []exampleutil.Shape{
		// Seven users, each an info and a count item.
		item("u#12345", "info", infoAttrs...), item("u#12345", "count", countAttrs...),
		item("u#23456", "info", infoAttrs...), item("u#23456", "count", countAttrs...),
		item("u#34567", "info", infoAttrs...), item("u#34567", "count", countAttrs...),
		item("u#45678", "info", infoAttrs...), item("u#45678", "count", countAttrs...),
		item("u#56789", "info", infoAttrs...), item("u#56789", "count", countAttrs...),
		item("u#67890", "info", infoAttrs...), item("u#67890", "count", countAttrs...),
		item("u#78901", "info", infoAttrs...), item("u#78901", "count", countAttrs...),
		// 23456, 34567 and 45678 follow 12345: two items per follow.
		item("u#12345#follower", "u#23456"), item("u#23456#following", "u#12345"),
		item("u#12345#follower", "u#34567"), item("u#34567#following", "u#12345"),
		item("u#12345#follower", "u#45678"), item("u#45678#following", "u#12345"),
		// 12345 follows 56789, 67890 and 78901.
		item("u#12345#following", "u#56789"), item("u#56789#follower", "u#12345"),
		item("u#12345#following", "u#67890"), item("u#67890#follower", "u#12345"),
		item("u#12345#following", "u#78901"), item("u#78901#follower", "u#12345"),
		// Five posts, each with its like count.
		item("u#12345#post", "p#12345", postAttrs...), item("p#12345#likecount", "count", "like#"),
		item("u#12345#post", "p#23456", postAttrs...), item("p#23456#likecount", "count", "like#"),
		item("u#56789#post", "p#34567", postAttrs...), item("p#34567#likecount", "count", "like#"),
		item("u#67890#post", "p#45678", postAttrs...), item("p#45678#likecount", "count", "like#"),
		item("u#78901#post", "p#56789", postAttrs...), item("p#56789#likecount", "count", "like#"),
		// The fan-out: 12345's posts on its three followers' timelines,
		// the posts of those 12345 follows on 12345's.
		item("u#23456#timeline", "p#12345#u#12345", "ttl"), item("u#23456#timeline", "p#23456#u#12345", "ttl"),
		item("u#34567#timeline", "p#12345#u#12345", "ttl"), item("u#34567#timeline", "p#23456#u#12345", "ttl"),
		item("u#45678#timeline", "p#12345#u#12345", "ttl"), item("u#45678#timeline", "p#23456#u#12345", "ttl"),
		item("u#12345#timeline", "p#34567#u#56789", "ttl"),
		item("u#12345#timeline", "p#45678#u#67890", "ttl"),
		item("u#12345#timeline", "p#56789#u#78901", "ttl"),
		// Three likes of post 12345.
		item("p#12345#likelist", "u#23456"), item("p#12345#likelist", "u#34567"), item("p#12345#likelist", "u#45678"),
	},
}

// accessPatterns is what every run prints for the guide's reads: the same
// on a rerun, which counts nothing twice.
const accessPatterns = "the access patterns, one request each:\n" +
	"getUserInfoByUserID 12345:  [1 request]\n" +
	"  hyuklee (My name is Hyuk Lee, s3://images/u12345.jpg)\n" +
	"  3 followers, 3 following, 2 posts\n" +
	"getFollowerListByUserID 12345: 23456 34567 45678  [1 request]\n" +
	"getFollowingListByUserID 12345: 56789 67890 78901  [1 request]\n" +
	"getPostListByUserID 12345, newest first:  [1 request]\n" +
	"  23456  content for another post\n" +
	"  12345  content for a post\n" +
	"getUserLikesByPostID 12345: 23456 34567 45678  [1 request]\n" +
	"getLikeCountByPostID 12345: 3  [1 request]\n" +
	"getTimelineByUserID 12345, newest first:  [1 request]\n" +
	"  post 56789 by 78901\n" +
	"  post 45678 by 67890\n" +
	"  post 34567 by 56789\n" +
	"\n" +
	"the timeline's posts (one Query of the timeline, one BatchGetItem of its posts):\n" +
	"getTimelinePosts 12345, newest first:  [2 requests]\n" +
	"  56789 by 78901  fay's post\n" +
	"  45678 by 67890  eli's post\n" +
	"  34567 by 56789  dee's post\n" +
	"\n"

// timelineItems are the seed's timeline entries: user, post, author.
var timelineItems = []adjlist.IDs{
	{"23456", "12345", "12345"}, {"23456", "23456", "12345"},
	{"34567", "12345", "12345"}, {"34567", "23456", "12345"},
	{"45678", "12345", "12345"}, {"45678", "23456", "12345"},
	{"12345", "34567", "56789"}, {"12345", "45678", "67890"}, {"12345", "56789", "78901"},
}

func TestRunWritesSeedTable(t *testing.T) {
	var outs []string
	db, table := exampletest.RunTwice(t, example, seedTable, func(run int, out string) {
		outs = append(outs, out)
		exampletest.ContainsAll(t, out, accessPatterns,
			"u#12345           |count           |follower#=3, following#=3, post#=2\n",
			"p#12345#likecount |count           |like#=3\n",
		)
		if run == 0 {
			exampletest.ContainsAll(t, out,
				"  12345 hyuklee  [1 request]\n",
				"  23456 follows 12345  [1 request]\n",
				"  12345 follows 78901  [1 request]\n",
				// The fan-out: a transaction, a Query, one BatchWriteItem
				// for up to 25 followers.
				"  12345 posts 12345 to 3 timelines  [3 requests]\n",
				"  12345 posts 23456 to 3 timelines  [3 requests]\n",
				"  56789 posts 34567 to 1 timeline  [3 requests]\n",
				"  78901 posts 56789 to 1 timeline  [3 requests]\n",
				"  45678 likes 12345  [1 request]\n",
			)
			assert.NotContains(t, out, "already")
		} else {
			// Every write finds its items: reported, nothing counted twice
			// (the access patterns above print the same counts).
			exampletest.ContainsAll(t, out,
				"  12345: already signed up\n",
				"  23456 already follows 12345\n",
				"  12345 already follows 78901\n",
				"  12345 already posted 12345 (no fan-out)\n",
				"  78901 already posted 56789 (no fan-out)\n",
				"  45678 already likes 12345\n",
			)
			assert.NotContains(t, out, "timelines  [")
		}
	})

	// Keyed on PK/SK, no index; Time to Live on the timeline's ttl.
	desc := exampletest.DescribeTable(t, db, table)
	assert.Equal(t, exampletest.KeySchema("PK", "SK"), desc.KeySchema)
	assert.Empty(t, desc.GlobalSecondaryIndexes)
	assert.Empty(t, desc.LocalSecondaryIndexes)
	ttl, err := db.DescribeTimeToLive(context.Background(), &dynamodb.DescribeTimeToLiveInput{TableName: aws.String(table)})
	require.NoError(t, err)
	assert.Equal(t, "ttl", aws.ToString(ttl.TimeToLiveDescription.AttributeName))
	assert.Equal(t, types.TimeToLiveStatusEnabled, ttl.TimeToLiveDescription.TimeToLiveStatus)

	// The printed table shows each entry's ttl as stored: the epoch
	// seconds of its post's timestamp plus timelineRetention, digit for
	// digit (not 1.798095538e+09), on both runs.
	m := newModel(db, table)
	for _, ids := range timelineItems {
		p, err := m.posts.Get(context.Background(), adjlist.IDs{ids[2], ids[1]})
		require.NoError(t, err)
		posted, err := strconv.ParseInt(p.Timestamp, 10, 64)
		require.NoError(t, err)
		line := fmt.Sprintf("%-18s|%-16s|ttl=%d\n", "u#"+ids[0]+"#timeline", "p#"+ids[1]+"#u#"+ids[2], posted+30*24*3600)
		for run, out := range outs {
			assert.Contains(t, out, line, "run %d", run)
		}
	}
}

// newRecorded returns a model of a fresh table whose requests rec
// records, and the table's name.
func newRecorded(t *testing.T) (model, *exampletest.Recorder, string) {
	t.Helper()
	db := ddbtest.Client(t)
	table := ddbtest.TableName(t)
	t.Cleanup(func() { require.NoError(t, exampleutil.DeleteTable(context.Background(), db, table)) })
	rec := exampletest.NewRecorder(db)
	return newModel(rec, table), rec, table
}

// TestAccessPatterns: each of the guide's reads on the run's table is one
// call, one request with the key condition the guide gives, and exactly
// the items the run wrote.
func TestAccessPatterns(t *testing.T) {
	ctx := context.Background()
	m, rec, table := newRecorded(t)
	require.NoError(t, example.Run(ctx, rec, table, false, new(strings.Builder)))
	rec.Take()

	info, counts, err := getUserInfoByUserID(ctx, m, "12345")
	require.NoError(t, err)
	assert.Equal(t, UserInfo{Name: "hyuklee", Content: "My name is Hyuk Lee", ImageURL: "s3://images/u12345.jpg"}, info)
	assert.Equal(t, UserCounts{Followers: 3, Following: 3, Posts: 2}, counts)
	assert.Equal(t, []string{`Query PK = "u#12345"`}, rec.Take(), "the info and count items in one Query, no sort key condition")

	_, _, err = getUserInfoByUserID(ctx, m, "99999")
	assert.ErrorIs(t, err, adjlist.ErrNotFound)
	assert.Equal(t, []string{`Query PK = "u#99999"`}, rec.Take())

	ids, err := getFollowerListByUserID(ctx, m, "12345")
	require.NoError(t, err)
	assert.Equal(t, []string{"23456", "34567", "45678"}, ids)
	assert.Equal(t, []string{`Query (PK = "u#12345#follower") AND (begins_with (SK, "u#"))`}, rec.Take())

	ids, err = getFollowingListByUserID(ctx, m, "12345")
	require.NoError(t, err)
	assert.Equal(t, []string{"56789", "67890", "78901"}, ids)
	assert.Equal(t, []string{`Query (PK = "u#12345#following") AND (begins_with (SK, "u#"))`}, rec.Take())

	ps, err := getPostListByUserID(ctx, m, "12345")
	require.NoError(t, err)
	require.Len(t, ps, 2)
	assert.Equal(t, adjlist.IDs{"12345", "23456"}, ps[0].IDs, "newest first")
	assert.Equal(t, adjlist.IDs{"12345", "12345"}, ps[1].IDs)
	assert.Equal(t, "content for another post", ps[0].Data.Content)
	assert.Equal(t, "s3://images/p23456.jpg", ps[0].Data.ImageURL)
	assert.Equal(t, "content for a post", ps[1].Data.Content)
	assert.Equal(t, []string{`Query (PK = "u#12345#post") AND (begins_with (SK, "p#")) DESC`}, rec.Take())

	ids, err = getUserLikesByPostID(ctx, m, "12345")
	require.NoError(t, err)
	assert.Equal(t, []string{"23456", "34567", "45678"}, ids)
	assert.Equal(t, []string{`Query (PK = "p#12345#likelist") AND (begins_with (SK, "u#"))`}, rec.Take())

	n, err := getLikeCountByPostID(ctx, m, "12345")
	require.NoError(t, err)
	assert.Equal(t, 3, n)
	assert.Equal(t, []string{`GetItem PK="p#12345#likecount" SK="count"`}, rec.Take())

	entries, err := getTimelineByUserID(ctx, m, "12345")
	require.NoError(t, err)
	var got []adjlist.IDs
	for _, e := range entries {
		got = append(got, e.IDs)
	}
	assert.Equal(t, []adjlist.IDs{{"12345", "56789", "78901"}, {"12345", "45678", "67890"}, {"12345", "34567", "56789"}}, got,
		"user, post, author; newest post first")
	assert.Equal(t, []string{`Query (PK = "u#12345#timeline") AND (begins_with (SK, "p#")) DESC`}, rec.Take())

	// Each entry expires timelineRetention after its post.
	for _, e := range entries {
		p, err := m.posts.Get(ctx, adjlist.IDs{e.IDs[2], e.IDs[1]})
		require.NoError(t, err)
		posted, err := strconv.ParseInt(p.Timestamp, 10, 64)
		require.NoError(t, err)
		assert.Equal(t, posted+int64(timelineRetention/time.Second), e.Data.TTL, "post %s", e.IDs[1])
	}
	rec.Take()

	// The timeline's posts: one Query of the entries, one BatchGetItem of
	// the posts they point at, across three authors' partitions, in the
	// timeline's order; each exactly as stored.
	page, err := getTimelinePosts(ctx, m, "12345", "")
	require.NoError(t, err)
	assert.Equal(t, []string{
		`Query (PK = "u#12345#timeline") AND (begins_with (SK, "p#")) DESC LIMIT 20`,
		`BatchGetItem [PK="u#78901#post" SK="p#56789"] [PK="u#67890#post" SK="p#45678"] [PK="u#56789#post" SK="p#34567"]`,
	}, rec.Take())
	var want []adjlist.EntityItem[Post]
	for _, ids := range []adjlist.IDs{{"78901", "56789"}, {"67890", "45678"}, {"56789", "34567"}} {
		p, err := m.posts.Get(ctx, ids)
		require.NoError(t, err)
		want = append(want, adjlist.EntityItem[Post]{IDs: ids, Data: p})
	}
	assert.Equal(t, adjlist.Page[adjlist.EntityItem[Post]]{Items: want}, page, "newest first, no further page")
	assert.Equal(t, "fay's post", page.Items[0].Data.Content)
	assert.Equal(t, "s3://images/p56789.jpg", page.Items[0].Data.ImageURL)
}

// TestTimelinePosts: a timeline longer than a page is read a page at a
// time, each one Query and one BatchGetItem of its posts, newest first; a
// post deleted since its fan-out is left out; an empty timeline is one
// Query and no BatchGetItem.
func TestTimelinePosts(t *testing.T) {
	ctx := context.Background()
	m, rec, _ := newRecorded(t)
	require.NoError(t, createTable(ctx, rec, m))

	// 21 posts by three authors, all on r's timeline.
	var (
		posts   []adjlist.EntityItem[Post]
		entries []adjlist.EntityItem[TimelineEntry]
	)
	authors := []string{"x", "y", "z"}
	for i := range 21 {
		id, author := fmt.Sprintf("%05d", i+1), authors[i%3]
		posts = append(posts, adjlist.EntityItem[Post]{IDs: adjlist.IDs{author, id},
			Data: Post{Content: "post " + id, ImageURL: "s3://images/p" + id + ".jpg", Timestamp: strconv.Itoa(1571827560 + i)}})
		entries = append(entries, adjlist.EntityItem[TimelineEntry]{IDs: adjlist.IDs{"r", id, author}, Data: TimelineEntry{TTL: 4102444800}})
	}
	_, err := m.posts.PutMany(ctx, posts)
	require.NoError(t, err)
	_, err = m.timeline.PutMany(ctx, entries)
	require.NoError(t, err)
	// Post 00019 is deleted; its entry stays on the timeline.
	require.NoError(t, m.posts.Delete(ctx, adjlist.IDs{"x", "00019"}))
	rec.Take()

	// batchGet is the BatchGetItem line of posts[from] down to posts[to],
	// newest first.
	batchGet := func(from, to int) string {
		line := "BatchGetItem"
		for i := from; i >= to; i-- {
			line += fmt.Sprintf(` [PK="u#%s#post" SK="p#%s"]`, posts[i].IDs[0], posts[i].IDs[1])
		}
		return line
	}
	query := `Query (PK = "u#r#timeline") AND (begins_with (SK, "p#")) DESC LIMIT 20`

	// The newest 20 entries (00021 to 00002): 19 posts, 00019 left out.
	page, err := getTimelinePosts(ctx, m, "r", "")
	require.NoError(t, err)
	assert.Equal(t, []string{query, batchGet(20, 1)}, rec.Take())
	want := slices.DeleteFunc(slices.Clone(posts[1:21]), func(p adjlist.EntityItem[Post]) bool { return p.IDs[1] == "00019" })
	slices.Reverse(want)
	require.Len(t, want, 19)
	assert.Equal(t, want, page.Items)
	require.NotEmpty(t, page.Cursor, "more entries")

	// The rest: entry 00001, after the page's last key.
	page, err = getTimelinePosts(ctx, m, "r", page.Cursor)
	require.NoError(t, err)
	assert.Equal(t, []string{query + ` AFTER PK="u#r#timeline" SK="p#00002#u#y"`, batchGet(0, 0)}, rec.Take())
	assert.Equal(t, adjlist.Page[adjlist.EntityItem[Post]]{Items: posts[:1]}, page, "the last page")

	// An empty timeline: the Query alone.
	page, err = getTimelinePosts(ctx, m, "nobody", "")
	require.NoError(t, err)
	assert.Equal(t, []string{`Query (PK = "u#nobody#timeline") AND (begins_with (SK, "p#")) DESC LIMIT 20`}, rec.Take())
	assert.Empty(t, page.Items)
	assert.Empty(t, page.Cursor)
}

// TestWrites: a follow, a post and a like are each the requests the
// design says, and a second one of the same changes nothing.
func TestWrites(t *testing.T) {
	ctx := context.Background()
	m, rec, _ := newRecorded(t)
	require.NoError(t, createTable(ctx, rec, m))
	for _, id := range []string{"a", "b", "c"} {
		require.NoError(t, signUp(ctx, m, id, UserInfo{Name: id}))
	}
	assert.ErrorIs(t, signUp(ctx, m, "a", UserInfo{Name: "other"}), adjlist.ErrExists)
	rec.Take()
	counts := func(id string) UserCounts {
		t.Helper()
		c, err := m.counts.Get(ctx, adjlist.IDs{id}, adjlist.Consistent)
		require.NoError(t, err)
		return c
	}
	followers := func(id string) []string {
		t.Helper()
		ids, err := getFollowerListByUserID(ctx, m, id)
		require.NoError(t, err)
		return ids
	}

	// A follow: one transaction, both lists and both counters.
	follows := `TransactWriteItems` +
		` [Put PK="u#b#follower" SK="u#a" IF attribute_not_exists (PK)]` +
		` [Put PK="u#a#following" SK="u#b" IF attribute_not_exists (PK)]` +
		` [Update PK="u#b" SK="count" ADD follower# 1 IF attribute_exists (PK)]` +
		` [Update PK="u#a" SK="count" ADD following# 1 IF attribute_exists (PK)]`
	require.NoError(t, follow(ctx, m, "a", "b"))
	assert.Equal(t, []string{follows}, rec.Take())
	require.NoError(t, follow(ctx, m, "c", "b"))
	rec.Take()
	assert.Equal(t, UserCounts{Followers: 2}, counts("b"))
	assert.Equal(t, UserCounts{Following: 1}, counts("a"))
	assert.Equal(t, []string{"a", "c"}, followers("b"))

	// Again: the guarded puts fail, so nothing is counted twice.
	rec.Take()
	assert.ErrorIs(t, follow(ctx, m, "a", "b"), adjlist.ErrExists)
	assert.Equal(t, []string{follows}, rec.Take(), "one request, cancelled")
	assert.Equal(t, UserCounts{Followers: 2}, counts("b"))
	assert.Equal(t, UserCounts{Following: 1}, counts("a"))

	// A missing user's counter fails the whole follow.
	assert.ErrorIs(t, follow(ctx, m, "a", "nobody"), adjlist.ErrNotFound)
	assert.Empty(t, followers("nobody"))
	assert.Equal(t, UserCounts{Following: 1}, counts("a"))
	rec.Take()

	// A post: one transaction, then one Query of b's followers and one
	// BatchWriteItem of both timeline entries.
	p := Post{Content: "hello", ImageURL: "s3://x", Timestamp: "1571827560"}
	posted := `TransactWriteItems [Put PK="u#b#post" SK="p#00001" IF attribute_not_exists (PK)]` +
		` [Put PK="p#00001#likecount" SK="count" IF attribute_not_exists (PK)]` +
		` [Update PK="u#b" SK="count" ADD post# 1 IF attribute_exists (PK)]`
	fannedOut := []string{
		`Query (PK = "u#b#follower") AND (begins_with (SK, "u#"))`,
		`BatchWriteItem [Put PK="u#a#timeline" SK="p#00001#u#b"] [Put PK="u#c#timeline" SK="p#00001#u#b"]`,
	}
	n, err := publish(ctx, m, "b", "00001", p)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, append([]string{posted}, fannedOut...), rec.Take())
	// timelines is every timeline entry of a, b and c.
	timelines := func() []adjlist.EntityItem[TimelineEntry] {
		t.Helper()
		var all []adjlist.EntityItem[TimelineEntry]
		for _, id := range []string{"a", "b", "c"} {
			tl, err := getTimelineByUserID(ctx, m, id)
			require.NoError(t, err)
			all = append(all, tl...)
		}
		return all
	}
	// On a's and c's timelines, not on the author's own; each expires 30
	// days after the post.
	entries := []adjlist.EntityItem[TimelineEntry]{
		{IDs: adjlist.IDs{"a", "00001", "b"}, Data: TimelineEntry{TTL: 1571827560 + 30*24*3600}},
		{IDs: adjlist.IDs{"c", "00001", "b"}, Data: TimelineEntry{TTL: 1571827560 + 30*24*3600}},
	}
	assert.Equal(t, entries, timelines())
	assert.Equal(t, UserCounts{Followers: 2, Posts: 1}, counts("b"))
	rec.Take()

	// The fan-out again (a retry): the same requests, overwriting each
	// entry with the same item.
	n, err = fanOut(ctx, m, "b", "00001", time.Unix(1571827560, 0))
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, fannedOut, rec.Take())
	assert.Equal(t, entries, timelines())
	rec.Take()

	// The same post again: refused by the transaction, no fan-out.
	_, err = publish(ctx, m, "b", "00001", p)
	assert.ErrorIs(t, err, adjlist.ErrExists)
	assert.Equal(t, []string{posted}, rec.Take(), "one request, cancelled")
	assert.Equal(t, UserCounts{Followers: 2, Posts: 1}, counts("b"))
	rec.Take()

	// A post of a user without followers: the transaction and the Query,
	// no BatchWriteItem.
	n, err = publish(ctx, m, "a", "00002", p)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, []string{
		`TransactWriteItems [Put PK="u#a#post" SK="p#00002" IF attribute_not_exists (PK)]` +
			` [Put PK="p#00002#likecount" SK="count" IF attribute_not_exists (PK)]` +
			` [Update PK="u#a" SK="count" ADD post# 1 IF attribute_exists (PK)]`,
		`Query (PK = "u#a#follower") AND (begins_with (SK, "u#"))`,
	}, rec.Take())
	assert.Equal(t, entries, timelines())
	rec.Take()

	// A timestamp that is not epoch seconds: refused before any request.
	_, err = publish(ctx, m, "b", "00003", Post{Timestamp: "yesterday"})
	assert.ErrorContains(t, err, `timestamp "yesterday"`)
	assert.Empty(t, rec.Take())

	// A like: one transaction, the like list and the count.
	rec.Take()
	likes := `TransactWriteItems [Put PK="p#00001#likelist" SK="u#a" IF attribute_not_exists (PK)]` +
		` [Update PK="p#00001#likecount" SK="count" ADD like# 1 IF attribute_exists (PK)]`
	require.NoError(t, like(ctx, m, "a", "00001"))
	assert.Equal(t, []string{likes}, rec.Take())
	assert.ErrorIs(t, like(ctx, m, "a", "00001"), adjlist.ErrExists)
	assert.Equal(t, []string{likes}, rec.Take(), "one request, cancelled")
	c, err := getLikeCountByPostID(ctx, m, "00001")
	require.NoError(t, err)
	assert.Equal(t, 1, c, "counted once")
	who, err := getUserLikesByPostID(ctx, m, "00001")
	require.NoError(t, err)
	assert.Equal(t, []string{"a"}, who)

	// A like of a post that does not exist (no like count) writes nothing.
	assert.ErrorIs(t, like(ctx, m, "a", "nope"), adjlist.ErrNotFound)
	who, err = getUserLikesByPostID(ctx, m, "nope")
	require.NoError(t, err)
	assert.Empty(t, who)
}

// TestFanOutBatches: a fan-out to 1,030 followers is one Query of the
// follower list and 42 BatchWriteItems, 25 entries each but the last 5
// (two PutMany calls, of fanOutBatch and of the 30 left), and writes
// every follower's entry.
func TestFanOutBatches(t *testing.T) {
	ctx := context.Background()
	m, rec, table := newRecorded(t)
	require.NoError(t, createTable(ctx, rec, m))
	require.NoError(t, signUp(ctx, m, "star", UserInfo{Name: "star"}))
	var (
		followers []adjlist.EntityItem[Relation]
		want      []adjlist.EntityItem[TimelineEntry]
	)
	const n = fanOutBatch + 30
	for i := range n {
		id := fmt.Sprintf("f%04d", i)
		followers = append(followers, adjlist.EntityItem[Relation]{IDs: adjlist.IDs{"star", id}})
		want = append(want, adjlist.EntityItem[TimelineEntry]{IDs: adjlist.IDs{id, "00001", "star"}, Data: TimelineEntry{TTL: 1571827560 + 30*24*3600}})
	}
	_, err := m.followers.PutMany(ctx, followers)
	require.NoError(t, err)
	rec.Take()

	got, err := publish(ctx, m, "star", "00001", Post{Content: "hi", Timestamp: "1571827560"})
	require.NoError(t, err)
	assert.Equal(t, n, got)
	lines := rec.Take()
	require.Len(t, lines, 2+42)
	assert.Equal(t, `Query (PK = "u#star#follower") AND (begins_with (SK, "u#"))`, lines[1], "one page of followers")
	var batches []string // in follower order; up to 4 are sent at once
	for start := 0; start < n; start += 25 {
		line := "BatchWriteItem"
		for _, e := range want[start:min(start+25, n)] {
			line += fmt.Sprintf(` [Put PK="u#%s#timeline" SK="p#00001#u#star"]`, e.IDs[0])
		}
		batches = append(batches, line)
	}
	require.Len(t, batches, 42)
	assert.ElementsMatch(t, batches, lines[2:])

	// Every follower's entry, and nothing else on a timeline.
	out, err := rec.Client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String(table)})
	require.NoError(t, err)
	require.Empty(t, out.LastEvaluatedKey, "one page")
	var entries []adjlist.EntityItem[TimelineEntry]
	for _, item := range out.Items {
		if e, ok, err := m.timeline.Decode(item); ok {
			require.NoError(t, err)
			entries = append(entries, e)
		}
	}
	assert.ElementsMatch(t, want, entries)
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

// TestVerify: the items the run leaves all fit the model it declares
// (go run ./examples/socialnetwork -verify).
func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }

func TestDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	exampletest.ContainsAll(t, out,
		"### Table `adjlist-socialnetwork`",
		"| item | PK | SK | attributes |",
		"| entity user | `u#<userID>` | `info` | name, content, imageUrl |",
		"| entity count | `u#<userID>` | `count` | follower#, following#, post# |",
		"| entity follower | `u#<userID>#follower` | `u#<followerID>` |  |",
		"| entity following | `u#<userID>#following` | `u#<followedID>` |  |",
		"| entity post | `u#<userID>#post` | `p#<postID>` | content, imageUrl, timestamp |",
		"| entity likelist | `p#<postID>#likelist` | `u#<userID>` |  |",
		"| entity likecount | `p#<postID>#likecount` | `count` | like# |",
		"| entity timeline | `u#<userID>#timeline` | `p#<postID>#u#<authorID>` | ttl |",
		"| one likecount item | `Entity.Get` | GetItem | `PK = \"p#<postID>#likecount\" AND SK = \"count\"` | table |",
		"| getUserInfoByUserID | `AllTypes(Entity.List(id))` | Query | `PK = \"u#<userID>\"` | table |",
		"| getFollowerListByUserID | `Entity.List(id)` | Query | `(PK = \"u#<userID>#follower\") AND (begins_with (SK, \"u#\"))` | table |",
		"| getFollowingListByUserID | `Entity.List(id)` | Query | `(PK = \"u#<userID>#following\") AND (begins_with (SK, \"u#\"))` | table |",
		"| getPostListByUserID | `Entity.List(id).Desc()` | Query | `(PK = \"u#<userID>#post\") AND (begins_with (SK, \"p#\")); ScanIndexForward=false` | table |",
		"| getUserLikesByPostID | `Entity.List(id)` | Query | `(PK = \"p#<postID>#likelist\") AND (begins_with (SK, \"u#\"))` | table |",
		"| getTimelineByUserID | `Entity.List(id).Desc()` | Query | `(PK = \"u#<userID>#timeline\") AND (begins_with (SK, \"p#\")); ScanIndexForward=false` | table |",
	)
	// No index of any kind.
	assert.NotContains(t, out, "Index `")
	assert.NotContains(t, out, "GSI")
}
