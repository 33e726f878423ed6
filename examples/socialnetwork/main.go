// Command socialnetwork is the AWS DynamoDB Developer Guide's "Social
// network schema design"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/data-modeling-schema-social-network.html),
// served by adjlist with the design's own keys: one table keyed PK/SK, no
// secondary index, every item type an adjlist.Entity whose keys are
// spelled by templates ("u#{userID}#follower").
//
//	PK                      SK                     attributes
//	u#12345                 info                   name, content, imageUrl
//	u#12345                 count                  follower#, following#, post#
//	u#12345#follower        u#23456                (a follower of 12345)
//	u#12345#following       u#56789                (a user 12345 follows)
//	u#12345#post            p#12345                content, imageUrl, timestamp
//	p#12345#likelist        u#23456                (a user who liked post 12345)
//	p#12345#likecount       count                  like#
//	u#12345#timeline        p#34567#u#56789        ttl
//
// Every read access pattern of the guide is one call and one request (per
// 1 MB page). The guide's key conditions are on PK alone; Entity.List adds
// the item type's sort key prefix, which every item of those partitions
// has:
//
//	getUserInfoByUserID       Query    PK = "u#12345" (info and count, each typed: adjlist.Load)
//	getFollowerListByUserID   Query    PK = "u#12345#follower" AND begins_with(SK, "u#")
//	getFollowingListByUserID  Query    PK = "u#12345#following" AND begins_with(SK, "u#")
//	getPostListByUserID       Query    PK = "u#12345#post" AND begins_with(SK, "p#"), newest first
//	getUserLikesByPostID      Query    PK = "p#12345#likelist" AND begins_with(SK, "u#")
//	getLikeCountByPostID      GetItem  PK = "p#12345#likecount", SK = "count"
//	getTimelineByUserID       Query    PK = "u#12345#timeline" AND begins_with(SK, "p#"), newest first
//
// The guide's app then fills the timeline with the posts themselves
// "using the BatchGetItem operation": getTimelinePosts is a page of it in
// two requests, whatever the authors:
//
//	getTimelinePosts          Query         PK = "u#12345#timeline" AND begins_with(SK, "p#"), newest first, Limit 20
//	                          BatchGetItem  the page's posts, PK = "u#56789#post", SK = "p#34567", ... (Entity.GetMany)
//
// The writes, each printed with the requests it made (adjlist.Usage):
//
//	follow  1 TransactWriteItems: both relationship items, both counters
//	        (the guide's step 3); 8 WCU on DynamoDB (2 per item)
//	post    1 TransactWriteItems: the post, its like count, the author's
//	        post# (6 WCU); then the fan-out to the followers' timelines:
//	        1 Query of the follower list per 1 MB page and 1 BatchWriteItem
//	        per 25 followers (Entity.PutMany; 1 WCU per entry, as a PutItem)
//	like    1 TransactWriteItems: the like list item and the like count (4 WCU)
//
// The ids are the guide's sample model's (aws-samples/aws-dynamodb-examples,
// SocialNetworkSchema.json). Post ids there are 5-digit numbers that
// increase with time, standing in for the ULIDs the guide recommends: the
// sort keys "p#<postID>" then sort posts and timeline entries by time. The
// sample follows u#78912 but has posts of u#78901 on the timeline; here the
// user followed is u#78901, so the timeline is the follow's consequence.
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/socialnetwork [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB; -workbench and -cloudformation write it as a
// NoSQL Workbench data model and a CloudFormation template.
//
// -verify, after the run, checks every item of the table against the model
// (adjlist.Verify), prints the items scanned and each finding, and exits
// with status 1 if there is any; with -cleanup, the table is deleted after
// the check. -cleanup, -aws and -verify beside -describe are usage errors
// (status 2; `go run` then exits 1).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// UserInfo is a user's profile: PK=u#<userID>, SK=info.
type UserInfo struct {
	Name     string `dynamodbav:"name"`
	Content  string `dynamodbav:"content"`
	ImageURL string `dynamodbav:"imageUrl"`
}

// UserCounts is a user's counters: PK=u#<userID>, SK=count. The design
// keeps them out of the info item because they change on every follow and
// post, and an UpdateItem consumes the write units of the whole item (the
// larger of its sizes before and after): a small item of its own keeps
// each increment at the minimum (1 WCU, 2 in a transaction) however long
// the profile grows.
type UserCounts struct {
	Followers int `dynamodbav:"follower#"`
	Following int `dynamodbav:"following#"`
	Posts     int `dynamodbav:"post#"`
}

// Post is a post: PK=u#<userID>#post, SK=p#<postID>.
type Post struct {
	Content  string `dynamodbav:"content"`
	ImageURL string `dynamodbav:"imageUrl"`
	// Timestamp is the time of posting in epoch seconds, a String as in
	// the sample model ("1571827560").
	Timestamp string `dynamodbav:"timestamp"`
}

// LikeCount is a post's like counter: PK=p#<postID>#likecount, SK=count.
// The sample model keeps the count in a String attribute named etc
// ("100"); here it is the Number like#, named as the user's counters are,
// so that a like is an atomic ADD rather than a read-modify-write of a
// string.
type LikeCount struct {
	Likes int `dynamodbav:"like#"`
}

// TimelineEntry is a post on a follower's timeline:
// PK=u#<userID>#timeline, SK=p#<postID>#u#<authorID>. The keys are all it
// says (which post, by whom); ttl lets DynamoDB delete old entries for
// free instead of spending write units on deletes.
type TimelineEntry struct {
	// TTL is the entry's expiry in epoch seconds, the table's Time to
	// Live attribute (the entity's Tracking.Expiry). The fan-out writes
	// it in the data: a batch write takes no per-item write options
	// (adjlist.Expires), and the expiry follows the post's time, not the
	// time of the write.
	TTL int64 `dynamodbav:"ttl,omitempty"`
}

// Relation is the data of the items that only relate two ids (a follower,
// a followed user, a like): none, the keys say it all.
type Relation struct{}

// timelineRetention is how long a post stays on its readers' timelines.
const timelineRetention = 30 * 24 * time.Hour

// timelinePageSize is how many timeline entries getTimelinePosts reads:
// at most 100, the keys one BatchGetItem takes, so a page of posts is one
// Query and one BatchGetItem.
const timelinePageSize = 20

// fanOutBatch is how many timeline entries fanOut writes with one
// PutMany: 40 BatchWriteItems of 25 (up to 4 in flight), so a fan-out to
// any number of followers holds at most this many entries in memory and
// still makes one request per 25 followers.
const fanOutBatch = 1000

var example = exampleutil.Example{Name: "socialnetwork", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// model is the single-table design. Declaring it makes no request.
type model struct {
	table      *adjlist.Table
	users      *adjlist.Entity[UserInfo]
	counts     *adjlist.Entity[UserCounts]
	followers  *adjlist.Entity[Relation]
	following  *adjlist.Entity[Relation]
	posts      *adjlist.Entity[Post]
	likes      *adjlist.Entity[Relation]
	likeCounts *adjlist.Entity[LikeCount]
	timeline   *adjlist.Entity[TimelineEntry]
}

func newModel(db adjlist.Client, tableName string) model {
	// The design has no secondary index: every read is by a partition key
	// the caller can spell.
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) { o.NoIndex = true })
	return model{
		table:      table,
		users:      adjlist.NewEntity[UserInfo](table, "user", "u#{userID}", "info"),
		counts:     adjlist.NewEntity[UserCounts](table, "count", "u#{userID}", "count"),
		followers:  adjlist.NewEntity[Relation](table, "follower", "u#{userID}#follower", "u#{followerID}"),
		following:  adjlist.NewEntity[Relation](table, "following", "u#{userID}#following", "u#{followedID}"),
		posts:      adjlist.NewEntity[Post](table, "post", "u#{userID}#post", "p#{postID}"),
		likes:      adjlist.NewEntity[Relation](table, "likelist", "p#{postID}#likelist", "u#{userID}"),
		likeCounts: adjlist.NewEntity[LikeCount](table, "likecount", "p#{postID}#likecount", "count"),
		timeline: adjlist.NewEntity[TimelineEntry](table, "timeline", "u#{userID}#timeline", "p#{postID}#u#{authorID}",
			func(o *adjlist.EntityOptions) { o.Expiry = "ttl" }),
	}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model): the item types, and the guide's query access
// patterns under its names (getLikeCountByPostID is a GetItem, the
// likecount entity's own "one likecount" row).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.users, m.counts, m.followers, m.following, m.posts, m.likes, m.likeCounts, m.timeline,
		adjlist.AccessPattern("getUserInfoByUserID", userInfoQuery(m, "<userID>")),
		adjlist.AccessPattern("getFollowerListByUserID", m.followers.List("<userID>")),
		adjlist.AccessPattern("getFollowingListByUserID", m.following.List("<userID>")),
		adjlist.AccessPattern("getPostListByUserID", postListQuery(m, "<userID>")),
		adjlist.AccessPattern("getUserLikesByPostID", m.likes.List("<postID>")),
		adjlist.AccessPattern("getTimelineByUserID", timelineQuery(m, "<userID>")),
	}
}

// createTable creates the table if it is missing, with Time to Live on
// the timeline's ttl.
func createTable(ctx context.Context, db exampleutil.API, m model) error {
	return adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) {
		o.IfNotExists = true
		o.TimeToLive = "ttl"
	})
}

// signUp creates a user's info and count items (counters at 0) in one
// TransactWriteItems, so no user has one without the other. A user
// already there is ErrExists, and nothing is written.
func signUp(ctx context.Context, m model, userID string, info UserInfo) error {
	tx := adjlist.NewTx(m.table)
	m.users.Put(ctx, adjlist.IDs{userID}, info, adjlist.InTx(tx))
	m.counts.Put(ctx, adjlist.IDs{userID}, UserCounts{}, adjlist.InTx(tx))
	return tx.Commit(ctx)
}

// follow makes follower follow followed, as the guide's step 3 does, in
// one TransactWriteItems: follower joins followed's follower list and
// followed's follower# goes up; followed joins follower's following list
// and follower's following# goes up. A follow already there is ErrExists
// and changes nothing, so the counters never count one twice; a missing
// user is ErrNotFound.
func follow(ctx context.Context, m model, follower, followed string) error {
	tx := adjlist.NewTx(m.table)
	m.followers.Put(ctx, adjlist.IDs{followed, follower}, Relation{}, adjlist.InTx(tx))
	m.following.Put(ctx, adjlist.IDs{follower, followed}, Relation{}, adjlist.InTx(tx))
	m.counts.Update(ctx, adjlist.IDs{followed}, adjlist.Update{}.Add("follower#", 1), adjlist.InTx(tx))
	m.counts.Update(ctx, adjlist.IDs{follower}, adjlist.Update{}.Add("following#", 1), adjlist.InTx(tx))
	return tx.Commit(ctx)
}

// publish writes author's post and fans it out to the timelines of the
// author's followers (fanOut). It costs
//
//   - one TransactWriteItems: the post (a guarded create), its like count
//     at 0 and the author's post# + 1;
//   - one Query per 1 MB page of the author's follower list;
//   - one BatchWriteItem per 25 followers (none without followers).
//
// A post already there is ErrExists: nothing is written and there is no
// fan-out. A timestamp that is not epoch seconds fails before any request.
// publish returns how many timelines it wrote.
func publish(ctx context.Context, m model, author, postID string, p Post) (int, error) {
	sec, err := strconv.ParseInt(p.Timestamp, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("post %s: timestamp %q: %w", postID, p.Timestamp, err)
	}
	tx := adjlist.NewTx(m.table)
	m.posts.Put(ctx, adjlist.IDs{author, postID}, p, adjlist.InTx(tx))
	m.likeCounts.Put(ctx, adjlist.IDs{postID}, LikeCount{}, adjlist.InTx(tx))
	m.counts.Update(ctx, adjlist.IDs{author}, adjlist.Update{}.Add("post#", 1), adjlist.InTx(tx))
	if err := tx.Commit(ctx); err != nil {
		return 0, err
	}
	return fanOut(ctx, m, author, postID, time.Unix(sec, 0))
}

// fanOut writes post postID of author, posted at posted, on the timeline
// of each of author's followers: one Query per 1 MB page of the follower
// list, and the entries with Entity.PutMany, one BatchWriteItem per 25
// followers instead of one PutItem each (the write units are the same: 1
// WCU per entry of up to 1 KB). A user with a million followers still
// pays a million write units per post, in 40,000 requests, and writes to
// a million partitions: the guide's fan-out on write, which keeps
// getTimelineByUserID one Query. A real service would run it
// asynchronously (a queue, or a DynamoDB stream), "slowly" as the guide
// says, retried until done.
//
// fanOut can run again: PutMany writes without a condition, overwriting
// any entry already there, and each entry is always the same item (its
// keys, and ttl = posted + timelineRetention), so a second run writes the
// same items and changes nothing. That makes a retry safe: after an error
// (say adjlist.ErrUnprocessed, entries DynamoDB left unwritten through
// every resend), run it again whole. It returns how many timelines it
// wrote, leaving out the entries that failed.
func fanOut(ctx context.Context, m model, author, postID string, posted time.Time) (int, error) {
	entry := TimelineEntry{TTL: posted.Add(timelineRetention).Unix()}
	n := 0
	var batch []adjlist.EntityItem[TimelineEntry]
	flush := func() error {
		res, err := m.timeline.PutMany(ctx, batch)
		n += res.Written
		batch = batch[:0]
		return err
	}
	for f, err := range m.followers.List(author).All(ctx) {
		if err != nil {
			return n, err
		}
		batch = append(batch, adjlist.EntityItem[TimelineEntry]{IDs: adjlist.IDs{f.IDs[1], postID, author}, Data: entry})
		if len(batch) == fanOutBatch {
			if err := flush(); err != nil {
				return n, err
			}
		}
	}
	if len(batch) == 0 {
		return n, nil
	}
	return n, flush()
}

// like records that user likes post postID in one TransactWriteItems: the
// like list item and like# + 1. A like already there is ErrExists and
// counts nothing. The guide points out that every like of a post updates
// one item, whose partition takes at most 1,000 WCU per second (and a
// transaction costs twice the units), and that a like count need not be
// exact at once: for popular posts, queue the likes and add them up
// periodically.
func like(ctx context.Context, m model, user, postID string) error {
	tx := adjlist.NewTx(m.table)
	m.likes.Put(ctx, adjlist.IDs{postID, user}, Relation{}, adjlist.InTx(tx))
	m.likeCounts.Update(ctx, adjlist.IDs{postID}, adjlist.Update{}.Add("like#", 1), adjlist.InTx(tx))
	return tx.Commit(ctx)
}

// userInfoQuery is the whole partition of a user, both item types:
// PK = "u#12345". (users.List alone would add SK = "info".)
func userInfoQuery(m model, userID string) adjlist.Query[adjlist.Item] {
	return adjlist.AllTypes(m.users.List(userID))
}

// postListQuery is a user's posts, newest first: post ids grow with time.
func postListQuery(m model, userID string) adjlist.Query[adjlist.EntityItem[Post]] {
	return m.posts.List(userID).Desc()
}

// timelineQuery is a user's timeline, newest first: its sort keys start
// with the post id.
func timelineQuery(m model, userID string) adjlist.Query[adjlist.EntityItem[TimelineEntry]] {
	return m.timeline.List(userID).Desc()
}

// getUserInfoByUserID reads a user's info and count items with one Query
// (PK = "u#12345"), each decoded into its own type. A user without both
// is ErrNotFound.
func getUserInfoByUserID(ctx context.Context, m model, userID string) (UserInfo, UserCounts, error) {
	var (
		info   []adjlist.EntityItem[UserInfo]
		counts []adjlist.EntityItem[UserCounts]
	)
	if _, err := adjlist.Load(ctx, userInfoQuery(m, userID), m.users.Into(&info), m.counts.Into(&counts)); err != nil {
		return UserInfo{}, UserCounts{}, err
	}
	if len(info) != 1 || len(counts) != 1 {
		return UserInfo{}, UserCounts{}, fmt.Errorf("user %s: %w", userID, adjlist.ErrNotFound)
	}
	return info[0].Data, counts[0].Data, nil
}

// getFollowerListByUserID returns the ids of a user's followers, in id
// order: one Query (PK = "u#12345#follower").
func getFollowerListByUserID(ctx context.Context, m model, userID string) ([]string, error) {
	return lastIDs(m.followers.List(userID).Collect(ctx))
}

// getFollowingListByUserID returns the ids of the users a user follows:
// one Query (PK = "u#12345#following").
func getFollowingListByUserID(ctx context.Context, m model, userID string) ([]string, error) {
	return lastIDs(m.following.List(userID).Collect(ctx))
}

// getPostListByUserID returns a user's posts, newest first: one Query
// (PK = "u#12345#post").
func getPostListByUserID(ctx context.Context, m model, userID string) ([]adjlist.EntityItem[Post], error) {
	return postListQuery(m, userID).Collect(ctx)
}

// getUserLikesByPostID returns the ids of the users who liked a post: one
// Query (PK = "p#12345#likelist").
func getUserLikesByPostID(ctx context.Context, m model, postID string) ([]string, error) {
	return lastIDs(m.likes.List(postID).Collect(ctx))
}

// getLikeCountByPostID returns a post's like count: one GetItem
// (PK = "p#12345#likecount", SK = "count").
func getLikeCountByPostID(ctx context.Context, m model, postID string) (int, error) {
	c, err := m.likeCounts.Get(ctx, adjlist.IDs{postID})
	return c.Likes, err
}

// getTimelineByUserID returns a user's timeline, newest first: one Query
// (PK = "u#12345#timeline"). Each entry's IDs are userID, postID,
// authorID; getTimelinePosts reads the posts themselves.
func getTimelineByUserID(ctx context.Context, m model, userID string) ([]adjlist.EntityItem[TimelineEntry], error) {
	return timelineQuery(m, userID).Collect(ctx)
}

// getTimelinePosts returns a page of a user's timeline as the posts
// themselves, newest first, as the guide's app reads it: one Query of up
// to timelinePageSize timeline entries, then one BatchGetItem of the
// posts they point at (posts.GetMany; no request for an empty page). Each
// post's IDs are authorID, postID. A post gone since it was fanned out is
// left out, so a page may hold fewer posts than entries. cursor is "" for
// the newest page, or the Cursor of the page before; the page's Cursor is
// "" after the last.
func getTimelinePosts(ctx context.Context, m model, userID, cursor string) (adjlist.Page[adjlist.EntityItem[Post]], error) {
	entries, err := timelineQuery(m, userID).Limit(timelinePageSize).Page(ctx, cursor)
	if err != nil {
		return adjlist.Page[adjlist.EntityItem[Post]]{}, err
	}
	ids := make([]adjlist.IDs, len(entries.Items))
	for i, e := range entries.Items {
		ids[i] = adjlist.IDs{e.IDs[2], e.IDs[1]} // author, post
	}
	posts, err := m.posts.GetMany(ctx, ids)
	if err != nil {
		return adjlist.Page[adjlist.EntityItem[Post]]{}, err
	}
	return adjlist.Page[adjlist.EntityItem[Post]]{Items: posts, Cursor: entries.Cursor}, nil
}

// lastIDs returns the last id of each item: the related user's id for
// the follower, following and like lists.
func lastIDs[T any](items []adjlist.EntityItem[T], err error) ([]string, error) {
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(items))
	for i, it := range items {
		ids[i] = it.IDs[len(it.IDs)-1]
	}
	return ids, nil
}

// The sample's data: users, who follows whom, posts in id (time) order,
// and the likes of post 12345.
var (
	users = []struct {
		id   string
		info UserInfo
	}{
		{"12345", UserInfo{Name: "hyuklee", Content: "My name is Hyuk Lee", ImageURL: "s3://images/u12345.jpg"}},
		{"23456", UserInfo{Name: "ana", Content: "Ana here", ImageURL: "s3://images/u23456.jpg"}},
		{"34567", UserInfo{Name: "ben", Content: "Ben here", ImageURL: "s3://images/u34567.jpg"}},
		{"45678", UserInfo{Name: "cy", Content: "Cy here", ImageURL: "s3://images/u45678.jpg"}},
		{"56789", UserInfo{Name: "dee", Content: "Dee here", ImageURL: "s3://images/u56789.jpg"}},
		{"67890", UserInfo{Name: "eli", Content: "Eli here", ImageURL: "s3://images/u67890.jpg"}},
		{"78901", UserInfo{Name: "fay", Content: "Fay here", ImageURL: "s3://images/u78901.jpg"}},
	}
	follows = [][2]string{ // follower, followed
		{"23456", "12345"}, {"34567", "12345"}, {"45678", "12345"},
		{"12345", "56789"}, {"12345", "67890"}, {"12345", "78901"},
	}
	posts = []struct{ author, id, content string }{
		{"12345", "12345", "content for a post"},
		{"12345", "23456", "content for another post"},
		{"56789", "34567", "dee's post"},
		{"67890", "45678", "eli's post"},
		{"78901", "56789", "fay's post"},
	}
	likers = []string{"23456", "34567", "45678"} // of post 12345
)

// run writes the sample's items to table through the write paths above and
// shows each access pattern. It can run again on the same table: every
// write but the fan-out is a guarded create (alone or in a transaction),
// so the items already there are reported and nothing is counted twice,
// and a post's fan-out runs only after its post is created (and would
// write the same entries again anyway).
func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	if err := createTable(ctx, db, m); err != nil {
		return err
	}

	fmt.Fprintln(w, "sign up (one TransactWriteItems: info and count):")
	for _, u := range users {
		err := cost(ctx, w, func(ctx context.Context) (string, []string, error) {
			return "  " + u.id + " " + u.info.Name, nil, signUp(ctx, m, u.id, u.info)
		})
		if err := already(w, err, "  %s: already signed up\n", u.id); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nfollow (one TransactWriteItems: both lists, both counters):")
	for _, f := range follows {
		err := cost(ctx, w, func(ctx context.Context) (string, []string, error) {
			return "  " + f[0] + " follows " + f[1], nil, follow(ctx, m, f[0], f[1])
		})
		if err := already(w, err, "  %s already follows %s\n", f[0], f[1]); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\npost (one TransactWriteItems, then the fan-out: one Query of the followers, one BatchWriteItem per 25):")
	for _, p := range posts {
		post := Post{Content: p.content, ImageURL: "s3://images/p" + p.id + ".jpg", Timestamp: strconv.FormatInt(time.Now().Unix(), 10)}
		err := cost(ctx, w, func(ctx context.Context) (string, []string, error) {
			n, err := publish(ctx, m, p.author, p.id, post)
			return fmt.Sprintf("  %s posts %s to %s", p.author, p.id, plural(n, "timeline")), nil, err
		})
		if err := already(w, err, "  %s already posted %s (no fan-out)\n", p.author, p.id); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nlike (one TransactWriteItems: the like list and the count):")
	for _, u := range likers {
		err := cost(ctx, w, func(ctx context.Context) (string, []string, error) {
			return "  " + u + " likes 12345", nil, like(ctx, m, u, "12345")
		})
		if err := already(w, err, "  %s already likes 12345\n", u); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nthe access patterns, one request each:")
	if err := show(ctx, w, m); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nthe timeline's posts (one Query of the timeline, one BatchGetItem of its posts):")
	err := cost(ctx, w, func(ctx context.Context) (string, []string, error) {
		page, err := getTimelinePosts(ctx, m, "12345", "")
		var lines []string
		for _, p := range page.Items {
			lines = append(lines, fmt.Sprintf("  %s by %s  %s", p.IDs[1], p.IDs[0], p.Data.Content))
		}
		return "getTimelinePosts 12345, newest first:", lines, err
	})
	if err != nil {
		return err
	}

	fmt.Fprintf(w, "\ntable %s:\n", tableName)
	order := exampleutil.SeedOrder{Types: []string{"u", "p"}, Heads: []string{"info", "count"}}
	if err := exampleutil.PrintTable(ctx, db, tableName, w, []string{"PK", "SK"}, order.Compare); err != nil {
		return err
	}
	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// show runs the guide's access patterns for user 12345 and post 12345,
// each with what it cost.
func show(ctx context.Context, w io.Writer, m model) error {
	reads := []func(ctx context.Context) (string, []string, error){
		func(ctx context.Context) (string, []string, error) {
			info, c, err := getUserInfoByUserID(ctx, m, "12345")
			return "getUserInfoByUserID 12345:", []string{
				fmt.Sprintf("  %s (%s, %s)", info.Name, info.Content, info.ImageURL),
				fmt.Sprintf("  %d followers, %d following, %d posts", c.Followers, c.Following, c.Posts),
			}, err
		},
		func(ctx context.Context) (string, []string, error) {
			ids, err := getFollowerListByUserID(ctx, m, "12345")
			return "getFollowerListByUserID 12345: " + strings.Join(ids, " "), nil, err
		},
		func(ctx context.Context) (string, []string, error) {
			ids, err := getFollowingListByUserID(ctx, m, "12345")
			return "getFollowingListByUserID 12345: " + strings.Join(ids, " "), nil, err
		},
		func(ctx context.Context) (string, []string, error) {
			ps, err := getPostListByUserID(ctx, m, "12345")
			var lines []string
			for _, p := range ps {
				lines = append(lines, fmt.Sprintf("  %s  %s", p.IDs[1], p.Data.Content))
			}
			return "getPostListByUserID 12345, newest first:", lines, err
		},
		func(ctx context.Context) (string, []string, error) {
			ids, err := getUserLikesByPostID(ctx, m, "12345")
			return "getUserLikesByPostID 12345: " + strings.Join(ids, " "), nil, err
		},
		func(ctx context.Context) (string, []string, error) {
			n, err := getLikeCountByPostID(ctx, m, "12345")
			return fmt.Sprintf("getLikeCountByPostID 12345: %d", n), nil, err
		},
		func(ctx context.Context) (string, []string, error) {
			entries, err := getTimelineByUserID(ctx, m, "12345")
			var lines []string
			for _, e := range entries {
				lines = append(lines, fmt.Sprintf("  post %s by %s", e.IDs[1], e.IDs[2]))
			}
			return "getTimelineByUserID 12345, newest first:", lines, err
		},
	}
	for _, read := range reads {
		if err := cost(ctx, w, read); err != nil {
			return err
		}
	}
	return nil
}

// cost runs fn with a fresh adjlist.Usage and, if it succeeds, prints the
// line fn returns with the requests it made ("  [5 requests]"), then the
// lines after it. Only requests: DynamoDB Local reports a transaction's
// consumed capacity as 2 WCU whatever its size, where DynamoDB charges 2
// WCU per item of up to 1 KB.
func cost(ctx context.Context, w io.Writer, fn func(ctx context.Context) (line string, more []string, err error)) error {
	var u adjlist.Usage
	line, more, err := fn(adjlist.WithUsage(ctx, &u))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s  [%s]\n", line, plural(u.Totals().Requests, "request"))
	for _, l := range more {
		fmt.Fprintln(w, l)
	}
	return nil
}

// already prints format for a guarded create that found its item (a rerun)
// and returns any other error.
func already(w io.Writer, err error, format string, args ...any) error {
	if errors.Is(err, adjlist.ErrExists) {
		fmt.Fprintf(w, format, args...)
		return nil
	}
	return err
}

// plural says "1 request", "5 requests".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
