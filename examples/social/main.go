// Command social is a follower graph beyond the published designs: users follow users,
// and one of them, a celebrity, has so many followers that the index
// partition of "who follows celeb" is sharded over 8 partitions.
//
//	PK          SK                   GSI1PK          GSI1SK      attributes
//	USER#ada    PROFILE                                          name
//	USER#ada    FOLLOWS#USER#celeb   USER#celeb#05   USER#ada    since
//	USER#ada    FOLLOWS#USER#bob     USER#bob#02     USER#ada    since
//	USER#celeb  PROFILE                                          name
//
// It shows, each with the requests it costs (adjlist.Usage):
//   - referential integrity: a follow is created only if both users exist
//     (one TransactWriteItems with two ConditionChecks);
//   - a bulk load of the celebrity's fans, their profiles first
//     (BatchWriteItem, 25 items per request);
//   - the sharded reverse read: 8 Queries in parallel, merged in order;
//   - counts in each direction (keys-only Queries);
//   - a two-hop query bounded by a request budget ("who else follows the
//     accounts ada follows?");
//   - moving an edge atomically (unfollow one, follow another);
//   - deleting a user with every edge into and out of it (cascade).
//
// By default it talks to DynamoDB Local: the endpoint in
// AWS_ENDPOINT_URL_DYNAMODB if set, else a private in-memory server it starts
// (installed by `make deps`). Only -aws makes it use your AWS configuration.
//
//	go run ./examples/social [-table NAME] [-cleanup] [-aws] [-describe] [-verify] [-workbench FILE] [-cloudformation FILE]
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
	"time"

	"github.com/adjlist/adjlist"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
)

// User is a node item's data: PK=USER#<id>, SK=PROFILE.
type User struct {
	Name string `dynamodbav:"name"`
}

// Follow is an edge's data: PK=USER#<follower>, SK=FOLLOWS#USER#<followed>.
type Follow struct {
	Since string `dynamodbav:"since"`
}

var example = exampleutil.Example{Name: "social", Model: described, Run: run}

func main() { exampleutil.Main(example) }

// fans is how many followers the bulk load gives the celebrity.
const fans = 500

type model struct {
	table   *adjlist.Table
	users   *adjlist.Node[User]
	follows *adjlist.Edge[Follow]
}

func newModel(db adjlist.Client, tableName string) model {
	table := adjlist.NewTable(db, tableName)
	users := adjlist.NewNode[User](table, "USER", "PROFILE")
	// Every target's followers are spread over 8 index partitions.
	follows := adjlist.NewEdge[Follow](users, "FOLLOWS", users, func(o *adjlist.EdgeOptions) { o.Shards = 8 })
	return model{table, users, follows}
}

// described is the model -describe and the exports render (see
// exampleutil.Example.Model).
func described(db adjlist.Client, tableName string) (*adjlist.Table, []adjlist.Describer) {
	m := newModel(db, tableName)
	return m.table, []adjlist.Describer{m.users, m.follows}
}

// cost runs fn with a fresh Usage and prints what it cost.
func cost(ctx context.Context, w io.Writer, what string, fn func(ctx context.Context) error) error {
	var u adjlist.Usage
	if err := fn(adjlist.WithUsage(ctx, &u)); err != nil {
		return err
	}
	fmt.Fprintf(w, "  [%s: %s, %.1f RCU, %.1f WCU]\n", what, requests(u.Totals().Requests), u.Totals().ReadUnits, u.Totals().WriteUnits)
	return nil
}

func run(ctx context.Context, db exampleutil.API, tableName string, cleanup bool, w io.Writer) error {
	m := newModel(db, tableName)
	users, follows := m.users, m.follows
	if err := adjlist.CreateTable(ctx, db, m.table, func(o *adjlist.CreateTableOptions) { o.IfNotExists = true }); err != nil {
		return err
	}
	for id, name := range map[string]string{"ada": "Ada", "bob": "Bob", "cy": "Cy", "celeb": "Celebrity"} {
		if err := users.Replace(ctx, id, User{Name: name}); err != nil {
			return err
		}
	}

	// Referential integrity: both users must exist.
	fmt.Fprintln(w, "follows, checked:")
	for _, f := range [][2]string{{"ada", "celeb"}, {"ada", "bob"}, {"bob", "celeb"}, {"cy", "bob"}, {"ada", "nobody"}} {
		err := cost(ctx, w, f[0]+" follows "+f[1], func(ctx context.Context) error {
			return follows.Put(ctx, f[0], f[1], Follow{Since: "2026-11-01"}, func(o *adjlist.WriteOptions) { o.CheckEnds = true })
		})
		var missing *adjlist.NodeNotFoundError
		switch {
		case errors.As(err, &missing):
			fmt.Fprintf(w, "  %s follows %s: refused, the %s user %q does not exist\n", f[0], f[1], missing.Side, missing.ID)
		case errors.Is(err, adjlist.ErrExists):
			fmt.Fprintf(w, "  %s already follows %s\n", f[0], f[1])
		case err != nil:
			return err
		}
	}

	// Bulk: the celebrity's fans, 25 items per BatchWriteItem. A batch
	// write checks nothing, so the fans' profiles go first: a follow of a
	// user with no profile would be a dangling edge (-verify finds them).
	profiles := make([]adjlist.NodeItem[User], fans)
	load := make([]adjlist.EdgeItem[Follow], fans)
	for i := range load {
		id := fmt.Sprintf("fan%04d", i)
		profiles[i] = adjlist.NodeItem[User]{ID: id, Data: User{Name: "Fan " + id[3:]}}
		load[i] = adjlist.EdgeItem[Follow]{From: id, To: "celeb", Data: Follow{Since: "2026-11-02"}}
	}
	fmt.Fprintf(w, "\nbulk load of %d fans:\n", fans)
	if err := cost(ctx, w, "users.PutMany", func(ctx context.Context) error {
		res, err := users.PutMany(ctx, profiles)
		fmt.Fprintf(w, "  profiles written %d, unwritten %d\n", res.Written, len(res.Unwritten))
		return err
	}); err != nil {
		return err
	}
	if err := cost(ctx, w, "PutMany", func(ctx context.Context) error {
		res, err := follows.PutMany(ctx, load)
		fmt.Fprintf(w, "  written %d, unwritten %d\n", res.Written, len(res.Unwritten))
		return err
	}); err != nil {
		return err
	}
	// The index is eventually consistent on real DynamoDB.
	if err := follows.WaitIndexed(ctx, load[fans-1].From, "celeb", 30*time.Second); err != nil {
		return err
	}

	fmt.Fprintln(w, "\ncelebrity's followers, first page of 5 (8 shards merged):")
	if err := cost(ctx, w, "To(celeb).Page", func(ctx context.Context) error {
		page, err := follows.To("celeb").Limit(5).Page(ctx, "")
		for _, e := range page.Items {
			fmt.Fprintf(w, "  %s\n", e.From)
		}
		return err
	}); err != nil {
		return err
	}
	if err := cost(ctx, w, "counts", func(ctx context.Context) error {
		in, err := follows.To("celeb").Count(ctx)
		if err != nil {
			return err
		}
		out, err := follows.From("ada").Count(ctx)
		fmt.Fprintf(w, "  celeb has %d followers; ada follows %d\n", in, out)
		return err
	}); err != nil {
		return err
	}

	// One Query for ada's follows, then 8 (one per shard) for each account
	// she follows.
	for _, budget := range []int{5, 20} {
		fmt.Fprintf(w, "\nwho else follows the accounts ada follows? (budget %s)\n", requests(budget))
		if err := cost(ctx, w, "Peers", func(ctx context.Context) error {
			res, err := adjlist.TwoHop(ctx, follows, follows, "ada", budget)
			if err != nil {
				return err
			}
			for _, p := range res.Peers[:min(3, len(res.Peers))] {
				fmt.Fprintf(w, "  %s via %v\n", p.ID, p.Via)
			}
			fmt.Fprintf(w, "  %d peers in %s, truncated: %v\n", len(res.Peers), requests(res.Requests), res.Truncated)
			return nil
		}); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\ncy unfollows bob and follows celeb instead (one transaction):")
	if err := cost(ctx, w, "Move", func(ctx context.Context) error {
		err := follows.Move(ctx, "cy", "bob", "cy", "celeb", Follow{Since: "2026-11-03"})
		if errors.Is(err, adjlist.ErrExists) {
			// A second run: cy follows celeb already, so nothing moves.
			fmt.Fprintln(w, "  cy already follows celeb: nothing moved")
			return nil
		}
		return err
	}); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nbob leaves: his profile, his follows and his followers' edges go:")
	if err := cost(ctx, w, "DeleteNode", func(ctx context.Context) error {
		res, err := adjlist.DeleteNode(ctx, users, "bob", follows)
		fmt.Fprintf(w, "  incoming %d, partition %d, node %v\n", res.Incoming, res.Partition, res.Node)
		return err
	}); err != nil {
		return err
	}
	ada, err := follows.From("ada").Collect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "ada now follows %d account(s)\n", len(ada))

	if cleanup {
		return exampleutil.DeleteTable(ctx, db, tableName)
	}
	return nil
}

// requests says "1 request", "2 requests".
func requests[N int | int64](n N) string {
	if n == 1 {
		return "1 request"
	}
	return fmt.Sprintf("%d requests", n)
}
