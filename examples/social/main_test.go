package main

import (
	"fmt"
	"hash/fnv"
	"testing"

	"github.com/adjlist/adjlist/ddblocal/ddbtest"
	"github.com/adjlist/adjlist/examples/internal/exampleutil"
	"github.com/adjlist/adjlist/examples/internal/exampleutil/exampletest"
)

func TestMain(m *testing.M) { ddbtest.Main(m) }

// shard is the index shard of an edge from follower: FNV-1a mod 8, two
// digits, as the library documents for EdgeOptions.Shards.
func shard(follower string) string {
	h := fnv.New32a()
	h.Write([]byte(follower))
	return fmt.Sprintf("%02d", h.Sum32()%8)
}

func profile(id string) exampleutil.Shape {
	return exampletest.Item(map[string]string{"PK": "USER#" + id, "SK": "PROFILE"}, "name")
}

func follow(from, to string) exampleutil.Shape {
	return exampletest.Item(map[string]string{
		"PK": "USER#" + from, "SK": "FOLLOWS#USER#" + to,
		"GSI1PK": "USER#" + to + "#" + shard(from), "GSI1SK": "USER#" + from,
	}, "since")
}

// finalTable is what every run leaves: bob and his edges are gone, cy's
// follow moved from bob to celeb, and celeb has 500 fans besides ada and cy.
func finalTable() exampletest.Seed {
	items := []exampleutil.Shape{profile("ada"), profile("cy"), profile("celeb"), follow("ada", "celeb"), follow("cy", "celeb")}
	for i := range fans {
		id := fmt.Sprintf("fan%04d", i)
		items = append(items, profile(id), follow(id, "celeb"))
	}
	return exampletest.Seed{KeyAttrs: []string{"PK", "SK", "GSI1PK", "GSI1SK"}, Items: items}
}

func TestRunLeavesTheGraph(t *testing.T) {
	db, table := exampletest.RunTwice(t, example, finalTable(), func(run int, out string) {
		exampletest.ContainsAll(t, out,
			"  ada follows nobody: refused, the to user \"nobody\" does not exist\n",
			"  profiles written 500, unwritten 0\n  [users.PutMany: 20 requests,",
			"  written 500, unwritten 0\n  [PutMany: 20 requests,",
			"  [To(celeb).Page: 8 requests,",
			"  cy via [bob",
			"truncated: true\n",
			"  502 peers in 17 requests, truncated: false\n",
			"  [DeleteNode: ",
			"ada now follows 1 account(s)\n",
		)
		if run == 0 {
			exampletest.ContainsAll(t, out,
				"  [ada follows celeb: 1 request, 0.0 RCU, 6.0 WCU]\n",
				"first page of 5 (8 shards merged):\n  ada\n  bob\n  fan0000\n  fan0001\n  fan0002\n",
				"  celeb has 502 followers; ada follows 2\n",
				"  [Move: 1 request, 0.0 RCU, 4.0 WCU]\n",
				"  incoming 1, partition 1, node true\n",
			)
		} else {
			// The data of the first run is still there: cy already follows
			// celeb, so nothing moves, and bob is followed by cy again.
			exampletest.ContainsAll(t, out,
				"  ada already follows celeb\n",
				"  celeb has 503 followers; ada follows 2\n",
				"  cy already follows celeb: nothing moved\n",
				"  incoming 2, partition 1, node true\n",
			)
		}
	})
	exampletest.OnlyIndex(t, db, table, "GSI1", "GSI1PK", "GSI1SK")
}

func TestRunCleanup(t *testing.T) { exampletest.CleanupDeletesTable(t, example) }

func TestDescribe(t *testing.T) {
	out := exampletest.Describe(t, example)
	exampletest.ContainsAll(t, out,
		"| edge FOLLOWS (USER → USER) | `USER#<from>` | `FOLLOWS#USER#<to>` | `USER#<to>#<shard of from, 8>` | `USER#<from>` | since |",
		"| `Edge.To` | 8 Queries in parallel, merged | `GSI1PK = \"USER#<to>#<shard of from, 8>\"",
	)
}

func TestVerify(t *testing.T) { exampletest.VerifyClean(t, example) }
