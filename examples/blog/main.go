// Command blog is a small blogging service on one table, showing the write
// surface: authors (nodes), their posts (an item collection), sign-in
// sessions that expire (Time to Live), follows between authors (edges) and
// tags on posts (edges whose target is a child item, a post, named by its
// ref "AUTHOR#ada#POST#2026-0001").
//
//	PK            SK                                   GSI1PK                      GSI1SK        GSI2PK            GSI2SK          attributes
//	AUTHOR#ada    PROFILE                                                                        name, published, version, createdAt, updatedAt
//	AUTHOR#ada    POST#2026-0001                                                                 STATUS#PUBLISHED  POST#2026-0001  title, status, likes, version, createdAt, updatedAt
//	AUTHOR#ada    SESSION#web                                                                                                      device, expiresAt
//	AUTHOR#bob    FOLLOWS#AUTHOR#ada                   AUTHOR#ada                  AUTHOR#bob                                      since
//	TAG#dynamodb  TAG#dynamodb                                                                                                     (the tag)
//	TAG#dynamodb  TAGGED#AUTHOR#ada#POST#2026-0001     AUTHOR#ada#POST#2026-0001   TAG#dynamodb                                    by
//
// It shows:
//   - guarded creates (Put: ErrExists on a second run);
//   - publishing a draft as one transaction: the post's status moves from
//     DRAFT to PUBLISHED only if it is still a draft (a condition of the
//     caller's, ErrConditionFailed otherwise), and the author's count of
//     published posts goes up at the version read (optimistic locking);
//   - 20 concurrent likes, each a read-modify-write at the version read,
//     retried on ErrVersionConflict: none is lost;
//   - sessions with an expiry in epoch seconds, extended on each sign-in,
//     and a listing that leaves out expired sessions DynamoDB has not yet
//     deleted (a filter on the expiry);
//   - createdAt and updatedAt kept by the library;
//   - tags ↔ posts, many-to-many, with a post as an edge endpoint: tagging
//     checks that the post exists (Put with CheckEnds), a tag lists its posts and
//     a post its tags (on GSI1), and deleting a post deletes its taggings
//     (DeleteChild).
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/blog [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
//
// -describe prints the model (adjlist.Describe) and its Mermaid diagram
// without touching DynamoDB.
//
// -workbench and -cloudformation write the model as a NoSQL Workbench data
// model (with the table's items as sample data after a run without
// -cleanup) and a CloudFormation template of the table, with Time to Live
// on the sessions' expiresAt.
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
	"sync"
	"time"

	"github.com/aws/aws-sdk-go-v2/feature/dynamodb/expression"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// Author is a node item's data: PK=AUTHOR#<id>, SK=PROFILE.
type Author struct {
	Name      string `dynamodbav:"name"`
	Published int    `dynamodbav:"published"`
	Version   int64  `dynamodbav:"version"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// Post is a child's data: PK=AUTHOR#<id>, SK=POST#<post id>.
type Post struct {
	Title     string `dynamodbav:"title"`
	Status    string `dynamodbav:"status"`
	Likes     int    `dynamodbav:"likes"`
	Version   int64  `dynamodbav:"version"`
	CreatedAt string `dynamodbav:"createdAt"`
	UpdatedAt string `dynamodbav:"updatedAt"`
}

// Session is a child's data: PK=AUTHOR#<id>, SK=SESSION#<device id>.
type Session struct {
	Device    string `dynamodbav:"device"`
	ExpiresAt int64  `dynamodbav:"expiresAt"`
}

// Tagging is the data of an edge from a tag to a post: PK=TAG#<tag>,
// SK=TAGGED#AUTHOR#<author>#POST#<post id>.
type Tagging struct {
	By string `dynamodbav:"by"`
}

// Follow is an edge's data: PK=AUTHOR#<follower>, SK=FOLLOWS#AUTHOR#<followed>.
type Follow struct {
	Since string `dynamodbav:"since"`
}

var example = exampleutil.Example{Name: "blog", Model: described, Run: run}

func main() { exampleutil.Main(example) }

type model struct {
	table    *adjlist.Table
	authors  *adjlist.Node[Author]
	posts    *adjlist.Collection[Post, Author]
	sessions *adjlist.Collection[Session, Author]
	follows  *adjlist.Edge[Follow]
	tags     *adjlist.Node[struct{}]
	tagged   *adjlist.Edge[Tagging]
}

// locked is what authors and posts track: a version for optimistic
// locking and both timestamps.
var locked = adjlist.Tracking{Version: "version", CreatedAt: "createdAt", UpdatedAt: "updatedAt"}

func newModel(db adjlist.Client, tableName string) model {
	table := adjlist.NewTable(db, tableName, func(o *adjlist.Options) {
		o.Indexes = []adjlist.Index{{Name: "GSI2", PartitionKey: "GSI2PK", SortKey: "GSI2SK"}}
	})
	authors := adjlist.NewNode[Author](table, "AUTHOR", "PROFILE", func(o *adjlist.NodeOptions) { o.Tracking = locked })
	posts := adjlist.NewCollection[Post](authors, "POST", func(o *adjlist.CollectionOptions) {
		o.Tracking = locked
		// Posts by status across authors: GSI2PK = "STATUS#PUBLISHED".
		o.Indexes = []adjlist.IndexKeys{{Index: "GSI2",
			PartitionKey: adjlist.Template("STATUS#{status}"),
			SortKey:      adjlist.Template("{@self}")}}
	})
	sessions := adjlist.NewCollection[Session](authors, "SESSION", func(o *adjlist.CollectionOptions) {
		o.Expiry, o.Lifetime = "expiresAt", 24*time.Hour
	})
	follows := adjlist.NewEdge[Follow](authors, "FOLLOWS", authors)
	tags := adjlist.NewNode[struct{}](table, "TAG", "")       // self-keyed: PK = SK = TAG#<tag>
	tagged := adjlist.NewEdge[Tagging](tags, "TAGGED", posts) // into a child: the post
	return model{table, authors, posts, sessions, follows, tags, tagged}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.authors, m.posts, m.sessions, m.follows, m.tags, m.tagged}
}

const postID = "2026-0001"

func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) {
		o.IfNotExists = true
		o.TimeToLive = "expiresAt" // DynamoDB deletes expired sessions
	})
	if err != nil {
		return err
	}

	fmt.Fprintln(w, "sign up:")
	for id, name := range map[string]string{"ada": "Ada", "bob": "Bob"} {
		err := m.authors.Put(ctx, id, Author{Name: name}) // attribute_not_exists (#0); version 1
		switch {
		case errors.Is(err, adjlist.ErrExists):
			fmt.Fprintf(w, "  %s: already signed up\n", id)
		case err != nil:
			return err
		}
	}
	if err := m.follows.Put(ctx, "bob", "ada", Follow{Since: "2026-11-01"}, func(o *adjlist.WriteOptions) { o.CheckEnds = true }); err != nil && !errors.Is(err, adjlist.ErrExists) {
		return err
	}

	fmt.Fprintln(w, "\nada writes a draft and publishes it:")
	err = m.posts.Put(ctx, "ada", postID, Post{Title: "Adjacency lists", Status: "DRAFT"})
	if errors.Is(err, adjlist.ErrExists) {
		fmt.Fprintln(w, "  the draft is saved already")
	} else if err != nil {
		return err
	}
	if err := publish(ctx, w, m, "ada", postID); err != nil {
		return err
	}

	fmt.Fprintln(w, "\n20 readers like the post at once:")
	conflicts, err := likeConcurrently(ctx, m, "ada", postID, 20)
	if err != nil {
		return err
	}
	post, err := m.posts.Get(ctx, "ada", postID)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  every like counted (%d version conflicts retried): likes is a multiple of 20: %v\n", conflicts, post.Likes%20 == 0)

	published, err := m.posts.ByIndex("GSI2", "PUBLISHED").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  published posts across authors: %d\n", len(published))

	if err := tagPosts(ctx, w, m); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nsessions:")
	if err := signIn(ctx, w, m, "ada", "web", "Firefox"); err != nil {
		return err
	}
	// A session that has expired: DynamoDB deletes it eventually, typically
	// within a few days; until then reads return it.
	now := time.Now()
	if err := m.sessions.Put(ctx, "ada", "old-tablet", Session{Device: "Tablet"}, adjlist.Expires(now.Add(-time.Hour))); err != nil && !errors.Is(err, adjlist.ErrExists) {
		return err
	}
	all, err := m.sessions.List("ada").Count(ctx)
	if err != nil {
		return err
	}
	expiresAt := expression.Name("expiresAt")
	live, err := m.sessions.List("ada").Filter(expression.AttributeNotExists(expiresAt).Or(expiresAt.GreaterThan(expression.Value(now.Unix())))).Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  %d sessions stored, %d live:", all, len(live))
	for _, s := range live {
		fmt.Fprintf(w, " %s", s.ID)
	}
	fmt.Fprintln(w)
	if err := m.sessions.Delete(ctx, "ada", "old-tablet"); err != nil && !errors.Is(err, adjlist.ErrNotFound) {
		return err
	}

	ada, err := m.authors.Get(ctx, "ada")
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "\nada: version %d, created %s, updated %s\n", ada.Version, ada.CreatedAt, ada.UpdatedAt)

	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// tagPosts tags ada's post and a scratch post, lists them both ways, then
// deletes the scratch post with its tagging.
func tagPosts(ctx context.Context, w io.Writer, m model) error {
	fmt.Fprintln(w, "\ntags on posts:")
	post, err := m.posts.Ref("ada", postID) // "AUTHOR#ada#POST#2026-0001"
	if err != nil {
		return err
	}
	for _, tag := range []string{"dynamodb", "go"} {
		if err := m.tags.Replace(ctx, tag, struct{}{}); err != nil {
			return err
		}
	}
	// Put with CheckEnds: the tag's item and the post's item must both exist.
	missing, err := m.posts.Ref("ada", "no-such-post")
	if err != nil {
		return err
	}
	err = m.tagged.Put(ctx, "dynamodb", missing, Tagging{By: "ada"}, func(o *adjlist.WriteOptions) { o.CheckEnds = true })
	var nf *adjlist.NodeNotFoundError
	if !errors.As(err, &nf) {
		return fmt.Errorf("tagging a missing post: %v", err)
	}
	fmt.Fprintf(w, "  tagging a missing post: %s %s not found, nothing written\n", nf.Type, nf.ID)
	if err := m.tagged.Put(ctx, "dynamodb", post, Tagging{By: "ada"}, func(o *adjlist.WriteOptions) { o.CheckEnds = true }); err != nil && !errors.Is(err, adjlist.ErrExists) {
		return err
	}

	scratch, err := m.posts.Ref("ada", "scratch")
	if err != nil {
		return err
	}
	if err := m.posts.Put(ctx, "ada", "scratch", Post{Title: "Scratch", Status: "DRAFT"}); err != nil && !errors.Is(err, adjlist.ErrExists) {
		return err
	}
	for _, tag := range []string{"dynamodb", "go"} {
		if err := m.tagged.Put(ctx, tag, scratch, Tagging{By: "ada"}, func(o *adjlist.WriteOptions) { o.CheckEnds = true }); err != nil && !errors.Is(err, adjlist.ErrExists) {
			return err
		}
	}
	byTag, err := m.tagged.From("dynamodb").Collect(ctx) // PK = "TAG#dynamodb" AND begins_with(SK, "TAGGED#AUTHOR#")
	if err != nil {
		return err
	}
	fmt.Fprint(w, "  posts tagged dynamodb:")
	for _, e := range byTag {
		author, id, err := m.posts.ParseRef(e.To)
		if err != nil {
			return err
		}
		fmt.Fprintf(w, " %s/%s", author, id)
	}
	fmt.Fprintln(w)
	// GSI1 is eventually consistent: wait (a bounded poll) for the edge
	// just written before reading the post's tags through it.
	if err := m.tagged.WaitIndexed(ctx, "go", scratch, 10*time.Second); err != nil {
		return err
	}
	onScratch, err := m.tagged.To(scratch).Collect(ctx) // GSI1PK = "AUTHOR#ada#POST#scratch"
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  tags of ada/scratch: %d\n", len(onScratch))

	// Deleting the post deletes the edges into it, found through GSI1.
	res, err := adjlist.DeleteChild(ctx, m.posts, "ada", "scratch", m.tagged)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "  ada/scratch deleted with its %d taggings\n", res.Incoming)
	return nil
}

// publish moves a post from DRAFT to PUBLISHED and counts it on its author,
// atomically: the post only if it is still a draft, both at the versions
// read. Another writer of either in between makes it retry.
func publish(ctx context.Context, w io.Writer, m model, author, id string) error {
	draft := expression.Name("status").Equal(expression.Value("DRAFT"))
	for {
		a, err := m.authors.Get(ctx, author)
		if err != nil {
			return err
		}
		p, err := m.posts.Get(ctx, author, id)
		if err != nil {
			return err
		}
		tx := adjlist.NewTx(m.table)
		// ((attribute_exists (#0)) AND (#1 = :0)) AND (#2 = :1):
		// the post exists, at the version read, and is still a draft.
		m.posts.Update(ctx, author, id, adjlist.Set("status", "PUBLISHED"),
			adjlist.IfVersion(p.Version), adjlist.If(draft), adjlist.InTx(tx))
		m.authors.Update(ctx, author, adjlist.Set("published", a.Published+1), adjlist.IfVersion(a.Version), adjlist.InTx(tx))
		err = tx.Commit(ctx)
		switch {
		case errors.Is(err, adjlist.ErrConditionFailed):
			fmt.Fprintln(w, "  not a draft any more: already published")
			return nil
		case errors.Is(err, adjlist.ErrVersionConflict):
			continue // the post or the author changed since we read them
		case err != nil:
			return err
		}
		fmt.Fprintf(w, "  published; ada has %d published post(s)\n", a.Published+1)
		return nil
	}
}

// likeConcurrently has n readers like a post at once, each reading the post
// and writing likes+1 at the version read, retrying on a conflict; it
// returns how many conflicts were retried.
func likeConcurrently(ctx context.Context, m model, author, id string, n int) (int, error) {
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		conflicts int
		errs      []error
	)
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				p, err := m.posts.Get(ctx, author, id)
				if err == nil {
					_, err = m.posts.Update(ctx, author, id, adjlist.Set("likes", p.Likes+1),
						adjlist.IfVersion(p.Version))
				}
				mu.Lock()
				if errors.Is(err, adjlist.ErrVersionConflict) {
					conflicts++
					mu.Unlock()
					continue
				}
				if err != nil {
					errs = append(errs, err)
				}
				mu.Unlock()
				return
			}
		}()
	}
	wg.Wait()
	return conflicts, errors.Join(errs...)
}

// signIn extends a session that exists (an Update, guarded by
// attribute_exists, that pushes its expiry a day ahead) or records a new
// one that expires a day later (a guarded Put). Trying the update first
// tells the two apart whatever the clock says: a Put of a session identical
// to the stored one would succeed as a retry.
func signIn(ctx context.Context, w io.Writer, m model, author, id, device string) error {
	_, err := m.sessions.Update(ctx, author, id, adjlist.Set("device", device),
		adjlist.Expires(time.Now().Add(24*time.Hour)))
	if err == nil {
		fmt.Fprintf(w, "  %s: signed in before; extending the session\n", id)
		return nil
	}
	if !errors.Is(err, adjlist.ErrNotFound) {
		return err
	}
	return m.sessions.Put(ctx, author, id, Session{Device: device}) // expiresAt = now + 24h (Lifetime)
}
